package vetdriver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/token"
	"log"
	"net/url"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// The -json output: one object per unit, {ID: {analyzer: diagnostics or
// {"error": message}}}, with the field names, order and omissions of the
// schema go vet documents for its -json flag (and unitchecker prints).
type (
	jsonEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonFix struct {
		Message string     `json:"message"`
		Edits   []jsonEdit `json:"edits"`
	}
	jsonRelated struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
	jsonDiagnostic struct {
		Category       string        `json:"category,omitempty"`
		Posn           string        `json:"posn"`
		End            string        `json:"end"`
		Message        string        `json:"message"`
		SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
		Related        []jsonRelated `json:"related,omitempty"`
	}
	jsonError struct {
		Err string `json:"error"`
	}
)

// printJSON writes the unit's object to stdout; an analyzer with neither
// an error nor a diagnostic is left out, and a clean unit prints {}.
func printJSON(fset *token.FileSet, id string, results []result) {
	tree := map[string]map[string]any{}
	for _, r := range results {
		var v any
		switch {
		case r.err != nil:
			v = jsonError{r.err.Error()}
		case len(r.diagnostics) > 0:
			v = jsonDiagnostics(fset, r.diagnostics)
		default:
			continue
		}
		if tree[id] == nil {
			tree[id] = map[string]any{}
		}
		tree[id][r.a.Name] = v
	}
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		log.Panicf("internal error: JSON marshaling failed: %v", err)
	}
	fmt.Fprintf(os.Stdout, "%s\n", data)
}

func jsonDiagnostics(fset *token.FileSet, diags []analysis.Diagnostic) []jsonDiagnostic {
	out := make([]jsonDiagnostic, 0, len(diags))
	for _, d := range diags {
		jd := jsonDiagnostic{
			Category: d.Category,
			Posn:     fset.Position(d.Pos).String(),
			End:      fset.Position(cmp.Or(d.End, d.Pos)).String(),
			Message:  d.Message,
		}
		for _, fix := range d.SuggestedFixes {
			jf := jsonFix{Message: fix.Message}
			for _, e := range fix.TextEdits {
				start := fset.Position(e.Pos)
				jf.Edits = append(jf.Edits, jsonEdit{
					Filename: start.Filename,
					Start:    start.Offset,
					End:      fset.Position(e.End).Offset,
					New:      string(e.NewText),
				})
			}
			jd.SuggestedFixes = append(jd.SuggestedFixes, jf)
		}
		for _, r := range d.Related {
			jd.Related = append(jd.Related, jsonRelated{
				Posn:    fset.Position(r.Pos).String(),
				End:     fset.Position(cmp.Or(r.End, r.Pos)).String(),
				Message: r.Message,
			})
		}
		out = append(out, jd)
	}
	return out
}

// printText writes failures and diagnostics to stderr as go vet prints
// them (position: message, related information indented by a tab, and
// with -c=N the offending lines and N lines around them) and returns 1 if
// there was anything to print.
func printText(fset *token.FileSet, contextLines int, results []result) int {
	exit := 0
	for _, r := range results {
		if r.err != nil {
			log.Println(r.err)
			exit = 1
		}
	}
	for _, r := range results {
		for _, d := range r.diagnostics {
			printPlain(fset, contextLines, d.Pos, d.End, d.Message)
			for _, rel := range d.Related {
				printPlain(fset, contextLines, rel.Pos, rel.End, "\t"+rel.Message)
			}
			exit = 1
		}
	}
	return exit
}

func printPlain(fset *token.FileSet, contextLines int, pos, end token.Pos, msg string) {
	posn := fset.Position(pos)
	fmt.Fprintf(os.Stderr, "%s: %s\n", posn, msg)
	if contextLines < 0 {
		return
	}
	last := fset.Position(end)
	if !last.IsValid() {
		last = posn
	}
	data, _ := os.ReadFile(posn.Filename)
	lines := strings.Split(string(data), "\n")
	for i := max(posn.Line-contextLines, 1); i <= last.Line+contextLines && i <= len(lines); i++ {
		fmt.Fprintf(os.Stderr, "%d\t%s\n", i, lines[i-1])
	}
}

// resolveURL is the Diagnostic.URL contract: an explicit URL, else
// "#Category", resolved against the analyzer's URL.
func resolveURL(a *analysis.Analyzer, d analysis.Diagnostic) (string, error) {
	if d.URL == "" && d.Category == "" && a.URL == "" {
		return "", nil
	}
	raw := d.URL
	if raw == "" && d.Category != "" {
		raw = "#" + d.Category
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("invalid Diagnostic.URL %q: %s", raw, err)
	}
	base, err := url.Parse(a.URL)
	if err != nil {
		return "", fmt.Errorf("invalid Analyzer.URL %q: %s", a.URL, err)
	}
	return base.ResolveReference(ref).String(), nil
}

// validateFixes checks a diagnostic's fixes as go/analysis requires
// (distinct messages; edits within one file, in order, not overlapping)
// and normalises them as unitchecker does before printing: edits sorted
// by position (insertions before replacements at the same offset, equal
// ones in their order), a missing End set to Pos, and an End computed
// slightly past the end of the file (go/ast does that) cut back to it.
func validateFixes(fset *token.FileSet, a *analysis.Analyzer, fixes []analysis.SuggestedFix) error {
	seen := make(map[string]bool)
	for i := range fixes {
		fix := &fixes[i]
		if seen[fix.Message] {
			return fmt.Errorf("analyzer %q suggests two fixes with same Message (%s)", a.Name, fix.Message)
		}
		seen[fix.Message] = true
		if err := validateEdits(fset, fix.TextEdits); err != nil {
			return fmt.Errorf("analyzer %q suggests invalid fix (%s): %v", a.Name, fix.Message, err)
		}
	}
	return nil
}

func validateEdits(fset *token.FileSet, edits []analysis.TextEdit) error {
	slices.SortStableFunc(edits, func(x, y analysis.TextEdit) int {
		return cmp.Or(cmp.Compare(x.Pos, y.Pos), cmp.Compare(x.End, y.End))
	})
	var prevEnd token.Pos
	for i := range edits {
		e := &edits[i]
		file := fset.File(e.Pos)
		if file == nil {
			return fmt.Errorf("no token.File for TextEdit.Pos (%v)", e.Pos)
		}
		eof := token.Pos(file.Base() + file.Size())
		switch {
		case !e.End.IsValid():
			e.End = e.Pos
		case e.End < e.Pos:
			return fmt.Errorf("TextEdit.Pos (%v) > TextEdit.End (%v)", e.Pos, e.End)
		case fset.File(e.End) != file && e.End < eof+10:
			e.End = eof
			continue // a computed End just past EOF; not checked for overlap, as in unitchecker
		case fset.File(e.End) == nil:
			return fmt.Errorf("no token.File for TextEdit.End (%v; File(start).FileEnd is %d)", e.End, eof)
		case fset.File(e.End) != file:
			return fmt.Errorf("edit #%d spans files (%v and %v)", i, file.Position(e.Pos), fset.Position(e.End))
		}
		if e.End > eof {
			return fmt.Errorf("end is (%v) beyond end of file (%v)", e.End, eof)
		}
		if i > 0 && prevEnd.IsValid() && e.Pos < prevEnd {
			return fmt.Errorf("overlapping edits to %s (%v and %v)", file.Name(), fset.Position(edits[i-1].Pos), fset.Position(e.Pos))
		}
		prevEnd = e.End
	}
	return nil
}
