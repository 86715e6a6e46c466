package translate

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"
)

// dict is one dictd dictionary: its index (headword, offset, length per
// line) in memory, its text read from the compressed file on demand.
// Lookups binary-search the index in byte order, the order of FreeDict's
// indexes in Debian (checked with sort -c); an index sorted otherwise
// would only find fewer words.
type dict struct {
	index []byte
	lines []int // where each index line starts
	text  *dictzip
}

func openDict(base string) (*dict, error) {
	index, err := os.ReadFile(base + ".index")
	if err != nil {
		return nil, err
	}
	text, err := openDictzip(base + ".dict.dz")
	if err != nil {
		return nil, err
	}
	d := &dict{index: index, text: text}
	for at := 0; at < len(index); {
		d.lines = append(d.lines, at)
		end := bytes.IndexByte(index[at:], '\n')
		if end < 0 {
			break
		}
		at += end + 1
	}
	return d, nil
}

// line returns index line i's fields.
func (d *dict) line(i int) (head string, offset, size int, ok bool) {
	l := d.index[d.lines[i]:]
	if end := bytes.IndexByte(l, '\n'); end >= 0 {
		l = l[:end]
	}
	f := strings.Split(string(l), "\t")
	if len(f) != 3 {
		return "", 0, 0, false
	}
	offset, ok1 := base64Number(f[1])
	size, ok2 := base64Number(f[2])
	return f[0], offset, size, ok1 && ok2
}

// head returns the headword of index line i.
func (d *dict) head(i int) string {
	l := d.index[d.lines[i]:]
	if tab := bytes.IndexByte(l, '\t'); tab >= 0 {
		l = l[:tab]
	}
	return string(l)
}

// entries returns the texts of every entry of word (lower case).
func (d *dict) entries(word string) ([]string, error) {
	i := sort.Search(len(d.lines), func(i int) bool { return d.head(i) >= word })
	var out []string
	for ; i < len(d.lines); i++ {
		head, offset, size, ok := d.line(i)
		if head != word {
			break
		}
		if !ok {
			continue
		}
		text, err := d.text.read(offset, size)
		if err != nil {
			return nil, fmt.Errorf("entry %q: %w", word, err)
		}
		out = append(out, string(text))
	}
	return out, nil
}

// base64Number reads dictd's numbers: base 64, most significant digit
// first, digits A–Z a–z 0–9 + /.
func base64Number(s string) (int, bool) {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	n := 0
	for _, c := range s {
		v := strings.IndexRune(digits, c)
		if v < 0 || n > 1<<40 {
			return 0, false
		}
		n = n*64 + v
	}
	return n, s != ""
}

// senses reads an entry's English translations: the lines after the
// headword line that are neither examples, notes, synonyms nor
// cross-references, split at commas, without grammar tags (<n>),
// pronunciations (/…/), domain labels ([fin.]) or braces.
func senses(entry string) []string {
	lines := strings.Split(entry, "\n")
	var out []string
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, `"`) || strings.HasPrefix(t, "Synonym") || strings.HasPrefix(t, "see:") || strings.HasPrefix(t, "Note:") {
			continue
		}
		for _, part := range strings.Split(stripMarks(t), ",") {
			if p := strings.Join(strings.Fields(part), " "); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// stripMarks removes <…>, /…/, […] and {…} spans.
func stripMarks(s string) string {
	var b strings.Builder
	var closing rune
	for _, r := range s {
		switch {
		case closing != 0:
			if r == closing {
				if closing == '>' || closing == '/' {
					b.WriteByte(',') // "unit <n>ICU": two translations
				}
				closing = 0
			}
		case r == '<':
			closing = '>'
		case r == '[':
			closing = ']'
		case r == '{':
			closing = '}'
		case r == '/':
			closing = '/'
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
