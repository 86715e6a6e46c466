package eval

import (
	"maps"
	"slices"
)

// Pool is one report over the cases of several sets' reports, keyed by set
// name: every case counted once, as if the sets were one (a case's id is
// prefixed with its set's name, since sets reuse ids).
func Pool(reports map[string]*Report) *Report {
	byMode := map[Mode][]CaseResult{}
	out := &Report{Summary: map[Mode]Summary{}}
	for _, name := range slices.Sorted(maps.Keys(reports)) {
		for _, r := range reports[name].Cases {
			r.ID = name + "/" + r.ID
			byMode[r.Mode] = append(byMode[r.Mode], r)
			out.Cases = append(out.Cases, r)
		}
	}
	for m, results := range byMode {
		out.Summary[m] = summarise(results)
	}
	out.Paired = pair(out.Cases)
	return out
}
