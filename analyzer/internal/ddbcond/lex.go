package ddbcond

import (
	"fmt"
	"strings"
)

// MaxDepth bounds the nesting of parentheses, NOT and function calls. The
// parsers recurse once per level, so the bound keeps stack use small on
// hostile or generated input.
const MaxDepth = 64

// SyntaxError is the error returned for an expression the readers do not
// accept. Offset is a byte offset into the expression, so an analyzer can
// point at the offending part of a string literal.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg)
}

type tokKind uint8

const (
	tEOF    tokKind = iota
	tWord           // attribute name, keyword or function name
	tName           // #name (ExpressionAttributeNames placeholder)
	tValue          // :value (ExpressionAttributeValues placeholder)
	tLParen         // (
	tRParen         // )
	tLBrack         // [
	tRBrack         // ]
	tComma          // ,
	tDot            // .
	tCmp            // = <> < <= > >=
	tPlus           // +
	tMinus          // -
)

type token struct {
	kind     tokKind
	off, end int
	text     string
}

func (t token) describe() string {
	if t.kind == tEOF {
		return "end of expression"
	}
	if len(t.text) > 40 {
		// Keep messages one short line even for a huge word.
		return fmt.Sprintf("%q...", t.text[:40])
	}
	return fmt.Sprintf("%q", t.text)
}

// isWordByte reports whether b may appear in an attribute name, keyword or
// placeholder. Bytes >= 0x80 are accepted so that non-ASCII names (which
// DynamoDB would want escaped) still read as one word instead of failing.
func isWordByte(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b >= 0x80
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

// lex splits src into tokens in one pass; every token's off/end lie within
// src, which is what lets the parser slice Text without bounds checks failing.
func lex(src string) ([]token, error) {
	toks := make([]token, 0, len(src)/4+1) // a rough guess that avoids most regrowth
	i := 0
	for i < len(src) {
		b := src[i]
		if isSpace(b) {
			i++
			continue
		}
		start := i
		kind := tEOF
		switch {
		case isWordByte(b):
			for i < len(src) && isWordByte(src[i]) {
				i++
			}
			kind = tWord
		case b == '#' || b == ':':
			i++
			for i < len(src) && isWordByte(src[i]) {
				i++
			}
			if i == start+1 {
				return nil, &SyntaxError{start, fmt.Sprintf("%q must be followed by a name", b)}
			}
			kind = tName
			if b == ':' {
				kind = tValue
			}
		case b == '<':
			i++
			if i < len(src) && (src[i] == '=' || src[i] == '>') {
				i++
			}
			kind = tCmp
		case b == '>':
			i++
			if i < len(src) && src[i] == '=' {
				i++
			}
			kind = tCmp
		default:
			i++
			switch b {
			case '=':
				kind = tCmp
			case '(':
				kind = tLParen
			case ')':
				kind = tRParen
			case '[':
				kind = tLBrack
			case ']':
				kind = tRBrack
			case ',':
				kind = tComma
			case '.':
				kind = tDot
			case '+':
				kind = tPlus
			case '-':
				kind = tMinus
			default:
				return nil, &SyntaxError{start, fmt.Sprintf("unexpected character %q", b)}
			}
		}
		toks = append(toks, token{kind, start, i, src[start:i]})
	}
	toks = append(toks, token{tEOF, len(src), len(src), ""})
	return toks, nil
}

// reserved are the keywords that cannot start a path. DynamoDB reserves them
// (they need a #name), and treating them as keywords keeps `SET a = b REMOVE c`
// unambiguous.
var reserved = map[string]bool{
	"and": true, "or": true, "not": true, "between": true, "in": true,
	"set": true, "remove": true, "add": true, "delete": true,
}

func isKeyword(t token, kw string) bool {
	return t.kind == tWord && len(t.text) == len(kw) && strings.EqualFold(t.text, kw)
}

type funcInfo struct {
	arity int
	cond  bool // a condition (attribute_exists ...) rather than an operand (size ...)
}

// funcs lists the functions of condition and update expressions. DynamoDB
// spells them in lower case; we accept any case and report the lower-cased
// name.
var funcs = map[string]funcInfo{
	"attribute_exists":     {1, true},
	"attribute_not_exists": {1, true},
	"attribute_type":       {2, true},
	"begins_with":          {2, true},
	"contains":             {2, true},
	"size":                 {1, false},
	"if_not_exists":        {2, false},
	"list_append":          {2, false},
}

// parser is a recursive-descent reader over the tokens of one expression. It
// never backtracks more than one token, so its time is linear in the input.
type parser struct {
	src   string
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) peek2() token {
	if p.i+1 < len(p.toks) {
		return p.toks[p.i+1]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return &SyntaxError{t.off, fmt.Sprintf(format, args...)}
}

func (p *parser) expect(kind tokKind, what string) (token, error) {
	t := p.next()
	if t.kind != kind {
		return t, p.errorf(t, "expected %s, found %s", what, t.describe())
	}
	return t, nil
}

func (p *parser) enter(t token) error {
	p.depth++
	if p.depth > MaxDepth {
		return p.errorf(t, "expression nested deeper than %d levels", MaxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// operand reads a path, a :value or a function call, and returns it with the
// offset just past its last token.
func (p *parser) operand() (Operand, int, error) {
	t := p.peek()
	switch t.kind {
	case tValue:
		p.next()
		return Operand{Value: t.text, Text: t.text}, t.end, nil
	case tWord:
		if p.peek2().kind == tLParen {
			return p.call(false)
		}
		fallthrough
	case tName:
		return p.path()
	}
	return Operand{}, 0, p.errorf(t, "expected a path, a :value or a function, found %s", t.describe())
}

// path reads name ('.' name | '[' digits ']')*.
func (p *parser) path() (Operand, int, error) {
	first := p.next()
	if first.kind != tWord && first.kind != tName {
		return Operand{}, 0, p.errorf(first, "expected a path, found %s", first.describe())
	}
	if first.kind == tWord && reserved[strings.ToLower(first.text)] {
		return Operand{}, 0, p.errorf(first, "unexpected keyword %s", strings.ToUpper(first.text))
	}
	end := first.end
	var sb *strings.Builder // only allocated for multi-element paths
	for {
		t := p.peek()
		if (t.kind != tDot && t.kind != tLBrack) || t.off != end {
			break // a path has no spaces inside: "a .b" is not one path
		}
		if sb == nil {
			sb = new(strings.Builder)
			sb.WriteString(first.text)
		}
		p.next()
		sb.WriteString(t.text)
		if t.kind == tDot {
			e := p.next()
			if e.kind != tWord && e.kind != tName {
				return Operand{}, 0, p.errorf(e, "expected a name after \".\", found %s", e.describe())
			}
			if e.off != t.end {
				return Operand{}, 0, p.errorf(e, "unexpected space inside a path")
			}
			sb.WriteString(e.text)
			end = e.end
			continue
		}
		n := p.next()
		if n.kind != tWord || strings.Trim(n.text, "0123456789") != "" {
			return Operand{}, 0, p.errorf(n, "expected a list index, found %s", n.describe())
		}
		r, err := p.expect(tRBrack, "\"]\"")
		if err != nil {
			return Operand{}, 0, err
		}
		sb.WriteString(n.text)
		sb.WriteString(r.text)
		end = r.end
	}
	path := first.text
	if sb != nil {
		path = sb.String()
	}
	return Operand{Path: path, Text: p.src[first.off:end]}, end, nil
}

// call reads name '(' operand {',' operand} ')'. cond says whether a
// condition function is wanted here (true) or an operand function (false).
func (p *parser) call(cond bool) (Operand, int, error) {
	name := p.next()
	fn := strings.ToLower(name.text)
	info, ok := funcs[fn]
	if !ok {
		return Operand{}, 0, p.errorf(name, "unknown function %s", name.text)
	}
	if info.cond != cond {
		if info.cond {
			return Operand{}, 0, p.errorf(name, "%s is a condition, not an operand", fn)
		}
		return Operand{}, 0, p.errorf(name, "%s is an operand, not a condition: compare it", fn)
	}
	lp := p.next() // '(' checked by the caller's peek2
	if err := p.enter(lp); err != nil {
		return Operand{}, 0, err
	}
	var args []Operand
	for {
		a, _, err := p.operand()
		if err != nil {
			return Operand{}, 0, err
		}
		args = append(args, a)
		if p.peek().kind != tComma {
			break
		}
		p.next()
	}
	rp, err := p.expect(tRParen, "\")\" or \",\"")
	if err != nil {
		return Operand{}, 0, err
	}
	p.leave()
	if len(args) != info.arity {
		return Operand{}, 0, p.errorf(name, "%s takes %d argument(s), found %d", fn, info.arity, len(args))
	}
	return Operand{Func: fn, Args: args, Text: p.src[name.off:rp.end]}, rp.end, nil
}

// placeholders appends the :values of o and its arguments, in order.
func placeholders(dst []string, o Operand) []string {
	if o.Value != "" {
		dst = append(dst, o.Value)
	}
	for _, a := range o.Args {
		dst = placeholders(dst, a)
	}
	return dst
}

// Resolve returns path with every #name replaced from names
// (ExpressionAttributeNames, whose keys include the '#'); unknown #names are
// left as is, so a caller can still tell that a name was not resolved.
func Resolve(path string, names map[string]string) string {
	if !strings.Contains(path, "#") {
		return path
	}
	var sb strings.Builder
	for i := 0; i < len(path); {
		if path[i] != '#' {
			sb.WriteByte(path[i])
			i++
			continue
		}
		j := i + 1
		for j < len(path) && isWordByte(path[j]) {
			j++
		}
		if v, ok := names[path[i:j]]; ok && j > i+1 {
			sb.WriteString(v)
		} else {
			sb.WriteString(path[i:j])
		}
		i = j
	}
	return sb.String()
}

// Placeholders returns every :value placeholder in expr in order, duplicates
// included. It does not parse expr, so it also serves expressions this
// package does not read (ProjectionExpression, PartiQL text).
func Placeholders(expr string) []string {
	var out []string
	for i := 0; i < len(expr); i++ {
		if expr[i] != ':' {
			continue
		}
		j := i + 1
		for j < len(expr) && isWordByte(expr[j]) {
			j++
		}
		if j > i+1 {
			out = append(out, expr[i:j])
		}
		i = j - 1
	}
	return out
}
