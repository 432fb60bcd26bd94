package main

import (
	"bytes"
	"go/token"
	"os"
	"strings"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	for in, want := range map[string]string{
		"Status: loading package graph":                        "fencelint: loading packages (go list)",
		"Status: building action graph":                        "fencelint: packages loaded, planning the analysis",
		"Packages: 3/10 initial, 40/200 total; Workers: 2/2":   "fencelint: analysed 40/200 packages (3/10 named, the rest dependencies)",
		"warning: \"./...\" matched no packages":               "",
		"Packages: 3/10 initial, 40/200 total; Workers: 2/2 x": "",
	} {
		got, ok := progressLine(in)
		if got != want || ok != (want != "") {
			t.Errorf("progressLine(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestProgressCopy checks the rendering: on a terminal one line rewritten
// in place and cleared before any other line lintcmd prints; elsewhere one
// line per change.
func TestProgressCopy(t *testing.T) {
	in := "Status: loading package graph\nPackages: 0/1 initial, 1/9 total; Workers: 1/2\nPackages: 0/1 initial, 1/9 total; Workers: 2/2\nwarning: something\nPackages: 1/1 initial, 9/9 total; Workers: 0/2\n"
	var tty bytes.Buffer
	p := &progress{out: &tty, tty: true}
	p.copy(strings.NewReader(in))
	p.clear()
	want := "\r\033[Kfencelint: loading packages (go list)" +
		"\r\033[Kfencelint: analysed 1/9 packages (0/1 named, the rest dependencies)" +
		"\r\033[Kwarning: something\n" +
		"\r\033[Kfencelint: analysed 9/9 packages (1/1 named, the rest dependencies)" +
		"\r\033[K"
	if tty.String() != want {
		t.Errorf("terminal output %q\nwant %q", tty.String(), want)
	}
	var plain bytes.Buffer
	p = &progress{out: &plain}
	p.copy(strings.NewReader(in))
	want = "fencelint: loading packages (go list)\nfencelint: analysed 1/9 packages (0/1 named, the rest dependencies)\nwarning: something\nfencelint: analysed 9/9 packages (1/1 named, the rest dependencies)\n"
	if plain.String() != want {
		t.Errorf("plain output %q\nwant %q", plain.String(), want)
	}
}

func TestSummary(t *testing.T) {
	d := func(cat string, line int, sev uint8) diagnostic {
		var x diagnostic
		x.Category, x.Message, x.Severity = cat, "m", sev
		x.Position = token.Position{Filename: "/m/a/a.go", Line: line, Column: 1}
		return x
	}
	results := []lintResult{
		{CheckedFiles: []string{"/m/a/a.go", "/m/a/b.go", "/m/c/c.go"}, Diagnostics: []diagnostic{
			d("silentreject", 1, 0), d("unfencedwrite", 2, 0), d("unfencedwrite", 3, 0), d("unfencedwrite", 4, severityIgnored),
		}},
		{CheckedFiles: []string{"/m/a/a.go"}, Diagnostics: []diagnostic{d("unfencedwrite", 2, 0)}}, // another build
	}
	got := summary(results, false, 1234*time.Millisecond)
	if want := "fencelint: 3 findings (unfencedwrite 2, silentreject 1) in 2 packages, 1.23s"; got != want {
		t.Errorf("summary = %q\nwant %q", got, want)
	}
	if got := summary(nil, false, 0); got != "fencelint: 0 findings in 0 packages, 0s" {
		t.Errorf("empty summary = %q", got)
	}
}

// TestSummaryAndProgressEndToEnd checks where the summary line appears
// (stderr, text and stylish only) and that progress stays off when stderr
// is not a terminal unless -progress asks for it.
func TestSummaryAndProgressEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelint")
	}
	bin := fencelintBinary(t)
	dir := fixModule(t, map[string]string{"fix.go": fixSrc})
	const sum = "fencelint: 2 findings (unfencedwrite 1, fencepredicate 1) in 1 package, "
	for _, format := range []string{"text", "stylish", "json", "sarif"} {
		stdout, stderr, _ := run(t, dir, os.Environ(), bin, "-f", format, "./...")
		human := format == "text" || format == "stylish"
		if got := strings.Contains(string(stderr), sum); got != human {
			t.Errorf("-f %s: summary on stderr = %v, want %v\nstderr:\n%s", format, got, human, stderr)
		}
		if strings.Contains(string(stdout), "fencelint: 2 findings") {
			t.Errorf("-f %s: summary on stdout", format)
		}
		if strings.Contains(string(stderr), "fencelint: analysed") || strings.Contains(string(stderr), "fencelint: loading") {
			t.Errorf("-f %s: progress on a non-terminal stderr without -progress:\n%s", format, stderr)
		}
	}

	// A cold cache takes seconds here with the fast path off (std
	// dependencies are analysed for facts); progress lines appear every
	// half second, so a run that fast cannot be required to show one. The
	// fast path's driver announces its first step.
	_, stderr, _ := run(t, dir, append(os.Environ(), "STATICCHECK_CACHE="+t.TempDir()), bin, "-progress", "./...")
	if !strings.Contains(string(stderr), "fencelint: loading packages (go list)") {
		t.Errorf("-progress: the driver's first step not shown:\n%s", stderr)
	}
	env := append(os.Environ(), "STATICCHECK_CACHE="+t.TempDir(), fullEnv+"=1")
	start := time.Now()
	_, stderr, code := run(t, dir, env, bin, "-progress", "./...")
	if code != exitFindings {
		t.Errorf("-progress: exit %d, want %d\nstderr:\n%s", code, exitFindings, stderr)
	}
	shown := strings.Contains(string(stderr), "fencelint: analysed ")
	if elapsed := time.Since(start); elapsed > 2*time.Second && !shown {
		t.Errorf("-progress: a %v run printed no progress:\n%s", elapsed.Round(time.Millisecond), stderr)
	}
	if strings.Contains(string(stderr), "Packages: ") || strings.Contains(string(stderr), "Status: ") {
		t.Errorf("-progress: lintcmd's raw status lines leaked:\n%s", stderr)
	}
	if !strings.Contains(string(stderr), sum) {
		t.Errorf("-progress: no summary:\n%s", stderr)
	}
}
