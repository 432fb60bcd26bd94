package main

import (
	"encoding/json"
	"strings"
	"testing"

	"honnef.co/go/tools/analysis/lint"
)

func TestAddJSONURLs(t *testing.T) {
	in := `{"code":"fake","severity":"error","location":{"file":"/a.go","line":1,"column":2},"end":{"file":"","line":0,"column":0},"message":"m"}` + "\n" +
		`{"code":"compile","severity":"error","location":{"file":"/a.go","line":1,"column":2},"end":{"file":"","line":0,"column":0},"message":"type error"}` + "\n" +
		"not json\n"
	out := string(addJSONURLs([]byte(in), []*lint.Analyzer{fakeAnalyzer()}))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3:\n%s", len(lines), out)
	}
	var d struct {
		Code, Message, URL string
	}
	if err := json.Unmarshal([]byte(lines[0]), &d); err != nil {
		t.Fatalf("line 1 is not JSON: %v\n%s", err, lines[0])
	}
	if d.URL != "https://example.com/docs/fake.md" || d.Message != "m" {
		t.Errorf("line 1 = %+v, want the analyzer's URL and the message kept", d)
	}
	if !strings.HasPrefix(lines[0], `{"code":"fake","severity":"error",`) {
		t.Errorf("line 1 lost lintcmd's field order: %s", lines[0])
	}
	if strings.Contains(lines[1], `"url"`) {
		t.Errorf("a compile error got a url: %s", lines[1])
	}
	if lines[2] != "not json" {
		t.Errorf("non-JSON line changed: %q", lines[2])
	}
}
