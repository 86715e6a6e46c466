package lexical

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	for _, q := range strings.Split(os.Getenv("ZZQ"), "|") {
		fmt.Printf("Q: %s\n", q)
		for _, c := range clauses(Respelled(apostrophe.Replace(q))) {
			fmt.Printf("  clause %q -> %q\n", c, need(c, false))
		}
		for _, n := range AskedNeeds(q) {
			fmt.Printf("  NEED %+v\n", n)
		}
	}
}
