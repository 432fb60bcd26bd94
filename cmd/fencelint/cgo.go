package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Files that import "C" are analysed like any other when cgo is enabled:
// go vet and the CLI's loader both hand the analyzers cmd/cgo's
// translation (x.cgo1.go), whose //line directives map findings back to
// x.go. With cgo disabled (CGO_ENABLED=0, or no C compiler on PATH, which
// makes the go command turn cgo off) the go command leaves such files out
// of the package as if a build tag excluded them. The functions here find
// those files so that fencelint can name them on stderr instead of
// staying silent about code it never saw.

// cgoSkipped returns those of files (absolute paths) that the go command
// left out only because cgo is disabled: they match the build context
// with cgo enabled, and either import "C" (go/build leaves such files out
// when cgo is off) or do not match the context with cgo disabled (a
// //go:build cgo constraint).
func cgoSkipped(files, tags []string) []string {
	on, off := build.Default, build.Default
	on.CgoEnabled, off.CgoEnabled = true, false
	on.BuildTags, off.BuildTags = tags, tags
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".go") {
			continue
		}
		dir, name := filepath.Split(f)
		okOn, err := on.MatchFile(dir, name)
		if err != nil || !okOn {
			continue
		}
		if okOff, err := off.MatchFile(dir, name); (err == nil && !okOff) || importsC(f) {
			out = append(out, f)
		}
	}
	return out
}

func importsC(file string) bool {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		return false
	}
	for _, imp := range f.Imports {
		if imp.Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// warnCgoSkipped prints one line per file of cgoSkipped to w.
func warnCgoSkipped(w io.Writer, files []string) {
	cwd, _ := os.Getwd()
	for _, f := range files {
		if rel, err := filepath.Rel(cwd, f); err == nil && !strings.HasPrefix(rel, "..") {
			f = rel
		}
		fmt.Fprintf(w, "fencelint: %s not analysed: it imports \"C\" and cgo is disabled (CGO_ENABLED=0, or no C compiler on PATH); set CGO_ENABLED=1 and install a C compiler to lint it\n", f)
	}
}

// vetCgoSkipped warns about the files go vet's config (the *.cfg file it
// passes to its vettool) lists as ignored because cgo is disabled. Only
// for packages being vetted: go vet also runs the tool on every
// dependency (VetxOnly, for facts), std's cgo files included. Test files
// are named only in the test variant of the package, so each file is
// named once.
func vetCgoSkipped(w io.Writer, cfgFile string) {
	data, err := os.ReadFile(cfgFile)
	if err != nil {
		return // unitchecker reports an unreadable config itself
	}
	var cfg struct {
		GoFiles      []string
		IgnoredFiles []string
		VetxOnly     bool
	}
	if json.Unmarshal(data, &cfg) != nil || cfg.VetxOnly {
		return
	}
	testVariant := slices.ContainsFunc(cfg.GoFiles, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
	var files []string
	for _, f := range cfg.IgnoredFiles {
		if strings.HasSuffix(f, "_test.go") == testVariant {
			files = append(files, f)
		}
	}
	// go vet does not pass the build tags on; files ignored for a tag
	// that cgo also needs are named too, which errs on the side of saying.
	warnCgoSkipped(w, cgoSkipped(files, nil))
}

// listCgoSkipped asks the go command, when cgo is disabled, which files of
// the packages matched by patterns it leaves out for that reason. It
// returns nil when cgo is enabled or the go command fails (lintcmd's own
// go list then reports the failure).
func listCgoSkipped(patterns []string, tags string) []string {
	out, err := exec.Command("go", "env", "CGO_ENABLED").Output()
	if err != nil || strings.TrimSpace(string(out)) != "0" {
		return nil
	}
	args := []string{"list", "-e", "-f", "{{$d := .Dir}}{{range .IgnoredGoFiles}}{{$d}}{{\"\\x00\"}}{{.}}\n{{end}}"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	args = append(args, "--")
	args = append(args, patterns...)
	c := exec.Command("go", args...)
	c.Stderr = io.Discard
	out, err = c.Output()
	if err != nil {
		return nil
	}
	var files []string
	for line := range bytes.Lines(out) {
		dir, name, ok := strings.Cut(strings.TrimSpace(string(line)), "\x00")
		if ok {
			files = append(files, filepath.Join(dir, name))
		}
	}
	tagList := strings.FieldsFunc(tags, func(r rune) bool { return r == ',' || r == ' ' })
	return cgoSkipped(files, tagList)
}
