package directive

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		text   string
		ok     bool
		kind   Kind
		args   []string
		errSub string // "" = no error
	}{
		{"//fencelint:acquire", true, Acquire, nil, ""},
		{"//fencelint:release", true, Release, nil, ""},
		{"//fencelint:token", true, Token, nil, ""},
		{"//fencelint:token id", true, Token, []string{"id"}, ""},
		{"//fencelint:lease", true, Lease, nil, ""},
		{"//fencelint:holds", true, Holds, nil, ""},
		{"//fencelint:holds leadership", true, Holds, []string{"leadership"}, ""},
		{"//fencelint:holds leadership token=term", true, Holds, []string{"leadership", "token=term"}, ""},
		{"//fencelint:holds token=term", true, Holds, []string{"token=term"}, ""},
		{"//fencelint:write", true, Write, nil, ""},
		{"//fencelint:write token=fence", true, Write, []string{"token=fence"}, ""},
		{"//fencelint:write   token=fence  ", true, Write, []string{"token=fence"}, ""},
		{"//fencelint:write \"token=fence\"", true, Write, []string{"token=fence"}, ""},
		{"//fencelint:ignore unfencedwrite the row lock fences it", true, Ignore,
			[]string{"unfencedwrite", "the", "row", "lock", "fences", "it"}, ""},
		{"//fencelint:ignore unfencedwrite,silentreject it's \"fine", true, Ignore,
			[]string{"unfencedwrite,silentreject", "it's", "\"fine"}, ""},
		{"//fencelint:ignore unfencedwrite", true, Ignore, []string{"unfencedwrite"}, ""},

		{"// fencelint:acquire", false, "", nil, ""},
		{"/*fencelint:acquire*/", false, "", nil, ""},
		{"//go:generate stringer", false, "", nil, ""},
		{"//lint:ignore SA1000 reason", false, "", nil, ""},
		{"//fencelintx:acquire", false, "", nil, ""},
		{"//nolint:fencelint", false, "", nil, ""},

		{"//fencelint:acquier", true, "", nil, "unknown directive //fencelint:acquier; did you mean //fencelint:acquire?"},
		{"//fencelint:frobnicate", true, "", nil, "unknown directive //fencelint:frobnicate"},
		{"//fencelint:Acquire", true, "", nil, "malformed directive"},
		{"//fencelint: acquire", true, "", nil, "malformed directive"},
		{"//fencelint:", true, "", nil, "malformed directive"},
		{"//fencelint:acquire now", true, "", nil, "//fencelint:acquire takes no arguments"},
		{"//fencelint:token x y", true, "", nil, "takes at most one argument"},
		{"//fencelint:token token=x", true, "", nil, "write the parameter name alone (//fencelint:token x)"},
		{"//fencelint:token 1x", true, "", nil, "is not a parameter name"},
		{"//fencelint:lease Token", true, "", nil, "//fencelint:lease takes no arguments"},
		{"//fencelint:holds a b", true, "", nil, "unexpected argument \"b\""},
		{"//fencelint:holds token=t a", true, "", nil, "unexpected argument \"a\""},
		{"//fencelint:holds token=", true, "", nil, "is not a parameter name"},
		{"//fencelint:holds token=a token=b", true, "", nil, "given twice"},
		{"//fencelint:leas", true, "", nil, "did you mean //fencelint:lease?"},
		{"//fencelint:write fence", true, "", nil, "unknown argument \"fence\""},
		{"//fencelint:write token=", true, "", nil, "is not a parameter name"},
		{"//fencelint:write token=func", true, "", nil, "is not a parameter name"},
		{"//fencelint:write token=a token=b", true, "", nil, "given twice"},
		{"//fencelint:write \"token=fence", true, "", nil, "invalid quoted string"},
		{"//fencelint:ignore", true, "", nil, "needs an analyzer name and a reason"},
		{"//fencelint:ignore a,,b reason", true, "", nil, "is not an analyzer name"},
	}
	for _, tt := range tests {
		c := &ast.Comment{Slash: 100, Text: tt.text}
		d, ok, err := Parse(c)
		if ok != tt.ok {
			t.Errorf("Parse(%q) ok = %v, want %v", tt.text, ok, tt.ok)
			continue
		}
		if tt.errSub != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errSub) {
				t.Errorf("Parse(%q) err = %v, want one containing %q", tt.text, err, tt.errSub)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q) err = %v", tt.text, err)
			continue
		}
		if !ok {
			continue
		}
		if d.Kind != tt.kind || !reflect.DeepEqual(d.Args, tt.args) {
			t.Errorf("Parse(%q) = %v %q, want %v %q", tt.text, d.Kind, d.Args, tt.kind, tt.args)
		}
		if d.Pos != c.Pos() || d.End != c.End() {
			t.Errorf("Parse(%q) span = %d-%d, want %d-%d", tt.text, d.Pos, d.End, c.Pos(), c.End())
		}
	}
}

func TestAccessors(t *testing.T) {
	parse := func(s string) Directive {
		d, ok, err := Parse(&ast.Comment{Text: s})
		if !ok || err != nil {
			t.Fatalf("Parse(%q) = %v %v", s, ok, err)
		}
		return d
	}
	ig := parse("//fencelint:ignore unfencedwrite,silentreject the caller  checks")
	if got := ig.Analyzers(); !reflect.DeepEqual(got, []string{"unfencedwrite", "silentreject"}) {
		t.Errorf("Analyzers = %q", got)
	}
	if got := ig.Reason(); got != "the caller checks" {
		t.Errorf("Reason = %q", got)
	}
	if got := parse("//fencelint:ignore unfencedwrite").Reason(); got != "" {
		t.Errorf("Reason without reason = %q", got)
	}
	if got := parse("//fencelint:write token=fence").TokenParam(); got != "fence" {
		t.Errorf("TokenParam = %q", got)
	}
	if got := parse("//fencelint:token id").TokenParam(); got != "id" {
		t.Errorf("TokenParam of token PARAM = %q", got)
	}
	if h := parse("//fencelint:holds leader token=term"); h.TokenParam() != "term" || h.LockName() != "leader" {
		t.Errorf("holds accessors: %q %q", h.TokenParam(), h.LockName())
	}
	if h := parse("//fencelint:holds token=term"); h.LockName() != "" {
		t.Errorf("holds LockName without a name = %q", h.LockName())
	}
	w := parse("//fencelint:write")
	if w.TokenParam() != "" || w.Analyzers() != nil || w.Reason() != "" {
		t.Errorf("accessors of a bare write directive: %q %q %q", w.TokenParam(), w.Analyzers(), w.Reason())
	}
}

const ofSrc = `package p

// Lock acquires the lock.
//
//fencelint:acquire
func Lock() {}

// Unlock has a directive separated by a blank line, which is not its doc.
//fencelint:release

func Unlock() {}

//fencelint:acquier
//fencelint:release
func Release() {}

type Lease struct {
	//fencelint:token
	Fence int64
	Seq   int64 //fencelint:token
	Other int64 // fencelint:token (prose, not a directive)
}

//fencelint:token
type (
	// Grouped carries the doc of the GenDecl; the spec has its own.
	//fencelint:write token=fence
	Grouped func(fence int64)
)

//fencelint:write token=fence
func (Lease) Store(fence int64) {}
`

func TestOf(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", ofSrc, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	kinds := func(ds []Directive) string {
		var s []string
		for _, d := range ds {
			s = append(s, string(d.Kind)+strings.Join(append([]string{""}, d.Args...), " "))
		}
		return strings.Join(s, ",")
	}
	got := map[string]string{}
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			got[decl.Name.Name] = kinds(Of(decl.Doc))
		case *ast.GenDecl:
			for _, spec := range decl.Specs {
				ts := spec.(*ast.TypeSpec)
				got[ts.Name.Name] = kinds(Of(ts.Doc, ts.Comment, decl.Doc))
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, fld := range st.Fields.List {
						got[fld.Names[0].Name] = kinds(Of(fld.Doc, fld.Comment))
					}
				}
			}
		}
	}
	want := map[string]string{
		"Lock":    "acquire",
		"Unlock":  "",
		"Release": "release", // the misspelt directive is dropped, reported by Finish
		"Lease":   "",
		"Fence":   "token",
		"Seq":     "token",
		"Other":   "",
		"Grouped": "write token=fence,token",
		"Store":   "write token=fence",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Of:\n got %q\nwant %q", got, want)
	}
	if Of() != nil || Of(nil, nil) != nil {
		t.Errorf("Of with no groups is not nil")
	}
}

func TestHasAny(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(src string) *ast.File {
		f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	plain := parse("package p\n\n// fencelint:acquire is prose here\nfunc F() {}\n")
	with := parse("package p\n\nfunc F() {\n\t_ = 1 //fencelint:ignore unfencedwrite reason\n}\n")
	if HasAny(nil) || HasAny([]*ast.File{plain}) {
		t.Errorf("HasAny reported a directive in a file without one")
	}
	if !HasAny([]*ast.File{plain, with}) {
		t.Errorf("HasAny missed a directive")
	}
}

func TestSuggest(t *testing.T) {
	for in, want := range map[string]string{
		"acquier": "acquire", "relase": "release", "tokne": "token", "wirte": "write",
		"ignroe": "ignore", "IGNORE": "ignore", "frobnicate": "", strings.Repeat("x", 100): "",
	} {
		if got := suggest(in); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"//fencelint:acquire",
		"//fencelint:write token=fence",
		"//fencelint:write \"token=fence\" `x`",
		"//fencelint:ignore unfencedwrite,silentreject reason words",
		"//fencelint:acquier",
		"//fencelint: x",
		"//fencelint:",
		"// plain comment",
		"/* block */",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c := &ast.Comment{Slash: 1, Text: text}
		d, ok, err := Parse(c)
		if !ok {
			if err != nil || d.Kind != "" {
				t.Fatalf("Parse(%q): not ok but d=%+v err=%v", text, d, err)
			}
			return
		}
		if !strings.HasPrefix(text, "//fencelint:") {
			t.Fatalf("Parse(%q) ok without the prefix", text)
		}
		if err != nil {
			if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n") {
				t.Fatalf("Parse(%q): bad error message %q", text, msg)
			}
			return
		}
		if !known(d.Kind) {
			t.Fatalf("Parse(%q): unknown kind %q without error", text, d.Kind)
		}
		if d.Pos != c.Pos() || d.End != c.End() {
			t.Fatalf("Parse(%q): span %d-%d", text, d.Pos, d.End)
		}
		if d.Kind == Ignore && len(d.Analyzers()) == 0 {
			t.Fatalf("Parse(%q): ignore without analyzers", text)
		}
		_ = d.Reason()
		_ = d.TokenParam()
		if Of(&ast.CommentGroup{List: []*ast.Comment{c}}) == nil {
			t.Fatalf("Of dropped a well-formed directive %q", text)
		}
	})
}
