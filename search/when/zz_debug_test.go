package when_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/erleah/erleah-agent/search/when"
)

func TestZZDebug(t *testing.T) {
	for _, q := range strings.Split(os.Getenv("ZZQ"), "|") {
		p := when.Parse(q, sg(20, 13, 30), sgCal)
		fmt.Printf("Q: %s\n  %+v rest=%q\n", q, p.Filter, p.Rest)
	}
}
