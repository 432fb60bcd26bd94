package fence

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/directive"
	"github.com/fencelint/fencelint/rules"
)

// DirectiveProblem is a //fencelint: directive that does nothing where it
// stands: not attached to a declaration, on one it cannot apply to,
// naming a parameter that does not exist, marking a value that cannot be
// a token, or in a package fencelint does not analyse. unfencedwrite
// reports them (the first analyzer in contract order reports what belongs
// to no analyzer, as malformed directives are).
type DirectiveProblem struct {
	Pos, End token.Pos
	Message  string
}

func (e *engine) directiveProblem(d directive.Directive, format string, args ...any) {
	e.model.DirectiveProblems = append(e.model.DirectiveProblems, DirectiveProblem{Pos: d.Pos, End: d.End, Message: fmt.Sprintf(format, args...)})
}

func (e *engine) notApplicable(d directive.Directive, what string) {
	if d.Kind == directive.Ignore {
		return // ignores stand anywhere; directive.Ignores judges them
	}
	e.directiveProblem(d, "//fencelint:%s does nothing on %s: it goes on %s", d.Kind, what, placeOf(d.Kind))
}

// placeOf says where a directive of kind k goes.
func placeOf(k directive.Kind) string {
	switch k {
	case directive.Write, directive.Acquire:
		return "a function, a method, an interface method, or a func-typed struct field or package variable"
	case directive.Token:
		return "a struct field, a method or an interface method (the token), or a function (//fencelint:token PARAM)"
	case directive.Lease:
		return "a type declaration"
	case directive.Holds:
		return "a function or a method with a body"
	}
	return "a function, a method or an interface method"
}

// checkFuncDirective reports a directive on fn that cannot take effect and
// says whether to apply it.
func (e *engine) checkFuncDirective(fn *types.Func, d directive.Directive) bool {
	sig := fn.Type().(*types.Signature)
	switch d.Kind {
	case directive.Ignore:
		return false
	case directive.Lease, directive.Holds:
		return e.checkDeclaringFuncDirective(fn, d)
	case directive.Write:
		name := d.TokenParam()
		if name == "" {
			return true
		}
		var names []string
		for i := 0; i < sig.Params().Len(); i++ {
			if sig.Params().At(i).Name() == name {
				return true
			}
			names = append(names, sig.Params().At(i).Name())
		}
		e.directiveProblem(d, "//fencelint:write token=%s does nothing: %s has no parameter %s (its parameters: %s)", name, fn.Name(), name, strings.Join(names, ", "))
		return false
	case directive.Token:
		if d.TokenParam() != "" {
			return e.checkDeclaringFuncDirective(fn, d)
		}
		if sig.Results().Len() == 0 || !e.canHoldToken(sig.Results().At(0).Type()) {
			e.directiveProblem(d, "//fencelint:token on %s does nothing: its first result must be the integer token (or a lease holding one)", fn.Name())
			return false
		}
	}
	return true
}

// canHoldToken: an integer, or a lease-shaped type that carries one.
func (e *engine) canHoldToken(t types.Type) bool {
	if rules.IsIntegerLike(t) {
		return true
	}
	info, ok := e.leaseOf(t)
	return ok && info.Token != nil
}

// unattachedDirectives reports directives that belong to no declaration:
// a blank line between the comment and the func is enough for go/parser
// to leave it out of the doc comment, and then nothing reads it.
func (e *engine) unattachedDirectives(used map[token.Pos]bool) {
	for _, f := range e.pass.Files {
		for _, g := range f.Comments {
			for _, c := range g.List {
				d, ok, err := directive.Parse(c)
				if !ok || err != nil || d.Kind == directive.Ignore || used[d.Pos] {
					continue
				}
				e.directiveProblem(d, "//fencelint:%s is not attached to a declaration, so it does nothing: write it in the doc comment directly above the function, method, interface method or field, with no blank line between", d.Kind)
			}
		}
	}
}

// skippedPackageDirectives reports every directive of a package fencelint
// does not analyse (a library rules/ describes): they do nothing there.
func skippedPackageDirectives(files []*ast.File, path string) []DirectiveProblem {
	var out []DirectiveProblem
	for _, f := range files {
		for _, g := range f.Comments {
			for _, c := range g.List {
				d, ok, err := directive.Parse(c)
				if !ok || err != nil || d.Kind == directive.Ignore {
					continue
				}
				out = append(out, DirectiveProblem{Pos: d.Pos, End: d.End,
					Message: fmt.Sprintf("//fencelint:%s does nothing: fencelint does not analyse %s, a library whose behaviour it takes from its rules", d.Kind, path)})
			}
		}
	}
	return out
}
