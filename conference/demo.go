package conference

import _ "embed"

//go:embed demo/bundle.json
var demoJSON []byte

// DemoSource names the embedded demo bundle in messages.
const DemoSource = "demo bundle"

// Demo parses the demo bundle compiled into the binary: the "Applied AI &
// Data Infrastructure Summit 2026" (aidata26) and the "Nordic Climate Tech
// Forum 2026" (climate26).
func Demo() (*Bundle, error) { return Parse(DemoSource, demoJSON) }
