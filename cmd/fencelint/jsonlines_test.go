package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/fencelint/fencelint/analyzer"
)

// lintcmdLine encodes a finding the way lintcmd's -f json formatter does
// (lintcmd/format.go: the same struct and field order, a json.Encoder
// with its default HTML escaping).
func lintcmdLine(t *testing.T, code, severity, msg string, related []string) string {
	t.Helper()
	type location struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	}
	type rel struct {
		Location location `json:"location"`
		End      location `json:"end"`
		Message  string   `json:"message"`
	}
	jp := struct {
		Code     string   `json:"code"`
		Severity string   `json:"severity,omitempty"`
		Location location `json:"location"`
		End      location `json:"end"`
		Message  string   `json:"message"`
		Related  []rel    `json:"related,omitempty"`
	}{Code: code, Severity: severity, Location: location{"/src/a&b/x.go", 3, 4}, End: location{"/src/a&b/x.go", 3, 40}, Message: msg}
	for _, r := range related {
		jp.Related = append(jp.Related, rel{Location: location{"/src/<y>.go", 1, 2}, End: location{"/src/<y>.go", 1, 9}, Message: r})
	}
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(jp); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The one-pass fixer writes exactly what addJSONURLs(fixJSONSeverity(...))
// writes, on lines of every shape: our analyzers' findings with each
// severity lintcmd writes, messages that the encoder escapes (HTML
// characters, quotes, U+2028, invalid UTF-8, control characters),
// related positions or none, other codes, a missing severity, a line that
// already has a url, and lines that are not JSON.
func TestJSONLineFixerMatchesTwoPasses(t *testing.T) {
	msgs := []string{
		"plain", `a "quoted" <tag> & more`, "line\u2028sep\u2029", "bad \xff utf8", "tab\there\nnewline", "ünïcode €", `url: "https://x"`, `"url":"x"`,
	}
	var in strings.Builder
	for _, a := range analyzer.All {
		for _, sev := range []string{"error", "warning", "ignored", ""} {
			for i, m := range msgs {
				var related []string
				if i%2 == 1 {
					related = []string{"the lease", m}
				}
				in.WriteString(lintcmdLine(t, a.Analyzer.Name, sev, m, related))
			}
		}
	}
	in.WriteString(lintcmdLine(t, "compile", "error", "type error <x>", nil))
	in.WriteString(lintcmdLine(t, "staticcheck", "warning", "unused", nil))
	in.WriteString(`{"code":"unfencedwrite","severity":"error","location":{"file":"/a.go","line":1,"column":2},"end":{"file":"/a.go","line":1,"column":5},"message":"m","URL":"https://already"}` + "\n")
	in.WriteString(`{"code":"unfencedwrite","severity":"error","location":{}}` + "\n")
	in.WriteString("not json\n{\"code\":\"unfencedwrite\"\n\n")

	data := []byte(in.String())
	want := addJSONURLs(fixJSONSeverity(data, analyzer.All), analyzer.All)
	var got bytes.Buffer
	if err := newJSONLineFixer(analyzer.All).write(&got, data); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		gl, wl := strings.Split(got.String(), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d differs:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("got %d lines, want %d", len(gl), len(wl))
	}
	// The fast path, not the fallback, handled our analyzers' lines.
	f := newJSONLineFixer(analyzer.All)
	sink := bufio.NewWriter(io.Discard)
	if !f.fast(sink, []byte(lintcmdLine(t, "unfencedwrite", "error", `a "quoted" <tag>`, []string{"x"}))) {
		t.Error("a lintcmd line of unfencedwrite took the two-pass path")
	}
}

// TestJSONLineFixerLongLines: a line longer than the reader's 64 KB
// buffer, and a last line without its newline, come out as the two
// passes write them.
func TestJSONLineFixerLongLines(t *testing.T) {
	long := lintcmdLine(t, "unfencedwrite", "error", strings.Repeat("x", 200<<10), nil)
	short := lintcmdLine(t, "appcheck", "warning", "m", nil)
	for _, in := range []string{
		long + short,
		short + long,
		short + strings.TrimSuffix(long, "\n"),
		strings.Repeat("y", 100<<10),
	} {
		want := addJSONURLs(fixJSONSeverity([]byte(in), analyzer.All), analyzer.All)
		var got bytes.Buffer
		if err := newJSONLineFixer(analyzer.All).copy(&got, strings.NewReader(in)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("input of %d bytes: got %d bytes, want %d", len(in), got.Len(), len(want))
		}
	}
}
