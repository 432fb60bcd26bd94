package directive

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/lintutil"
	"github.com/fencelint/fencelint/internal/lazyregexp"
	"golang.org/x/tools/go/analysis"
)

// UnknownAnalyzerPrefix starts the message of the finding on an ignore
// that names no fencelint analyzer; the standalone CLI recognises it to
// treat the typo as a usage error (exit 2).
const UnknownAnalyzerPrefix = "//fencelint:ignore names unknown analyzer "

// Category is the Diagnostic.Category of every finding this package
// reports, so users can tell directive hygiene from the rules' findings.
const Category = "directive"

// IgnoreSet is the parsed //fencelint:ignore directives (and malformed
// //fencelint: comments) of one package. It is parsed once and never
// changed, so analyzers running concurrently can share it: each takes its
// own [Ignores] view with [IgnoreSet.For].
type IgnoreSet struct {
	generated map[*token.File]bool
	list      []ignore
	byLine    map[lineKey][]int // indexes into list, for both lines each ignore covers
	bad       []badDirective    // malformed //fencelint: comments of any kind
}

// Ignores is one analyzer run's view of an IgnoreSet: it records which
// ignores suppressed a finding of that analyzer, so it must not be shared
// between analyzers.
type Ignores struct {
	*IgnoreSet
	used []bool // by index into list
}

type ignore struct {
	d     Directive
	names []string
}

// lineKey is a physical line: ignores and diagnostics are matched in the
// same token.File by unadjusted line, so //line directives cannot skew them.
type lineKey struct {
	file *token.File
	line int
}

type badDirective struct {
	pos, end token.Pos
	err      error
}

// CollectIgnores gathers the ignore directives of pass.Files for one
// analyzer: ParseIgnores(pass.Fset, pass.Files).For(). Analyzers that
// read the engine's model use its parsed set instead.
func CollectIgnores(pass *analysis.Pass) *Ignores {
	return ParseIgnores(pass.Fset, pass.Files).For()
}

// ParseIgnores gathers the ignore directives of files. It also keeps every
// malformed //fencelint: comment, which [Ignores.Finish] reports.
func ParseIgnores(fset *token.FileSet, files []*ast.File) *IgnoreSet {
	set := &IgnoreSet{byLine: make(map[lineKey][]int)}
	for _, f := range files {
		tf := fset.File(f.FileStart)
		if tf != nil && isGenerated(fset, f) {
			if set.generated == nil {
				set.generated = map[*token.File]bool{}
			}
			set.generated[tf] = true
		}
		for _, g := range f.Comments {
			for _, c := range g.List {
				set.add(tf, c)
			}
		}
	}
	return set
}

// For returns a fresh view of the set for one analyzer run. A nil set
// gives a view that suppresses and reports nothing.
func (set *IgnoreSet) For() *Ignores {
	if set == nil {
		return nil
	}
	return &Ignores{IgnoreSet: set, used: make([]bool, len(set.list))}
}

func (set *IgnoreSet) add(tf *token.File, c *ast.Comment) {
	d, ok, err := Parse(c)
	if !ok {
		return
	}
	if err != nil {
		set.bad = append(set.bad, badDirective{c.Pos(), c.End(), err})
		return
	}
	if d.Kind != Ignore || tf == nil {
		return
	}
	i := len(set.list)
	set.list = append(set.list, ignore{d: d, names: d.Analyzers()})
	line := tf.PositionFor(c.Pos(), false).Line
	for _, l := range [2]int{line, line + 1} {
		k := lineKey{tf, l}
		set.byLine[k] = append(set.byLine[k], i)
	}
}

// Report reports d through pass unless an ignore directive naming
// pass.Analyzer.Name covers d.Pos's line (the directive's own line or the
// line after it, same file); it records which ignores were used. A
// diagnostic without a position is never suppressed. A nil *Ignores
// suppresses nothing.
func (ig *Ignores) Report(pass *analysis.Pass, d analysis.Diagnostic) {
	if ig.suppressed(pass, d.Pos) {
		return
	}
	// Generated code is fixed at its generator, not at the finding: it is
	// still analysed (its write helpers become facts) but not reported.
	if ig != nil && ig.generated[pass.Fset.File(d.Pos)] {
		return
	}
	if d.URL == "" {
		// The analyzer's page; left empty, drivers would resolve it to
		// URL#Category, an anchor the page does not have.
		d.URL = pass.Analyzer.URL
	}
	fillEnds(pass.Files, &d)
	pass.Report(d)
}

// fillEnds gives the diagnostic and its related locations an End where
// they have only a Pos, so that every driver's output carries a range
// (the CLI's JSON printed an empty "end" for each related location): the
// end of the outermost expression starting at Pos, else of the innermost
// node starting there, else Pos itself.
func fillEnds(files []*ast.File, d *analysis.Diagnostic) {
	if d.Pos.IsValid() && !d.End.IsValid() {
		d.End = endAt(files, d.Pos)
	}
	if len(d.Related) == 0 {
		return
	}
	var related []analysis.RelatedInformation // do not edit the caller's array
	for i, r := range d.Related {
		if r.Pos.IsValid() && !r.End.IsValid() {
			if related == nil {
				related = slices.Clone(d.Related)
			}
			related[i].End = endAt(files, r.Pos)
		}
	}
	if related != nil {
		d.Related = related
	}
}

func endAt(files []*ast.File, pos token.Pos) token.Pos {
	for _, f := range files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		var expr, inner ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil || pos < n.Pos() || pos >= n.End() {
				return false
			}
			if n.Pos() == pos {
				if _, ok := n.(ast.Expr); ok && expr == nil {
					expr = n
				}
				inner = n
			}
			return true
		})
		switch {
		case expr != nil:
			return expr.End()
		case inner != nil:
			return inner.End()
		}
		break
	}
	return pos
}

func (ig *Ignores) suppressed(pass *analysis.Pass, pos token.Pos) bool {
	if ig == nil || !pos.IsValid() || len(ig.list) == 0 {
		return false
	}
	tf := pass.Fset.File(pos)
	if tf == nil {
		return false
	}
	hit := false
	for _, i := range ig.byLine[lineKey{tf, tf.PositionFor(pos, false).Line}] {
		if slices.Contains(ig.list[i].names, pass.Analyzer.Name) {
			// Mark every covering ignore used, so two overlapping ignores
			// do not leave one reported as unused.
			ig.used[i], hit = true, true
		}
	}
	return hit
}

// Finish reports the problems of the package's directives. Call it once, at
// the end of the analyzer's Run, after every finding went through Report.
//
// For pass.Analyzer.Name only, it reports ignores naming this analyzer that
// have no reason, and those that matched no diagnostic. When
// pass.Analyzer.Name is known[0] (known = every fencelint analyzer name, in
// contract order), it also reports, once for all analyzers, ignores naming
// an analyzer not in known and every malformed or unknown //fencelint:
// directive. If known[0] is not run (say, disabled by a driver flag) those
// go unreported.
func (ig *Ignores) Finish(pass *analysis.Pass, known []string) {
	if ig == nil {
		return
	}
	name := pass.Analyzer.Name
	first := len(known) > 0 && known[0] == name
	var diags []analysis.Diagnostic
	report := func(pos, end token.Pos, format string, args ...any) {
		diags = append(diags, analysis.Diagnostic{
			Pos: pos, End: end, Category: Category, Message: fmt.Sprintf(format, args...),
			URL: lintutil.IgnoreURL,
		})
	}
	for i, x := range ig.list {
		if slices.Contains(x.names, name) {
			if x.d.Reason() == "" {
				report(x.d.Pos, x.d.End, "//fencelint:ignore %s needs a reason", name)
			}
			if !ig.used[i] {
				report(x.d.Pos, x.d.End, "//fencelint:ignore %s matched no %s finding; remove it", name, name)
			}
		}
		if first {
			diags = append(diags, unknownNames(x, known)...)
		}
	}
	if first {
		for _, b := range ig.bad {
			report(b.pos, b.end, "%s", b.err)
			diags[len(diags)-1].URL = lintutil.DirectivesURL // any //fencelint: directive
		}
	}
	// Keep output in source order whatever the order of the lists above.
	slices.SortStableFunc(diags, func(a, b analysis.Diagnostic) int { return cmp.Compare(a.Pos, b.Pos) })
	for _, d := range diags {
		pass.Report(d)
	}
}

// cgoHeader is the first line of every file cmd/cgo writes.
const cgoHeader = "// Code generated by cmd/cgo; DO NOT EDIT."

// isGenerated reports whether f is generated code, whose findings are
// dropped. cmd/cgo's translation of a user's file that imports "C"
// (x.cgo1.go: go vet and the standalone CLI's loader both type-check it in
// place of x.go) carries cgo's own "Code generated" header, but it is the
// user's code, mapped back to x.go by //line directives: it counts as
// generated only when x.go carries a header of its own. cgo's helper files
// (_cgo_gotypes.go, _cgo_import.go) have no //line back to a user's file
// and stay generated.
func isGenerated(fset *token.FileSet, f *ast.File) bool {
	if !ast.IsGenerated(f) {
		return false
	}
	if !isCgoTranslation(fset, f) {
		return true
	}
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if c.Text != cgoHeader && generatedRE.MatchString(c.Text) {
				return true
			}
		}
	}
	return false
}

// generatedRE is the line go/ast.IsGenerated looks for.
var generatedRE = lazyregexp.New(`^// Code generated .* DO NOT EDIT\.$`)

// isCgoTranslation reports whether f was written by cmd/cgo from a .go
// file: it starts with cgo's header and its package clause maps, through a
// //line directive, to a different .go file.
func isCgoTranslation(fset *token.FileSet, f *ast.File) bool {
	if len(f.Comments) == 0 || f.Comments[0].List[0].Text != cgoHeader {
		return false
	}
	phys, adj := fset.PositionFor(f.Package, false), fset.PositionFor(f.Package, true)
	return adj.Filename != phys.Filename && strings.HasSuffix(adj.Filename, ".go")
}

// UnknownNames returns a finding for each analyzer name in an ignore
// directive that is not in known, as Finish reports them for known[0]. A
// driver that may not run known[0] (the CLI with -checks) reports them
// from another analyzer and removes the duplicates.
func (ig *Ignores) UnknownNames(known []string) []analysis.Diagnostic {
	if ig == nil {
		return nil
	}
	var diags []analysis.Diagnostic
	for _, x := range ig.list {
		diags = append(diags, unknownNames(x, known)...)
	}
	return diags
}

func unknownNames(x ignore, known []string) []analysis.Diagnostic {
	var diags []analysis.Diagnostic
	for _, n := range x.names {
		if !slices.Contains(known, n) {
			diags = append(diags, analysis.Diagnostic{
				Pos: x.d.Pos, End: x.d.End, Category: Category, URL: lintutil.IgnoreURL,
				Message: UnknownAnalyzerPrefix + n + hint(n, known),
			})
		}
	}
	return diags
}

// hint suggests the known analyzer name closest to a misspelt one.
func hint(n string, known []string) string {
	if best := Closest(n, known); best != "" {
		return "; did you mean " + best + "?"
	}
	return ""
}

// Closest returns the name in known closest to a misspelt name n (at most
// two edits away, case-insensitively), or "" when none is that close. The
// drivers use it for did-you-mean hints on analyzer names in flags and
// settings.
func Closest(n string, known []string) string {
	if len(n) > 32 {
		return ""
	}
	best, bestD := "", 3
	for _, k := range known {
		if d := distance(strings.ToLower(n), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}
