// Package directive reads fencelint's //fencelint: comment directives and
// applies //fencelint:ignore suppression for the analyzers.
//
// Directives tell fencelint what its rules cannot infer:
//
//	//fencelint:acquire            func/method: acquires a lock
//	//fencelint:release            func/method: releases one
//	//fencelint:token              struct field or method: the fencing token
//	//fencelint:token PARAM        func/method: parameter PARAM is the held lock's token (or ID)
//	//fencelint:write [token=NAME] func/method, func-typed field or var: a storage write, fenced by parameter NAME
//	//fencelint:lease              type: a lease or lock; a value obtained from a call holds it
//	//fencelint:holds [NAME] [token=PARAM] func/method: its body runs under a lock it does not take
//	//fencelint:ignore NAME[,NAME2] reason...
//
// They follow the Go directive convention (https://go.dev/doc/comment#directives):
// "//" immediately followed by "fencelint:" and the name, no space, so gofmt
// and go/doc leave them alone and CommentGroup.Text drops them.
//
// go vet has no suppression mechanism, so ignores are applied inside each
// analyzer: every diagnostic goes through [Ignores.Report], and
// [Ignores.Finish] reports ignores that are malformed or unused.
package directive

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// Kind is a directive name.
type Kind string

// The directive names fencelint understands.
const (
	Acquire Kind = "acquire"
	Release Kind = "release"
	Token   Kind = "token"
	Write   Kind = "write"
	Lease   Kind = "lease"
	Holds   Kind = "holds"
	Ignore  Kind = "ignore"
)

var kinds = []Kind{Acquire, Release, Token, Write, Lease, Holds, Ignore}

// prefix is what every directive starts with. Comparing it before calling
// ast.ParseDirective keeps the common case (any other comment) to one
// string comparison.
const prefix = "//fencelint:"

// Directive is one //fencelint: comment.
type Directive struct {
	Kind Kind
	// Args are the whitespace-separated arguments after the name. For all
	// kinds but Ignore they follow ast.Directive.ParseArgs, so "quoted"
	// and `raw` words are unquoted; an ignore's reason is free prose and is
	// split on white space only.
	Args []string
	Pos  token.Pos // position of the comment
	End  token.Pos // end of the comment
}

// Parse returns the directive in c. ok is false if c is not a //fencelint:
// comment; if it is one but malformed (unknown name, bad arguments), ok is
// true and err says what is wrong, in a form ready to report at c.
func Parse(c *ast.Comment) (d Directive, ok bool, err error) {
	if c == nil || !strings.HasPrefix(c.Text, prefix) {
		return Directive{}, false, nil
	}
	// A line comment cannot contain a newline; refuse synthetic ones rather
	// than let arguments run across lines.
	if strings.ContainsAny(c.Text, "\n\r") {
		return Directive{}, false, nil
	}
	d = Directive{Pos: c.Pos(), End: c.End()}
	ad, isDir := ast.ParseDirective(c.Slash, c.Text)
	if !isDir || ad.Tool != "fencelint" {
		// "//fencelint:" followed by a space, an upper-case letter or
		// nothing: go/ast does not see a directive, but the author meant one.
		return d, true, fmt.Errorf("malformed directive %s: want //fencelint:NAME with a lower-case name and no space", clip(c.Text))
	}
	name := Kind(ad.Name)
	if !known(name) {
		msg := fmt.Sprintf("unknown directive //fencelint:%s", clip(ad.Name))
		if s := suggest(ad.Name); s != "" {
			msg += fmt.Sprintf("; did you mean //fencelint:%s?", s)
		}
		return d, true, errors.New(msg)
	}
	d.Kind = name
	if name == Ignore {
		d.Args = strings.Fields(ad.Args)
	} else {
		args, err := ad.ParseArgs()
		if err != nil {
			return d, true, err
		}
		for _, a := range args {
			d.Args = append(d.Args, a.Arg)
		}
	}
	if err := d.check(); err != nil {
		return d, true, err
	}
	return d, true, nil
}

// check validates the arguments of a directive whose Kind is known. Being
// strict here turns a typo such as "tokn=fence" into a report instead of a
// silently ignored directive.
func (d Directive) check() error {
	switch d.Kind {
	case Acquire, Release, Lease:
		if len(d.Args) > 0 {
			return fmt.Errorf("//fencelint:%s takes no arguments, found %q", d.Kind, clip(strings.Join(d.Args, " ")))
		}
	case Token:
		if len(d.Args) > 1 {
			return fmt.Errorf("//fencelint:token takes at most one argument, a parameter name; found %q", clip(strings.Join(d.Args, " ")))
		}
		if len(d.Args) == 1 && !token.IsIdentifier(d.Args[0]) {
			if strings.HasPrefix(d.Args[0], "token=") {
				return fmt.Errorf("//fencelint:token: write the parameter name alone (//fencelint:token %s), not %q", clip(strings.TrimPrefix(d.Args[0], "token=")), clip(d.Args[0]))
			}
			return fmt.Errorf("//fencelint:token: %q is not a parameter name", clip(d.Args[0]))
		}
	case Holds:
		named, seen := false, false
		for _, a := range d.Args {
			if v, ok := strings.CutPrefix(a, "token="); ok {
				if !token.IsIdentifier(v) {
					return fmt.Errorf("//fencelint:holds: token=%q is not a parameter name", clip(v))
				}
				if seen {
					return fmt.Errorf("//fencelint:holds: token= given twice")
				}
				seen = true
				continue
			}
			if named || seen || !token.IsIdentifier(a) {
				return fmt.Errorf("//fencelint:holds: unexpected argument %q; want //fencelint:holds [NAME] [token=PARAM]", clip(a))
			}
			named = true
		}
	case Write:
		seen := false
		for _, a := range d.Args {
			v, ok := strings.CutPrefix(a, "token=")
			if !ok {
				return fmt.Errorf("//fencelint:write: unknown argument %q; want token=PARAM", clip(a))
			}
			if !token.IsIdentifier(v) {
				return fmt.Errorf("//fencelint:write: token=%q is not a parameter name", clip(v))
			}
			if seen {
				return fmt.Errorf("//fencelint:write: token= given twice")
			}
			seen = true
		}
	case Ignore:
		if len(d.Args) == 0 {
			return fmt.Errorf("//fencelint:ignore needs an analyzer name and a reason")
		}
		for _, n := range strings.Split(d.Args[0], ",") {
			if !token.IsIdentifier(n) {
				return fmt.Errorf("//fencelint:ignore: %q is not an analyzer name; want NAME[,NAME2] reason", clip(d.Args[0]))
			}
		}
	}
	return nil
}

// Analyzers returns the analyzer names an ignore directive names, nil for
// other kinds.
func (d Directive) Analyzers() []string {
	if d.Kind != Ignore || len(d.Args) == 0 {
		return nil
	}
	return strings.Split(d.Args[0], ",")
}

// Reason returns the reason of an ignore directive, "" if none was given.
func (d Directive) Reason() string {
	if d.Kind != Ignore || len(d.Args) < 2 {
		return ""
	}
	return strings.Join(d.Args[1:], " ")
}

// TokenParam returns the parameter a directive names as the token: NAME
// of //fencelint:write token=NAME and //fencelint:holds token=NAME, PARAM
// of //fencelint:token PARAM; "" if absent.
func (d Directive) TokenParam() string {
	switch d.Kind {
	case Token:
		if len(d.Args) == 1 {
			return d.Args[0]
		}
	case Write, Holds:
		for _, a := range d.Args {
			if v, ok := strings.CutPrefix(a, "token="); ok {
				return v
			}
		}
	}
	return ""
}

// LockName returns the NAME of //fencelint:holds NAME, "" if absent.
func (d Directive) LockName() string {
	if d.Kind != Holds {
		return ""
	}
	for _, a := range d.Args {
		if !strings.HasPrefix(a, "token=") {
			return a
		}
	}
	return ""
}

// Of returns the well-formed fencelint directives in the given comment
// groups, in order; nil groups are skipped. Pass a declaration's groups:
// for *ast.FuncDecl its Doc; for *ast.Field its Doc and Comment; for
// *ast.TypeSpec / *ast.ValueSpec their Doc and Comment plus the enclosing
// GenDecl's Doc. Malformed directives are left out: [Ignores.Finish]
// reports them once per package.
func Of(groups ...*ast.CommentGroup) []Directive {
	var out []Directive
	for _, g := range groups {
		if g == nil {
			continue
		}
		for _, c := range g.List {
			if d, ok, err := Parse(c); ok && err == nil {
				out = append(out, d)
			}
		}
	}
	return out
}

// HasAny reports whether any file has a //fencelint: comment. It only
// compares comment prefixes, so it is cheap enough for an analyzer's
// relevance fast path.
func HasAny(files []*ast.File) bool {
	for _, f := range files {
		for _, g := range f.Comments {
			for _, c := range g.List {
				if strings.HasPrefix(c.Text, prefix) {
					return true
				}
			}
		}
	}
	return false
}

func known(k Kind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// suggest returns the known directive name closest to name if it is a
// plausible typo (edit distance at most 2), else "".
func suggest(name string) string {
	if len(name) > 32 {
		return "" // keeps the quadratic distance cheap on junk input
	}
	best, bestD := "", 3
	for _, k := range kinds {
		if d := distance(strings.ToLower(name), string(k)); d < bestD {
			best, bestD = string(k), d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, by bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// clip shortens user text quoted in messages so a diagnostic stays one
// readable line.
func clip(s string) string {
	const max = 40
	n := 0
	for i := range s { // i steps over runes, so the cut never splits one
		if n == max {
			return s[:i] + "..."
		}
		n++
	}
	return s
}
