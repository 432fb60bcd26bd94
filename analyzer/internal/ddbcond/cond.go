// Package ddbcond reads DynamoDB condition and update expressions, the
// strings in ConditionExpression, KeyConditionExpression, FilterExpression
// and UpdateExpression, so that analyzers can tell whether a write's own
// condition compares the stored fence with the caller's fencing token.
//
// The readers follow the grammar of
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html
// and keep what fencing checks need: top-level AND terms, the alternatives
// of an OR, and each comparison's operands as written (#names and :values
// unresolved; see Resolve). They never panic, run in time linear in the
// input and refuse nesting deeper than MaxDepth.
package ddbcond

import "strings"

// Operand of a DynamoDB condition or update: a document path (fence_token,
// #f, a.b[0].c), a value placeholder (:tok), or a function call (size(#p)).
// In an update's SET value, `a + :v` and `a - :v` are represented as a call
// with Func "+" or "-" and the two sides as Args.
type Operand struct {
	Path  string    // the path as written ("#f", "fence_token", "a.b"); "" if not a path
	Value string    // the value placeholder as written (":tok"); "" if not one
	Func  string    // lower-cased function name if the operand is a function call (e.g. "size"), or "+"/"-"
	Args  []Operand // function arguments
	Text  string    // the operand's source text
}

// Comparison is one condition: a comparator, BETWEEN, IN or a condition
// function.
type Comparison struct {
	Left, Right Operand
	// "=", "<>", "<", "<=", ">", ">=", "BETWEEN" (Right = lower bound, Extra = upper), "IN" (Right = first, Extra = rest),
	// or a function-condition name lower-cased: "attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains"
	// (for those Left = first argument, Right = second if any).
	Op      string
	Extra   []Operand
	Negated bool   // NOT applied directly to this comparison (an odd number of times)
	Text    string // source text; for a negated comparison it starts at the outermost NOT
	Offset  int    // byte offset of Text in the expression
}

// Conjunct is one top-level AND term; an OR group (top-level or
// parenthesised) has one Comparison per alternative. Deeper nesting (AND
// inside OR, NOT around a group) sets Unknown and leaves Or nil: the caller
// must then treat the term as opaque rather than guess.
type Conjunct struct {
	Or      []Comparison
	Unknown bool
	Text    string // source text of the term, parentheses included
	Offset  int    // byte offset of Text in the expression
}

// node is the parse tree of a condition before it is flattened into
// conjuncts. off/end span the node's source including enclosing
// parentheses (what a Conjunct reports); notOff/notEnd span a NOT node
// without them (what a negated Comparison reports, like a plain one).
type node struct {
	op             byte // 'A' and, 'O' or, 'N' not, 'C' comparison
	kids           []*node
	cmp            Comparison
	off, end       int
	notOff, notEnd int
}

// ParseCondition reads a ConditionExpression / KeyConditionExpression /
// FilterExpression. Parenthesised AND groups at the top level are flattened
// into separate conjuncts and nested OR groups into one list of
// alternatives, since both are equivalent rewrites.
func ParseCondition(expr string) ([]Conjunct, error) {
	toks, err := lex(expr)
	if err != nil {
		return nil, err
	}
	p := &parser{src: expr, toks: toks}
	if p.peek().kind == tEOF {
		return nil, &SyntaxError{0, "empty condition expression"}
	}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errorf(t, "unexpected %s after condition", t.describe())
	}
	var terms []*node
	terms = collectAnd(terms, root)
	out := make([]Conjunct, 0, len(terms))
	for _, t := range terms {
		c := Conjunct{Text: expr[t.off:t.end], Offset: t.off}
		if alts, ok := alternatives(nil, t, expr); ok {
			c.Or = alts
		} else {
			c.Unknown = true
		}
		out = append(out, c)
	}
	return out, nil
}

func collectAnd(dst []*node, n *node) []*node {
	if n.op != 'A' {
		return append(dst, n)
	}
	for _, k := range n.kids {
		dst = collectAnd(dst, k)
	}
	return dst
}

// alternatives flattens n into OR alternatives, or reports false if n has a
// shape a flat list cannot express.
func alternatives(dst []Comparison, n *node, src string) ([]Comparison, bool) {
	switch n.op {
	case 'C':
		return append(dst, n.cmp), true
	case 'N':
		neg, in := true, n.kids[0]
		for in.op == 'N' {
			neg, in = !neg, in.kids[0]
		}
		if in.op != 'C' {
			return nil, false
		}
		c := in.cmp
		c.Negated = neg
		c.Offset, c.Text = n.notOff, src[n.notOff:n.notEnd]
		return append(dst, c), true
	case 'O':
		for _, k := range n.kids {
			var ok bool
			if dst, ok = alternatives(dst, k, src); !ok {
				return nil, false
			}
		}
		return dst, true
	}
	return nil, false
}

// or reads and {OR and}.
func (p *parser) or() (*node, error) {
	return p.chain("or", 'O', p.and)
}

// and reads not {AND not}.
func (p *parser) and() (*node, error) {
	return p.chain("and", 'A', p.not)
}

// chain reads operand {kw operand} into one n-ary node, iteratively, so a long
// chain costs no stack.
func (p *parser) chain(kw string, op byte, sub func() (*node, error)) (*node, error) {
	first, err := sub()
	if err != nil {
		return nil, err
	}
	if !isKeyword(p.peek(), kw) {
		return first, nil
	}
	n := &node{op: op, kids: []*node{first}, off: first.off}
	for isKeyword(p.peek(), kw) {
		p.next()
		k, err := sub()
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, k)
	}
	n.end = n.kids[len(n.kids)-1].end
	return n, nil
}

// not reads NOT not | primary.
func (p *parser) not() (*node, error) {
	t := p.peek()
	if !isKeyword(t, "not") {
		return p.primary()
	}
	p.next()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	in, err := p.not()
	if err != nil {
		return nil, err
	}
	p.leave()
	return &node{op: 'N', kids: []*node{in}, off: t.off, end: in.end, notOff: t.off, notEnd: in.end}, nil
}

// primary reads '(' or ')' | comparison.
func (p *parser) primary() (*node, error) {
	t := p.peek()
	if t.kind != tLParen {
		return p.comparison()
	}
	p.next()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	in, err := p.or()
	if err != nil {
		return nil, err
	}
	rp, err := p.expect(tRParen, "\")\"")
	if err != nil {
		return nil, err
	}
	p.leave()
	// Widen the span to the parentheses; a comparison keeps its own Text.
	in.off, in.end = t.off, rp.end
	return in, nil
}

// comparison reads a condition function, or operand followed by a
// comparator, BETWEEN or IN.
func (p *parser) comparison() (*node, error) {
	t := p.peek()
	if t.kind == tWord && p.peek2().kind == tLParen {
		if info, ok := funcs[strings.ToLower(t.text)]; ok && info.cond {
			call, end, err := p.call(true)
			if err != nil {
				return nil, err
			}
			c := Comparison{Op: call.Func, Left: call.Args[0], Text: call.Text, Offset: t.off}
			if len(call.Args) > 1 {
				c.Right = call.Args[1]
			}
			return &node{op: 'C', cmp: c, off: t.off, end: end}, nil
		}
	}
	left, _, err := p.operand()
	if err != nil {
		return nil, err
	}
	c := Comparison{Left: left, Offset: t.off}
	op := p.next()
	var end int
	switch {
	case op.kind == tCmp:
		c.Op = op.text
		c.Right, end, err = p.operand()
	case isKeyword(op, "between"):
		c.Op = "BETWEEN"
		if c.Right, _, err = p.operand(); err != nil {
			return nil, err
		}
		if a := p.next(); !isKeyword(a, "and") {
			return nil, p.errorf(a, "expected AND in BETWEEN, found %s", a.describe())
		}
		var hi Operand
		hi, end, err = p.operand()
		c.Extra = []Operand{hi}
	case isKeyword(op, "in"):
		c.Op = "IN"
		if _, err := p.expect(tLParen, "\"(\" after IN"); err != nil {
			return nil, err
		}
		if c.Right, _, err = p.operand(); err != nil {
			return nil, err
		}
		for p.peek().kind == tComma {
			p.next()
			var o Operand
			if o, _, err = p.operand(); err != nil {
				return nil, err
			}
			c.Extra = append(c.Extra, o)
		}
		var rp token
		rp, err = p.expect(tRParen, "\")\" or \",\" in IN list")
		end = rp.end
	default:
		return nil, p.errorf(op, "expected a comparator, BETWEEN or IN after %s, found %s", left.Text, op.describe())
	}
	if err != nil {
		return nil, err
	}
	c.Text = p.src[t.off:end]
	return &node{op: 'C', cmp: c, off: t.off, end: end}, nil
}
