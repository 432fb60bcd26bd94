// Package vetdriver runs go/analysis analyzers under go vet -vettool, like
// golang.org/x/tools/go/analysis/unitchecker, but without type-checking
// from source the packages that cannot matter.
//
// # Why not unitchecker
//
// go vet runs the tool once per package, dependencies first, with a JSON
// config (.cfg) listing the package's files, its import map, the
// compiler's export data of every dependency (PackageFile) and the vetx
// files the tool wrote for the direct imports (PackageVetx). When the
// analyzers declare facts, every dependency, the standard library
// included, is run in facts-only mode (VetxOnly) to produce its vetx file.
// unitchecker's vetx file carries the package's types (export data it
// writes from its own type-check) and its facts, and it imports every
// dependency's types from those files, not from PackageFile. So it must
// parse and type-check every package of the build from source, and there
// is no option to do otherwise: that is the fact-declaring floor, about
// four times the cost of go vet with analyzers that declare no facts.
//
// # What this driver does
//
// Before reading a package's source, it asks Hooks.MayMatter whether the
// analyzers could export a fact of its own for it or report in it, from
// what the config says: the package paths it imports, and, from the
// header line of each direct import's vetx file, whether the import's own
// facts include one that is not weak (Hooks.WeakFact; any fact without
// it) and the names of the objects its weak object facts are about.
// fencelint answers with the engine's own relevance test (fence.Relevance),
// whose remaining questions (a //fencelint: directive? a lease-shaped
// type? a no-return wrapper?) it answers with a byte search, a token scan
// and, for the last, a parse without types. A package that cannot matter
// gets the output of a clean package ({} with -json) and the vetx file
// the full path would write, and is neither parsed nor type-checked: for
// the standard library and most dependencies that is all there is to do.
// That vetx file is empty when no import's file carries facts; otherwise
// it holds Hooks.PassOn's package facts and every fact about a type,
// method or field its imports' files carry (unitrun.PassOn), written from
// those files alone: neither the unit nor its imports are loaded. That is
// a superset of what the full path re-exports (it keeps only the facts
// whose package the imports' declared types reach), and the difference
// cannot show: a dependent that is analysed decodes the file through its
// own view and re-exports by the full rules, one that is skipped reports
// nothing, and the extra names can only make a relevance test say "may
// matter". Each record names its object and says whether dependents carry
// it on, so no types are needed to sort the facts.
//
// A package that may matter is parsed and type-checked, its imports read
// with go/gcexportdata from the compiler's export data in PackageFile, and
// the analyzers run over it (analyzer/internal/unitrun, the per-unit
// analysis this driver shares with the standalone CLI's) as unitchecker
// runs them: the same Pass API
// (ResultOf, facts, Report, ReadFile, Module, TypesSizes), prerequisites
// first and independent analyzers in parallel, the same validation and
// normalisation of suggested fixes and the same output: -json's tree,
// text with -c=N context lines, exit codes (1 for diagnostics in text
// mode, 0 with -json, 1 for a failed facts-only run). In a facts-only run
// only the analyzers that declare facts (and what they require) run.
// Files are parsed once (Unit.ParseFile shares the relevance test's
// parse) and without object resolution, which go/types does not need.
//
// A dependency (VetxOnly) may matter for a few functions only: fencelint
// keeps a package with nothing lock-related when it may declare a
// no-return wrapper, and then reads the types and those functions' bodies
// alone. Hooks.Bodies names them; the driver type-checks the other
// functions as declarations (their bodies dropped, as for functions
// written in assembly; init and generic functions keep theirs, which
// go/types requires). An import only a dropped body used is the one error
// that expects; any other puts the bodies back and checks the unit whole.
// Only dependencies: go vet runs one only after it compiled, so no type
// error can hide in a dropped body, while a package of the command line
// is vetted even when it does not compile. On temporal's ./common/...,
// modernc.org/sqlite/lib (one 8.8 MB generated file) went from 4.2 to 1.6
// s of CPU, modernc.org/libc from 2.3 to 1.5 s.
//
// An analysed unit is one short process that allocates tens to hundreds
// of megabytes, so its memory policy is the driver's: before analysing,
// it reserves its heap with transparent huge pages (internal/hugeheap:
// on the VMs measured, a 4 KiB page fault costs ~14 us and faults were
// ~40% of a unit's time) and collects at GOGC=400 under a 512 MB soft
// limit (a unit's live heap is small next to its garbage). A user's GOGC
// or GOMEMLIMIT wins; FENCELINT_HUGEPAGES=0 turns the reservation off.
// Skipped units reserve nothing: they allocate little.
//
// The vetx file is this driver's own: a magic line, then, when there are
// facts, the header line and the facts, gob-encoded with objects named by
// objectpath and sorted, so the same
// facts give the same bytes (go vet hashes the file into its dependents'
// cache keys). No types: dependents read them from export data. Facts
// follow unitchecker's rules, so analyzers see the same ones: facts of a
// direct import's file are kept if their package is reachable through the
// imports' declared types, and a unit re-exports the imported facts about
// types, fields and methods (not package facts, not facts about other
// packages' functions and variables). A package whose direct imports carry
// no facts can therefore re-export none either, which is why an empty vetx
// file is exact for a skipped package whose imports' files are empty. The
// vetx files of skipped units are the one exception to those rules (see
// above), and TestSameFindings and TestVetPassOn check that no output
// tells them apart.
//
// # Protocol
//
// -flags prints the flags unitchecker prints, byte for byte (-NAME to
// select analyzers, -NAME.flag for analyzer flags, -json, -c, -diff and the
// legacy no-op flags), and -V=full prints unitchecker's line, with the
// executable's hash as the build ID that go vet keys its result cache on.
// FENCELINT_FULL=1 turns the fast path off (every package type-checked and
// analysed); it is mixed into that hash, so go vet never replays a result
// of one mode in the other. With -fix (go vet -fix, go fix -fixtool), and
// for help, the driver hands the whole run to unitchecker: go vet passes
// -fix to every package of the run and keys its cache on the flags, so a
// -fix run only ever reads vetx files unitchecker wrote, and applying
// fixes (FixArchive, -diff) stays unitchecker's code.
//
// Differences that cannot show: a skipped package is not type-checked, so
// a type error go vet's compile did not catch would go unreported there
// (go vet does not run the tool on packages that fail to compile); and
// SucceedOnTypecheckFailure is ignored, as unitchecker v0.52 ignores it
// (cmd/go 1.26 never sets it).
package vetdriver
