package eval

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/conference"
)

// Role says what a set may be used for.
type Role string

// Roles of evaluation sets.
const (
	// Tuning sets may be read case by case while the agent is changed.
	Tuning Role = "tuning"
	// HeldOut sets were frozen before the code they judge was written and
	// are only read as totals.
	HeldOut Role = "held-out"
)

// Set is a named evaluation set: its cases and the bundle they are about.
// A set whose bundle is not compiled in names the file it needs.
type Set struct {
	Name  string
	Role  Role
	About string
	// DataFile is the bundle to read when none is compiled in, relative to
	// the working directory or one of its parents (tests run in package
	// directories); the caller's --data wins.
	DataFile string
	cases    []byte
	bundle   []byte
}

var (
	//go:embed heldout/bundle.json
	heldoutBundle []byte
	//go:embed heldout/cases.jsonl
	heldoutCases []byte
	//go:embed heldout2/bundle.json
	heldout2Bundle []byte
	//go:embed heldout2/cases.jsonl
	heldout2Cases []byte
	//go:embed careops/bundle.json
	careopsBundle []byte
	//go:embed careops/cases.jsonl
	careopsCases []byte
	//go:embed heldout3/bundle.json
	heldout3Bundle []byte
	//go:embed heldout3/cases.jsonl
	heldout3Cases []byte
	//go:embed heldout4/bundle.json
	heldout4Bundle []byte
	//go:embed heldout4/cases.jsonl
	heldout4Cases []byte
	//go:embed heldout5/bundle.json
	heldout5Bundle []byte
	//go:embed heldout5/cases.jsonl
	heldout5Cases []byte
	//go:embed heldout6/bundle.json
	heldout6Bundle []byte
	//go:embed heldout6/cases.jsonl
	heldout6Cases []byte
	//go:embed heldout7/bundle.json
	heldout7Bundle []byte
	//go:embed heldout7/cases.jsonl
	heldout7Cases []byte
	//go:embed heldout8/bundle.json
	heldout8Bundle []byte
	//go:embed heldout8/cases.jsonl
	heldout8Cases []byte
	//go:embed heldout9/bundle.json
	heldout9Bundle []byte
	//go:embed heldout9/cases.jsonl
	heldout9Cases []byte
	//go:embed heldout10/bundle.json
	heldout10Bundle []byte
	//go:embed heldout10/cases.jsonl
	heldout10Cases []byte
	//go:embed heldout11/bundle.json
	heldout11Bundle []byte
	//go:embed heldout11/cases.jsonl
	heldout11Cases []byte
	//go:embed heldout12/bundle.json
	heldout12Bundle []byte
	//go:embed heldout12/cases.jsonl
	heldout12Cases []byte
	//go:embed heldout13/bundle.json
	heldout13Bundle []byte
	//go:embed heldout13/cases.jsonl
	heldout13Cases []byte
	//go:embed heldout14/bundle.json
	heldout14Bundle []byte
	//go:embed heldout14/cases.jsonl
	heldout14Cases []byte
	//go:embed heldout15/bundle.json
	heldout15Bundle []byte
	//go:embed heldout15/cases.jsonl
	heldout15Cases []byte
	//go:embed heldout16/bundle.json
	heldout16Bundle []byte
	//go:embed heldout16/cases.jsonl
	heldout16Cases []byte
	//go:embed heldout17/bundle.json
	heldout17Bundle []byte
	//go:embed heldout17/cases.jsonl
	heldout17Cases []byte
	//go:embed heldout18/bundle.json
	heldout18Bundle []byte
	//go:embed heldout18/cases.jsonl
	heldout18Cases []byte
	//go:embed heldout19/bundle.json
	heldout19Bundle []byte
	//go:embed heldout19/cases.jsonl
	heldout19Cases []byte
	//go:embed heldout20/bundle.json
	heldout20Bundle []byte
	//go:embed heldout20/cases.jsonl
	heldout20Cases []byte
	//go:embed heldout21/bundle.json
	heldout21Bundle []byte
	//go:embed heldout21/cases.jsonl
	heldout21Cases []byte
	//go:embed heldout22/bundle.json
	heldout22Bundle []byte
	//go:embed heldout22/cases.jsonl
	heldout22Cases []byte
	//go:embed heldout23/bundle.json
	heldout23Bundle []byte
	//go:embed heldout23/cases.jsonl
	heldout23Cases []byte
	//go:embed heldout24/bundle.json
	heldout24Bundle []byte
	//go:embed heldout24/cases.jsonl
	heldout24Cases []byte
	//go:embed heldout25/bundle.json
	heldout25Bundle []byte
	//go:embed heldout25/cases.jsonl
	heldout25Cases []byte
	//go:embed heldout26/bundle.json
	heldout26Bundle []byte
	//go:embed heldout26/cases.jsonl
	heldout26Cases []byte
	//go:embed heldout27/bundle.json
	heldout27Bundle []byte
	//go:embed heldout27/cases.jsonl
	heldout27Cases []byte
	//go:embed heldout28/bundle.json
	heldout28Bundle []byte
	//go:embed heldout28/cases.jsonl
	heldout28Cases []byte
	//go:embed heldout29/bundle.json
	heldout29Bundle []byte
	//go:embed heldout29/cases.jsonl
	heldout29Cases []byte
	//go:embed heldout30/bundle.json
	heldout30Bundle []byte
	//go:embed heldout30/cases.jsonl
	heldout30Cases []byte
	//go:embed heldout31/bundle.json
	heldout31Bundle []byte
	//go:embed heldout31/cases.jsonl
	heldout31Cases []byte
	//go:embed heldout32/bundle.json
	heldout32Bundle []byte
	//go:embed heldout32/cases.jsonl
	heldout32Cases []byte
	//go:embed realconf/cases.jsonl
	realconfCases []byte
	//go:embed realconf/dev_cases.jsonl
	realconfDevCases []byte
	//go:embed followup/cases.jsonl
	followupCases []byte
)

// realconfData is where the real programme is found beside a checkout.
const realconfData = "../shared/data/realconf-dev/bundle.json"

// Sets are the evaluation sets the project ships, tuning sets first.
var Sets = []Set{
	{Name: "demo", Role: Tuning, About: "the demo conferences (AI & data, climate tech), written with the builtin rules", cases: demoCases},
	{Name: "followup", Role: Tuning, About: "follow-up questions with history on the demo conferences, written apart from the code", cases: followupCases},
	{Name: "realconf-dev", Role: Tuning, About: "FOSSASIA Summit 2017, development cases", DataFile: realconfData, cases: realconfDevCases},
	{Name: "careops", Role: Tuning, About: "a digital-health conference written apart from the code, for tuning", cases: careopsCases, bundle: careopsBundle},
	{Name: "heldout", Role: HeldOut, About: "a logistics conference written apart from the code, frozen first", cases: heldoutCases, bundle: heldoutBundle},
	{Name: "heldout2", Role: HeldOut, About: "an agri-food conference written apart from the code, frozen first", cases: heldout2Cases, bundle: heldout2Bundle},
	{Name: "heldout3", Role: HeldOut, About: "a construction conference across a DST change, written apart from the code, frozen first", cases: heldout3Cases, bundle: heldout3Bundle},
	{Name: "heldout4", Role: HeldOut, About: "an aviation-maintenance conference written apart from the code, frozen first", cases: heldout4Cases, bundle: heldout4Bundle},
	{Name: "heldout5", Role: HeldOut, About: "a water-utilities conference written apart from the code, frozen first", cases: heldout5Cases, bundle: heldout5Bundle},
	{Name: "heldout6", Role: HeldOut, About: "a veterinary conference written apart from the code, frozen first", cases: heldout6Cases, bundle: heldout6Bundle},
	{Name: "heldout7", Role: HeldOut, About: "a legal-technology conference written apart from the code, frozen first", cases: heldout7Cases, bundle: heldout7Bundle},
	{Name: "heldout8", Role: HeldOut, About: "a museums and heritage-conservation conference written apart from the code, frozen first", cases: heldout8Cases, bundle: heldout8Bundle},
	{Name: "heldout9", Role: HeldOut, About: "a hotel-operations conference written apart from the code, frozen first", cases: heldout9Cases, bundle: heldout9Bundle},
	{Name: "heldout10", Role: HeldOut, About: "a public-transit operations conference written apart from the code, frozen first", cases: heldout10Cases, bundle: heldout10Bundle},
	{Name: "heldout11", Role: HeldOut, About: "a fire, rescue and emergency-management conference written apart from the code, frozen first", cases: heldout11Cases, bundle: heldout11Bundle},
	{Name: "heldout12", Role: HeldOut, About: "a textile and fashion-manufacturing conference written apart from the code, frozen first", cases: heldout12Cases, bundle: heldout12Bundle},
	{Name: "heldout13", Role: HeldOut, About: "a mining and minerals-processing conference written apart from the code, frozen first", cases: heldout13Cases, bundle: heldout13Bundle},
	{Name: "heldout14", Role: HeldOut, About: "a space-industry and satellite-operations conference written apart from the code, frozen first", cases: heldout14Cases, bundle: heldout14Bundle},
	{Name: "heldout15", Role: HeldOut, About: "a sports-science and coaching conference written apart from the code, frozen first", cases: heldout15Cases, bundle: heldout15Bundle},
	{Name: "heldout16", Role: HeldOut, About: "a dentistry and oral-health conference written apart from the code, frozen first", cases: heldout16Cases, bundle: heldout16Bundle},
	{Name: "heldout17", Role: HeldOut, About: "a video-game development conference written apart from the code, frozen first", cases: heldout17Cases, bundle: heldout17Bundle},
	{Name: "heldout18", Role: HeldOut, About: "a semiconductor-manufacturing conference written apart from the code, frozen first", cases: heldout18Cases, bundle: heldout18Bundle},
	{Name: "heldout19", Role: HeldOut, About: "an insurance, actuarial and claims conference written apart from the code, frozen first", cases: heldout19Cases, bundle: heldout19Bundle},
	{Name: "heldout20", Role: HeldOut, About: "a forestry and timber-industry conference written apart from the code, frozen first", cases: heldout20Cases, bundle: heldout20Bundle},
	{Name: "heldout21", Role: HeldOut, About: "a public-health and epidemiology conference written apart from the code, frozen first", cases: heldout21Cases, bundle: heldout21Bundle},
	{Name: "heldout22", Role: HeldOut, About: "a brewing, distilling, cider and winemaking conference across the European clock change, written apart from the code, frozen first", cases: heldout22Cases, bundle: heldout22Bundle},
	{Name: "heldout23", Role: HeldOut, About: "a live music, touring and event-production conference written apart from the code, frozen first", cases: heldout23Cases, bundle: heldout23Bundle},
	{Name: "heldout24", Role: HeldOut, About: "an aquaculture, fisheries and seafood-processing conference across the European clock change, written apart from the code, frozen first", cases: heldout24Cases, bundle: heldout24Bundle},
	{Name: "heldout25", Role: HeldOut, About: "a wine, viticulture, brewing and distilling conference in Adelaide across the South Australian clock change, written apart from the code, frozen first", cases: heldout25Cases, bundle: heldout25Bundle},
	{Name: "heldout26", Role: HeldOut, About: "a people-operations and HR conference in St. John's across the Newfoundland clock change, written apart from the code, frozen first", cases: heldout26Cases, bundle: heldout26Bundle},
	{Name: "heldout27", Role: HeldOut, About: "a wildlife-conservation and protected-areas conference in Santiago across the Chilean clock change, written apart from the code, frozen first", cases: heldout27Cases, bundle: heldout27Bundle},
	{Name: "heldout28", Role: HeldOut, About: "a brewing, fermentation and beverage-science congress in Prague across the European clock change, written apart from the code, frozen first", cases: heldout28Cases, bundle: heldout28Bundle},
	{Name: "heldout29", Role: HeldOut, About: "a mental-health services and psychological therapies congress in Auckland across the New Zealand clock change, written apart from the code, frozen first", cases: heldout29Cases, bundle: heldout29Bundle},
	{Name: "heldout30", Role: HeldOut, About: "a libraries, archives and information-services conference in Cape Town, written apart from the code, frozen first", cases: heldout30Cases, bundle: heldout30Bundle},
	{Name: "heldout31", Role: HeldOut, About: "a ceramics, glass and advanced-materials conference in Nagoya, written apart from the code, frozen first", cases: heldout31Cases, bundle: heldout31Bundle},
	{Name: "heldout32", Role: HeldOut, About: "a translation, localisation and interpreting conference in Montréal across the North American clock change, written apart from the code, frozen first", cases: heldout32Cases, bundle: heldout32Bundle},
	{Name: "realconf", Role: HeldOut, About: "FOSSASIA Summit 2017, frozen cases", DataFile: realconfData, cases: realconfCases},
}

// SetNamed finds a set by name.
func SetNamed(name string) (Set, error) {
	i := slices.IndexFunc(Sets, func(s Set) bool { return s.Name == name })
	if i < 0 {
		return Set{}, fmt.Errorf("eval: unknown set %q (known: %s)", name, strings.Join(SetNames(), ", "))
	}
	return Sets[i], nil
}

// SetNames lists the shipped sets' names, tuning sets first.
func SetNames() []string {
	names := make([]string, len(Sets))
	for i, s := range Sets {
		names[i] = s.Name
	}
	return names
}

// Cases parses the set's cases.
func (s Set) Cases() ([]Case, error) { return ParseCases(bytes.NewReader(s.cases)) }

// Bundle returns the set's bundle: the compiled-in one, the demo bundle, or
// the file at path (the set's DataFile when path is empty).
func (s Set) Bundle(path string) (*conference.Bundle, error) {
	switch {
	case path != "":
		return conference.LoadFile(path)
	case s.bundle != nil:
		return conference.Parse("eval/"+s.Name+"/bundle.json", s.bundle) // where the compiled-in bundle lives
	case s.DataFile != "":
		return conference.LoadFile(locate(s.DataFile))
	}
	return conference.Demo()
}

// locate finds a relative path from the working directory or the nearest
// parent where it exists; it returns path unchanged when none has it.
func locate(path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	dir, err := os.Getwd()
	if err != nil {
		return path
	}
	for {
		if p := filepath.Join(dir, path); fileExists(p) {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return path
		}
		dir = parent
	}
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
