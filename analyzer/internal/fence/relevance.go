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
// and a lease is suspected in any type declaration whose name, or, for an
// alias, any identifier on its right-hand side, has a lease suffix (the
// only names rules.LeaseOf can accept).
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
			for _, src := range srcs {
				if rules.MayNameLease(src) && typeDeclMayBeLease(src) {
					return true
				}
			}
			return false
		},
	}
	ok := r.Relevant()
	if !ok && readErr == nil && rules.IsLibraryPackage(path) && r.HasDirective() {
		// The engine reports the directives of a package it does not
		// analyse as doing nothing (skippedPackageDirectives): run it.
		return true, readErr
	}
	if !ok && readErr == nil && !isStd(path) && !rules.IsLibraryPackage(path) {
		// An irrelevant package still exports the NoReturn facts of its
		// log.Fatal wrappers (exportNoReturns): skip it only when it calls
		// nothing that never returns.
		if readErr = read(); readErr != nil {
			return true, readErr
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
			var files []*ast.File
			fset := token.NewFileSet()
			for _, i := range named {
				f, err := parser.ParseFile(fset, goFiles[i], srcs[i], parser.SkipObjectResolution)
				if err != nil {
					return true, nil // the full path reports it
				}
				files = append(files, f)
			}
			return mayDeclareNoReturn(files, noReturns), nil
		}
	}
	return ok, readErr
}

// mayDeclareNoReturn is noReturns.infer read from syntax alone, by name: it
// is true when some function's body ends in a call statement of panic, of
// a function or method named like one rules.NoReturn lists or like one of
// names (other packages' wrappers), and has no return or defer. Every
// wrapper infer finds is found here or calls one that is (a callee infer
// resolves by type has one of these names, and a chain of this package's
// wrappers ends in one that calls no other), so false means the package
// exports no NoReturn fact that an importer could read (a command's, a
// test main's, have no importer).
func mayDeclareNoReturn(files []*ast.File, names []string) bool {
	ends := map[string]bool{"panic": true}
	for _, n := range names {
		ends[n] = true
	}
	for _, f := range files {
		if f.Name.Name == "main" {
			continue // nothing of a command is imported: its facts have no reader
		}
		for _, d := range f.Decls {
			fd, call := lastCall(d)
			if call == nil {
				continue
			}
			if name := syntacticCallee(call.Fun); (ends[name] || rules.IsNoReturnName(name)) && !leavesEarly(fd.Body) {
				return true
			}
		}
	}
	return false
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

// typeDeclMayBeLease scans src for type declarations, at any depth (local
// types cost nothing extra to include), and reports whether one may
// declare a lease: its name has a lease suffix, or it is an alias with a
// lease-suffixed identifier on its right (rules.LeaseOf looks through
// aliases to the named type). The scanner never fails hard: on a lexical
// error it keeps going, and bad input only makes the answer more likely
// true.
func typeDeclMayBeLease(src []byte) bool {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	next := func() (token.Token, string) {
		_, tok, lit := s.Scan()
		return tok, lit
	}
	// spec reads one type spec whose name is name; it reports whether it
	// may declare a lease and returns the token that ended it.
	spec := func(name string) (bool, token.Token) {
		if rules.HasLeaseSuffix(name) {
			return true, token.ILLEGAL
		}
		// Skip type parameters, then see whether this is an alias.
		depth := 0
		alias := false
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
	for {
		tok, _ := next()
		switch tok {
		case token.EOF:
			return false
		case token.TYPE:
			tok, lit := next()
			switch tok {
			case token.IDENT:
				if yes, _ := spec(lit); yes {
					return true
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
						return true
					}
					if end == token.RPAREN || end == token.EOF {
						break
					}
				}
			}
		}
	}
}
