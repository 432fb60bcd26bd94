package fence

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/fencelint/fencelint/rules"
)

// Relevance is the one definition of which packages the engine analyses. A
// package matters only if it imports an API rules/ knows, imports a package
// carrying the engine's PackageFact, has a //fencelint: directive, or
// declares a lease-shaped type; packages of the libraries rules/ describes
// never do (their behaviour comes from rules/, not from facts about them).
//
// Two callers fill it in. The engine (relevant) answers every question
// exactly from the type-checked package. The drivers (go vet's and the
// standalone CLI's) answer them before parsing anything
// (MayBeRelevantCalling), from the package's import paths, what they know
// of the imports' own facts (a vetx header, a cached fact set) and a
// lexical scan of the source, each answer an over-approximation of the
// engine's. Since both go through Relevant, a package a driver skips is
// one the engine would have skipped too: the two cannot drift apart.
type Relevance struct {
	Path    string   // package path
	Imports []string // package paths of the direct imports (a superset is fine)
	// HasFact reports whether the direct import with this path carries the
	// engine's PackageFact (or may carry it).
	HasFact func(path string) bool
	// HasDirective reports whether some file has a //fencelint: comment.
	HasDirective func() bool
	// DeclaresLease reports whether the package declares a type rules.LeaseOf
	// accepts.
	DeclaresLease func() bool
}

// Relevant evaluates r, the cheapest questions first.
func (r Relevance) Relevant() bool {
	if rules.IsLibraryPackage(r.Path) {
		return false
	}
	for _, imp := range r.Imports {
		if rules.IsKnownPath(imp) || r.HasFact(imp) {
			return true
		}
	}
	return r.HasDirective() || r.DeclaresLease()
}

// MayBeRelevant is the relevance test a driver runs before a package is
// parsed when it counts every fact of an import (MayBeRelevantCalling
// with no weak names): it is false only when the engine's would be false.
// importHasFacts(path) reports whether the direct import carries any fact
// (not only a PackageFact: an over-approximation). The source questions are answered by reading the
// files once: a //fencelint: anywhere in the bytes counts as a directive,
// and a lease is suspected where packageMayDeclareLease finds a type
// declaration rules.LeaseOf might accept.
func MayBeRelevant(path string, imports []string, importHasFacts func(string) bool, goFiles []string) (bool, error) {
	return MayBeRelevantCalling(path, imports, importHasFacts, nil, goFiles)
}

// MayBeRelevantCalling is MayBeRelevant for a driver that tells apart the
// facts of the imports (both drivers, with WeakFact): importHasFacts is
// true only for an import whose own facts are not all weak, and noReturns
// names the functions and methods the weak (NoReturnOnly) object facts in
// reach are about. A package that names none of them, calls nothing
// rules.NoReturn lists and imports nothing else of note can neither be
// relevant nor declare a no-return wrapper: it is skipped.
func MayBeRelevantCalling(path string, imports []string, importHasFacts func(string) bool, noReturns []string, goFiles []string) (bool, error) {
	v, err := RelevanceOf(path, imports, importHasFacts, noReturns, goFiles, nil)
	return v != Skip, err
}

// Matter is how much of a package can matter: a driver's relevance
// answer (RelevanceOf).
type Matter int

const (
	// Skip: nothing in the package can report or export a fact.
	Skip Matter = iota
	// WrappersOnly: the package matters only for the no-return wrappers
	// it may declare. The engine's whole run on it is exportNoReturns and
	// reexportImpls, which read its types and the bodies of the functions
	// WrapperCandidates returns, nothing else: a driver that can
	// type-check declarations without bodies may drop the others.
	WrappersOnly
	// Whole: analyse the package.
	Whole
)

// RelevanceOf is MayBeRelevantCalling's answer, with WrappersOnly told
// apart from Whole. parse, when not nil, parses the files the no-return
// question needs (a driver that will parse them anyway shares its parse);
// nil parses them here, without comments or object resolution.
func RelevanceOf(path string, imports []string, importHasFacts func(string) bool, noReturns []string, goFiles []string, parse func(name string, src []byte) (*ast.File, error)) (Matter, error) {
	var srcs [][]byte
	read := func() error {
		if srcs != nil || len(goFiles) == 0 {
			return nil
		}
		for _, name := range goFiles {
			data, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			srcs = append(srcs, data)
		}
		return nil
	}
	var readErr error
	r := Relevance{
		Path:    path,
		Imports: imports,
		HasFact: importHasFacts,
		HasDirective: func() bool {
			if readErr = read(); readErr != nil {
				return true
			}
			for _, src := range srcs {
				if bytes.Contains(src, []byte(directivePrefix)) {
					return true
				}
			}
			return false
		},
		DeclaresLease: func() bool {
			if readErr = read(); readErr != nil {
				return true
			}
			return packageMayDeclareLease(srcs)
		},
	}
	ok := r.Relevant()
	if !ok && readErr == nil && rules.IsLibraryPackage(path) && r.HasDirective() {
		// The engine reports the directives of a package it does not
		// analyse as doing nothing (skippedPackageDirectives): run it.
		return Whole, readErr
	}
	if !ok && readErr == nil && !isStd(path) && !rules.IsLibraryPackage(path) {
		// An irrelevant package still exports the NoReturn facts of its
		// log.Fatal wrappers (exportNoReturns): skip it only when it calls
		// nothing that never returns.
		if readErr = read(); readErr != nil {
			return Whole, readErr
		}
		var named []int // the files that may call one
		for i, src := range srcs {
			if rules.MayCallNoReturn(src) || callsAny(src, noReturns) {
				named = append(named, i)
			}
		}
		if len(named) > 0 {
			// The bytes name one: parse (no types) and ask infer's question
			// of the syntax. A package whose functions never end in such a
			// call declares no wrapper.
			if parse == nil {
				fset := token.NewFileSet()
				parse = func(name string, src []byte) (*ast.File, error) {
					return parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
				}
			}
			var files []*ast.File
			for _, i := range named {
				f, err := parse(goFiles[i], srcs[i])
				if err != nil {
					return Whole, nil // the full path reports it
				}
				files = append(files, f)
			}
			if mayDeclareNoReturn(files, noReturns) {
				return WrappersOnly, nil
			}
			return Skip, nil
		}
	}
	if ok {
		return Whole, readErr
	}
	return Skip, readErr
}

// mayDeclareNoReturn is noReturns.infer read from syntax alone, by name: it
// is true when some function's body ends in a call statement of panic, of
// a function or method named like one rules.NoReturn lists or like one of
// names (other packages' wrappers), and has no return or defer: some
// WrapperCandidates of its files but a command's. Every
// wrapper infer finds is found here or calls one that is (a callee infer
// resolves by type has one of these names, and a chain of this package's
// wrappers ends in one that calls no other), so false means the package
// exports no NoReturn fact that an importer could read (a command's, a
// test main's, have no importer).
func mayDeclareNoReturn(files []*ast.File, names []string) bool {
	var imported []*ast.File
	for _, f := range files {
		if f.Name.Name != "main" { // nothing of a command is imported: its facts have no reader
			imported = append(imported, f)
		}
	}
	return len(WrapperCandidates(imported, names)) > 0
}

// WrapperCandidates are the function declarations of files that infer
// may mark: the body ends in a call statement of panic, of a function or
// method named like one rules.NoReturn lists, like one of names (other
// packages' wrappers) or like another candidate, and has no return or
// defer. infer resolves each such call with types; a call it can mark has
// one of these names (syntacticCallee is the name of typeutil.Callee's
// object), so every function it marks is here.
func WrapperCandidates(files []*ast.File, names []string) map[*ast.FuncDecl]bool {
	ends := map[string]bool{"panic": true}
	for _, n := range names {
		ends[n] = true
	}
	type cand struct {
		fd     *ast.FuncDecl
		callee string
	}
	var cands []cand
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, call := lastCall(d); call != nil {
				cands = append(cands, cand{fd, syntacticCallee(call.Fun)})
			}
		}
	}
	keep := map[*ast.FuncDecl]bool{}
	for changed := true; changed; {
		changed = false
		for i, c := range cands {
			if c.fd == nil || !ends[c.callee] && !rules.IsNoReturnName(c.callee) {
				continue
			}
			cands[i].fd = nil // decided
			if leavesEarly(c.fd.Body) {
				continue
			}
			keep[c.fd] = true
			ends[c.fd.Name.Name] = true
			changed = true
		}
	}
	return keep
}

// syntacticCallee is the name a call's function expression ends in: F, x.F,
// pkg.F, F[T], x.F[T]; "" for anything else (a function literal, a call's
// result).
func syntacticCallee(fun ast.Expr) string {
	switch e := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr:
		return syntacticCallee(e.X)
	case *ast.IndexListExpr:
		return syntacticCallee(e.X)
	}
	return ""
}

// callsAny reports whether src has "name(" for one of names: the bytes a
// call of that function or method must contain.
func callsAny(src []byte, names []string) bool {
	for _, name := range names {
		i := 0
		for {
			j := bytes.Index(src[i:], []byte(name))
			if j < 0 {
				break
			}
			i += j + len(name)
			if i < len(src) && src[i] == '(' {
				return true
			}
		}
	}
	return false
}

// WeakFact reports whether fact, alone, leaves an importer out of
// MayBeRelevantCalling's account: a NoReturn-only fact (NoReturnOnly), or
// an ImplsFact, which makes no importer relevant (Relevance counts only
// PackageFact) and which a driver passes on for a package it skips
// (PassOn). A driver that does not call PassOn must not use it.
func WeakFact(fact analysis.Fact) bool {
	if _, ok := fact.(*ImplsFact); ok {
		return true
	}
	return NoReturnOnly(fact)
}

// NoReturnOnly reports whether fact is a FuncFact that says nothing but
// NoReturn: the fact exportNoReturns writes for a log.Fatal wrapper.
// Alone it does not make an importer relevant (no PackageFact comes with
// it); it matters only to a package that calls the wrapper.
func NoReturnOnly(fact analysis.Fact) bool {
	f, ok := fact.(*FuncFact)
	if !ok || !f.NoReturn {
		return false
	}
	g := *f
	g.NoReturn = false
	return reflect.DeepEqual(&g, newFuncFact())
}

// directivePrefix is directive's comment prefix; directive.HasAny compares
// comment texts with it, so a byte search finds at least what it finds.
const directivePrefix = "//fencelint:"

// typeDeclMayBeLease is packageMayDeclareLease for a package of one file.
func typeDeclMayBeLease(src []byte) bool { return packageMayDeclareLease([][]byte{src}) }

// packageMayDeclareLease scans a package's files for type declarations, at
// any depth (local types cost nothing extra to include), and reports
// whether one may declare a type rules.LeaseOf accepts: a lease-suffixed
// name whose type may be a struct with a token-like or expiry-like field
// name, or an alias that stands for a lease-suffixed named type (LeaseOf
// looks through aliases and pointers) not declared in the package as
// something that cannot be one. The scanner never fails hard: on a lexical
// error it keeps going, and bad input only makes the answer more likely
// true.
func packageMayDeclareLease(srcs [][]byte) bool {
	declared := map[string]bool{}
	var aliasTo []string
	for _, src := range srcs {
		if !rules.MayNameLease(src) {
			continue
		}
		maybe, to := scanLeaseDecls(src, declared)
		if maybe {
			return true
		}
		aliasTo = append(aliasTo, to...)
	}
	for _, name := range aliasTo {
		if !declared[name] {
			return true // declared where this scan cannot see (a dot import)
		}
		// Declared here: its own declaration was judged above.
	}
	return false
}

// notStructHeads are the first tokens of a type expression whose type is
// not a struct, and predeclaredTypes the predeclared type names, none of
// them a struct: a defined type so written has no fields for LeaseOf.
var notStructHeads = map[token.Token]bool{
	token.MUL: true, token.MAP: true, token.CHAN: true, token.FUNC: true, token.INTERFACE: true, token.ARROW: true,
}

var predeclaredTypes = map[string]bool{
	"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true, "complex128": true,
	"error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true, "uint8": true,
	"uint16": true, "uint32": true, "uint64": true, "uintptr": true,
}

// scanLeaseDecls reads one file's type declarations: maybe is true when one
// may declare a lease on its own; aliasTo lists the unqualified
// lease-suffixed names that aliases stand for, to be resolved against the
// names declared in the whole package (added to declared).
func scanLeaseDecls(src []byte, declared map[string]bool) (maybe bool, aliasTo []string) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	next := func() (token.Token, string) {
		_, tok, lit := s.Scan()
		return tok, lit
	}
	// rest reads to the end of a type spec, depth brackets in; with alias,
	// any lease-suffixed identifier may be the alias's target. It reports
	// whether one was seen and returns the token that ended the spec.
	rest := func(depth int, alias bool) (bool, token.Token) {
		for {
			tok, lit := next()
			switch tok {
			case token.EOF:
				return false, tok
			case token.LBRACK, token.LPAREN, token.LBRACE:
				depth++
			case token.RBRACK, token.RPAREN, token.RBRACE:
				if depth == 0 {
					return false, tok // the end of a grouped declaration
				}
				depth--
			case token.ASSIGN:
				if depth == 0 {
					alias = true
				}
			case token.SEMICOLON:
				if depth == 0 {
					return false, tok
				}
			case token.IDENT:
				if alias && rules.HasLeaseSuffix(lit) {
					return true, token.ILLEGAL
				}
			}
		}
	}
	// fields reads a struct body after its "{" and reports whether some
	// identifier in it may name a token or expiry field.
	fields := func() (bool, token.Token) {
		depth, found := 0, false
		for {
			tok, lit := next()
			switch tok {
			case token.EOF:
				return true, tok
			case token.LBRACK, token.LPAREN, token.LBRACE:
				depth++
			case token.RBRACK, token.RPAREN, token.RBRACE:
				if depth == 0 {
					return found, tok
				}
				depth--
			case token.IDENT:
				found = found || rules.IsTokenFieldName(lit) || rules.MayBeExpiryFieldName(lit)
			}
		}
	}
	// from goes on with rest after tok (with literal lit), the last token
	// of the spec already read.
	from := func(tok token.Token, lit string, alias bool) (bool, token.Token) {
		switch tok {
		case token.LBRACK, token.LPAREN, token.LBRACE:
			return rest(1, alias)
		case token.SEMICOLON, token.RPAREN, token.RBRACK, token.RBRACE, token.EOF:
			return false, tok
		case token.IDENT:
			if alias && rules.HasLeaseSuffix(lit) {
				return true, token.ILLEGAL
			}
		}
		return rest(0, alias)
	}
	// spec reads one type spec whose name is name; it reports whether it
	// may declare a lease and returns the token that ended it.
	spec := func(name string) (bool, token.Token) {
		declared[name] = true
		tok, lit := next()
		switch {
		case tok == token.ASSIGN:
			// An alias: LeaseOf judges the named type it stands for,
			// through pointers.
			tok, lit = next()
			for tok == token.MUL {
				tok, lit = next()
			}
			switch tok {
			case token.STRUCT, token.MAP, token.CHAN, token.FUNC, token.INTERFACE, token.LBRACK, token.ARROW:
				return from(tok, lit, false) // an unnamed type: nothing for LeaseOf
			case token.IDENT:
				head := lit
				tok, lit = next()
				if tok == token.PERIOD {
					tok, lit = next()
					if tok == token.IDENT && rules.HasLeaseSuffix(lit) {
						return true, token.ILLEGAL // another package's lease-suffixed type
					}
					if tok == token.IDENT {
						tok, lit = next()
					}
					return from(tok, lit, false)
				}
				if rules.HasLeaseSuffix(head) {
					aliasTo = append(aliasTo, head)
				}
				return from(tok, lit, false)
			}
			return from(tok, lit, true)
		case !rules.HasLeaseSuffix(name):
			return from(tok, lit, false) // type parameters may come first: `type X[T any] = y.Lock[T]`
		case tok == token.STRUCT:
			if tok, _ = next(); tok != token.LBRACE {
				return true, tok
			}
			found, end := fields()
			if found || end == token.EOF {
				return true, token.ILLEGAL
			}
			return rest(0, false)
		case tok == token.IDENT && predeclaredTypes[lit], notStructHeads[tok]:
			return from(tok, lit, false) // its underlying type is no struct
		default:
			// Type parameters or an array, another named type (its
			// fields unknown here), or something unexpected.
			return true, token.ILLEGAL
		}
	}
	for {
		tok, _ := next()
		switch tok {
		case token.EOF:
			return false, aliasTo
		case token.TYPE:
			tok, lit := next()
			switch tok {
			case token.IDENT:
				if yes, _ := spec(lit); yes {
					return true, nil
				}
			case token.LPAREN:
				for {
					tok, lit := next()
					if tok == token.EOF || tok == token.RPAREN {
						break
					}
					if tok != token.IDENT {
						continue // a semicolon between specs
					}
					yes, end := spec(lit)
					if yes {
						return true, nil
					}
					if end == token.RPAREN || end == token.EOF {
						break
					}
				}
			}
		}
	}
}
