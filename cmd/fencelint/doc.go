// Fencelint reports writes to shared storage made under a distributed lock
// whose own condition does not carry the lease's fencing token.
//
// Usage:
//
//	fencelint [flags] [packages]
//	go vet -vettool=$(command -v fencelint) [-NAME] [packages]
//
// Run directly, fencelint is a staticcheck-style linter (built on
// honnef.co/go/tools/lintcmd) that does not load the packages that cannot
// matter (see Caching). Run by go vet as its -vettool, it speaks go
// vet's protocol through its own driver (analyzer/internal/vetdriver: the
// protocol of golang.org/x/tools/go/analysis/unitchecker, but a package
// that cannot matter is neither parsed nor type-checked); it tells the two
// apart by go vet's arguments (-flags, -V=full, or a *.cfg file last).
//
// # Flags of the standalone CLI
//
// The list below is the one -h prints (TestHelp keeps the two in step).
//
//	-f format        text (default), stylish, json or sarif; binary
//	                 writes results for -merge
//	-checks list     analyzers to run, comma-separated: all, NAME, -NAME
//	                 or a glob such as *token, e.g. -checks=all,-weaktoken
//	                 (default all, as narrowed by staticcheck.conf files);
//	                 an unknown name is a usage error
//	-fail list       analyzers whose findings make the exit status 1
//	                 (default all); an unknown name is a usage error
//	-list            print each analyzer's name and title, in contract order
//	-list-checks     the same, sorted by name
//	-explain NAME    print NAME's documentation and the URL of docs/NAME.md
//	-fix             apply the suggested fixes of the run's findings (from
//	                 the run's own results: no second analysis, no go
//	                 vet), print the findings left unfixed in the chosen
//	                 format and exit 1 while any remain; a fix that
//	                 overlaps another, is in a file that imports "C", or
//	                 would not parse is left unapplied and its finding
//	                 printed; with packages that do not load it applies
//	                 nothing and exits 2; not with -merge or -f binary
//	-progress        print progress (packages loaded, then analysed of
//	                 the total, dependencies included) to stderr; on by
//	                 default when stderr is a terminal (one line rewritten
//	                 in place), off otherwise; -progress=false turns it off
//	-full            analyse every package, dependencies included, as
//	                 lintcmd alone does: turns off the fast path that
//	                 never loads a package that cannot matter (see
//	                 Caching); FENCELINT_FULL=1 does the same. The
//	                 findings are the same either way
//	-tags list       build tags
//	-tests           also lint test files (default true)
//	-go version      target Go version (default: the module's)
//	-show-ignored    also print findings suppressed by //lint:ignore
//	-matrix          read a build matrix from stdin (staticcheck's format)
//	-merge           merge -f binary results (files, or stdin) and print
//	                 them in the -f format
//	-version         print the version: the module version when installed
//	                 as MODULE@VERSION, else the VCS revision, time and
//	                 "-dirty" the go command stamps in a git checkout, else
//	                 "devel"
//	-fencemap FORMAT print the fence map instead of findings: every lock,
//	                 its token, the resources written under it with each
//	                 write's verdict, resources two locks share, and the
//	                 blind spots; FORMAT json, md, dot or mermaid
//	                 (docs/fencemap.md); exit 0, or 2 when packages do not
//	                 load
//	-blindspots      print only the fence map's blind spots: calls inside
//	                 lock scopes fencelint could not see into, with the
//	                 directive that would teach it (md, or -fencemap=json)
//	-fencelint_fence.allfuncs
//	                 the shared engine's flag for measurements: build
//	                 SSA for every function of a relevant package
//	-fencelint_fence.fencemap
//	                 the engine's flag behind -fencemap: record writes
//	                 outside lock scopes and the calls it could not judge
//	                 (set by -fencemap; no effect on findings)
//
// fencelint's analyzers define no flags of their own (there is no
// -ANALYZER.flag); teach them your lock API with //fencelint: directives
// (docs/directives.md), which every driver sees. The engine's flags exist
// only in the standalone CLI.
//
// Checks can also be chosen per directory in staticcheck.conf files
// (checks = ["all", "-weaktoken"]); an entry within two edits of an
// analyzer's name but not one (say "-weaktokn") is a usage error naming
// the file, while names fencelint does not know at all are left alone, as
// the file may be shared with staticcheck (ST1000, -SA*). A finding can
// be suppressed with a //lint:ignore NAME reason comment on the line
// before it (standalone CLI only) or //fencelint:ignore NAME reason
// (every driver).
//
// Output: text prints file:line:col: message (NAME) with paths relative to
// the working directory; json prints one object per line with code,
// severity, location {file,line,column} (absolute path), end, message and
// related [{location, end, message}] and url (the analyzer's page,
// docs/NAME.md); sarif prints one SARIF 2.1.0 log for GitHub code
// scanning, whose rules' helpUri point at fencelint's docs/NAME.md. After
// text and stylish output, one summary line goes to stderr (not with json
// or sarif):
//
//	fencelint: 2 findings (unfencedwrite 1, fencepredicate 1) in 1 package, 0.37s
//
// Every fencelint finding has
// severity "warning" in json and level "warning" in sarif (the analyzers'
// documented severity); -fail, not the severity, decides the exit status.
// compile and config diagnostics have severity "error".
//
// # Exit status of the standalone CLI
//
//	0  no findings (or only findings of analyzers left out of -fail)
//	1  findings; also an unmatched //lint:ignore directive (reported as
//	   category "staticcheck")
//	2  a package did not load, parse or type-check (reported as category
//	   "compile" or "config"; results are incomplete), go list or the
//	   cache failed, or bad usage: an unknown flag or format, or an
//	   unknown analyzer name in -checks, -fail or -explain (refused
//	   before linting, with a did-you-mean) or in a //fencelint:ignore
//	   (reported as a finding, whichever analyzers -checks selects, then
//	   exit 2); an empty -checks, which would run nothing, is refused too
//
// With -f sarif, findings exit 0 (as in staticcheck: the log is the
// result) but load errors still exit 2 and set the invocation's
// executionSuccessful to false. A package that fails to load while another
// has findings exits 2. With -f binary, -merge and -list-checks,
// lintcmd's own status is returned unchanged (1 for findings and load
// errors alike under -merge).
//
// # Under go vet
//
// Analyzers are chosen with unitchecker's flags (the driver keeps them
// byte for byte): -NAME runs only the named
// analyzers, -NAME=false leaves one out. There are no analyzer flags.
//
// go vet prints findings to stderr and exits 1; with -json it prints one
// JSON object per package to stdout and exits 0 even with findings.
// go vet 1.26 caches vet results in GOCACHE and can replay the facts-only
// result of a package it first analysed as a dependency, silently dropping
// its findings: in CI prefer the standalone CLI, or pass -a to go vet.
//
// # cgo
//
// Files that import "C" are analysed through cmd/cgo's translation, as go
// vet does, with positions in the original file. When cgo is disabled
// (CGO_ENABLED=0, or no C compiler on PATH) the go command leaves them
// out; both the CLI and the go vet tool then print, for each such file,
// "fencelint: FILE not analysed: it imports "C" and cgo is disabled ..."
// on stderr.
//
// # Caching
//
// The standalone CLI caches per-package results in $STATICCHECK_CACHE,
// which defaults to <user cache dir>/fencelint (not staticcheck's
// directory). Runs that set analyzer flags use a subdirectory keyed by
// their values, because lintcmd's cache key does not cover them.
//
// The CLI analyses packages with its own driver, which never loads a
// package that cannot matter. staticcheck's runner, which lintcmd uses,
// parses and type-checks every package of the build from source,
// dependencies and the standard library included, because the engine
// declares facts. fencelint's driver lists the packages as lintcmd does
// (go list -e -export -deps, with -tags and -tests), runs them
// dependencies first, and asks the engine's relevance test (the go vet
// driver's: no import of an API rules/ knows, no import carrying facts,
// no //fencelint: directive, no lease-shaped type, decided from the import
// lists and a scan of the source bytes) before loading each: a package it
// rules out is never parsed, and exports no facts and reports nothing but
// its //lint: directives. The others are loaded as lintcmd loads them
// (their imports from the go command's export data) and analysed. Each
// package's result is cached under a key made of the binary's build ID,
// the package's files and its imports' export data, the configuration,
// the analyzer flags and its dependencies' facts, so a warm run replays
// every package without reading its source. The results are then handed
// to lintcmd, which formats them, applies //lint:ignore, -checks, -fail and
// staticcheck.conf, and sets the exit code, as it does for its own.
// With -full or FENCELINT_FULL=1 (and with -matrix or
// -debug.measure-analyzers, which only lintcmd's runner handles) lintcmd
// analyses every package itself, in the cache subdirectory full.
// FENCELINT_DEBUG_DRIVER=1 prints how many packages were replayed,
// analysed and never loaded.
//
// As a pre-commit hook, see .pre-commit-hooks.yaml at the repository root.
package main
