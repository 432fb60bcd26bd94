package main

import (
	"os"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
)

// TestHelp checks that -h lists exactly the flags doc.go documents, and
// none of lintcmd's staticcheck wording.
func TestHelp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	_, stderr, code := run(t, t.TempDir(), os.Environ(), bin, "-h")
	if code != 0 {
		t.Errorf("-h exit %d, want 0", code)
	}
	help := string(stderr)
	var shown []string
	for _, m := range regexp.MustCompile(`(?m)^  -(\S+)`).FindAllStringSubmatch(help, -1) {
		shown = append(shown, m[1])
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	section := string(doc)
	section = section[strings.Index(section, "# Flags of the standalone CLI"):]
	section = section[:strings.Index(section, "\n//\n// fencelint's analyzers define no flags")]
	var documented []string
	for _, m := range regexp.MustCompile(`(?m)^//\t-(\S+)`).FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1])
	}
	slices.Sort(shown)
	slices.Sort(documented)
	if !slices.Equal(shown, documented) {
		t.Errorf("-h lists %q\ndoc.go documents %q", shown, documented)
	}
	for _, bad := range []string{"inherit", "Staticcheck", "valid choices are", "(default )"} {
		if strings.Contains(help, bad) {
			t.Errorf("-h says %q:\n%s", bad, help)
		}
	}
	if !regexp.MustCompile(`(?m)^  -f format\n\s+Output format: text, stylish, json or sarif`).MatchString(help) {
		t.Errorf("-f help does not list sarif:\n%s", help)
	}

	stdout, _, code := run(t, t.TempDir(), os.Environ(), bin, "-version")
	if code != 0 || !strings.HasPrefix(string(stdout), "fencelint ") || strings.Contains(string(stdout), "no version") {
		t.Errorf("-version: exit %d, output %q", code, stdout)
	}
}

func TestBuildVersion(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	const rev = "a4b4385bd2059f6c1d2e3f4a5b6c7d8e9f0a1b2c"
	for _, tc := range []struct {
		name            string
		main            string
		settings        []debug.BuildSetting
		version, detail string
	}{
		{"released", "v0.3.0", nil, "v0.3.0", ""},
		{"pseudo-version", "v0.0.0-20261201195044-a4b4385bd205", vcs("vcs.revision", rev, "vcs.time", "2026-12-01T19:50:44Z", "vcs.modified", "false"),
			"v0.0.0-20261201195044-a4b4385bd205", "commit " + rev + ", 2026-12-01T19:50:44Z"},
		{"checkout", "(devel)", vcs("vcs.revision", rev, "vcs.time", "2026-12-01T19:50:44Z"), "devel-a4b4385bd205", "commit " + rev + ", 2026-12-01T19:50:44Z"},
		{"dirty", "(devel)", vcs("vcs.revision", rev, "vcs.modified", "true"), "devel-a4b4385bd205-dirty", "commit " + rev + ", with uncommitted changes"},
		{"no-stamp", "(devel)", nil, "devel", "no VCS stamp: built with -buildvcs=false or outside a git checkout"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/fencelint/fencelint", Version: tc.main}, Settings: tc.settings}
		v, d := buildVersion(bi, true)
		if v != tc.version || d != tc.detail {
			t.Errorf("%s: buildVersion = %q, %q; want %q, %q", tc.name, v, d, tc.version, tc.detail)
		}
	}
}

// TestFixJSONSeverity checks that analyzer findings get the severity SARIF
// gives their rule, whatever -fail made lintcmd write, and that other
// lines pass through.
func TestFixJSONSeverity(t *testing.T) {
	in := `{"code":"unfencedwrite","severity":"error","location":{"file":"/a.go","line":1,"column":2},"end":{"file":"/a.go","line":1,"column":5},"message":"m"}
{"code":"compile","severity":"error","location":{"file":"/a.go","line":3,"column":1},"end":{"file":"","line":0,"column":0},"message":"c"}
not json
`
	got := string(fixJSONSeverity([]byte(in), analyzer.All))
	want := `{"code":"unfencedwrite","severity":"warning","location":{"file":"/a.go","line":1,"column":2},"end":{"file":"/a.go","line":1,"column":5},"message":"m"}
{"code":"compile","severity":"error","location":{"file":"/a.go","line":3,"column":1},"end":{"file":"","line":0,"column":0},"message":"c"}
not json
`
	if got != want {
		t.Errorf("fixJSONSeverity:\n%s\nwant:\n%s", got, want)
	}
	for _, a := range analyzer.All {
		if lvl := severityLevel(a.Doc.Severity); lvl != "warning" {
			t.Errorf("%s: SARIF level %q; the docs say every finding is a warning", a.Analyzer.Name, lvl)
		}
	}
}
