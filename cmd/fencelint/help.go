package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
)

// flagHelp replaces lintcmd's help texts, which name staticcheck's checks
// and formats, with fencelint's (kept in step with doc.go by TestHelp).
// A DefValue of `""` (an empty list as lintcmd prints it) hides lintcmd's
// default where the text states it.
var flagHelp = map[string]struct{ usage, def string }{
	"f":            {"Output `format`: text, stylish, json or sarif (binary: for -merge)", "text"},
	"checks":       {"Comma-separated `list` of analyzers to run: all, NAME, -NAME or a glob such as *token (default all, as narrowed by staticcheck.conf files)", `""`},
	"fail":         {"Comma-separated `list` of analyzers whose findings make the exit status 1 (default all)", `""`},
	"explain":      {"Print the documentation of `analyzer` and the URL of its page", ""},
	"list-checks":  {"List the analyzers, sorted by name", "false"},
	"merge":        {"Merge the -f binary results of fencelint runs (files named as arguments, or stdin) and print them with -f", "false"},
	"matrix":       {"Read a build configuration matrix from stdin (staticcheck's -matrix format)", "false"},
	"show-ignored": {"Also print findings suppressed by //lint:ignore", "false"},
	"tests":        {"Also lint test files", "true"},
	"version":      {"Print the version (module version, or VCS revision and time) and exit", "false"},
}

// describeFlags applies flagHelp to fs and installs fencelint's usage.
func describeFlags(fs *flag.FlagSet) {
	for name, h := range flagHelp {
		if f := fs.Lookup(name); f != nil {
			f.Usage, f.DefValue = h.usage, h.def
		}
	}
	fs.Usage = func() { printUsage(fs.Output(), fs) }
}

// printUsage prints fencelint's usage and every flag but lintcmd's debug.*
// ones, in the flag package's layout.
func printUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprint(w, `Usage: fencelint [flags] [packages]
       go vet -vettool=$(command -v fencelint) [packages]

fencelint reports writes under a distributed lock that are not fenced by
its token. Documentation: `+homepage+`

Flags:
`)
	shown := flag.NewFlagSet("fencelint", flag.ContinueOnError)
	shown.SetOutput(w)
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.HasPrefix(f.Name, "debug.") {
			shown.Var(f.Value, f.Name, f.Usage)
			shown.Lookup(f.Name).DefValue = f.DefValue
		}
	})
	shown.PrintDefaults()
	fmt.Fprintln(w, "\nPackages are go list patterns (go help packages). Exit status: 0 clean, 1 findings, 2 load errors or bad usage.")
}

// buildVersion describes this binary from its build information: the
// module version when it was built as a module dependency (go install
// MODULE@VERSION), else the VCS revision the go command stamps in a
// checkout (vcs.revision, vcs.time, vcs.modified; absent with
// -buildvcs=false or outside a repository), else "devel".
func buildVersion(bi *debug.BuildInfo, ok bool) (version, detail string) {
	if !ok {
		return "devel", "no build information"
	}
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	var details []string
	rev := vcs["vcs.revision"]
	if rev != "" {
		details = append(details, "commit "+rev)
	}
	if t := vcs["vcs.time"]; t != "" {
		details = append(details, t)
	}
	if vcs["vcs.modified"] == "true" {
		details = append(details, "with uncommitted changes")
	}
	switch v := bi.Main.Version; {
	case v != "" && v != "(devel)":
		version = v
	case rev != "":
		version = "devel-" + rev[:min(12, len(rev))]
		if vcs["vcs.modified"] == "true" {
			version += "-dirty"
		}
	default:
		version = "devel"
		details = append(details, "no VCS stamp: built with -buildvcs=false or outside a git checkout")
	}
	return version, strings.Join(details, ", ")
}

// printVersion answers -version (and, with verbose, -debug.version).
func printVersion(w io.Writer, verbose bool) {
	bi, ok := debug.ReadBuildInfo()
	v, detail := buildVersion(bi, ok)
	if detail != "" {
		detail = " (" + detail + ")"
	}
	fmt.Fprintf(w, "fencelint %s%s %s\n", v, detail, runtime.Version())
	if !verbose || !ok {
		return
	}
	fmt.Fprintln(w, "\nMain module:", bi.Main.Path)
	fmt.Fprintln(w, "Dependencies:")
	for _, m := range bi.Deps {
		fmt.Fprintf(w, "\t%s@%s %s\n", m.Path, m.Version, m.Sum)
	}
}
