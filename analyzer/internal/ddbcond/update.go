package ddbcond

// Action is one action of an UpdateExpression clause.
type Action struct {
	Clause string // "SET", "REMOVE", "ADD", "DELETE"
	Path   string // target path as written
	// Value is the SET value, or the ADD/DELETE operand; zero for REMOVE.
	// `a + :v` and `a - :v` are a call with Func "+"/"-"; if_not_exists and
	// list_append are calls with their arguments. Value.Text always holds the
	// value's source.
	Value  Operand
	Values []string // every :placeholder in the action's value, in order
	Text   string   // source text of the action, from the path to the end of the value
	Offset int      // byte offset of Text in the expression
}

// ParseUpdate reads an UpdateExpression such as
// `SET balance = balance - :amt, fence_token = :tok REMOVE x ADD c :one`.
// Clauses may come in any order, each at most once, as DynamoDB requires.
func ParseUpdate(expr string) ([]Action, error) {
	toks, err := lex(expr)
	if err != nil {
		return nil, err
	}
	p := &parser{src: expr, toks: toks}
	if p.peek().kind == tEOF {
		return nil, &SyntaxError{0, "empty update expression"}
	}
	var out []Action
	var seen [4]bool
	for p.peek().kind != tEOF {
		kw := p.next()
		clause := -1
		for i, c := range clauses {
			if isKeyword(kw, c) {
				clause = i
			}
		}
		if clause < 0 {
			return nil, p.errorf(kw, "expected SET, REMOVE, ADD or DELETE, found %s", kw.describe())
		}
		if seen[clause] {
			return nil, p.errorf(kw, "the %s clause may appear only once", clauses[clause])
		}
		seen[clause] = true
		for {
			a, err := p.action(clauses[clause])
			if err != nil {
				return nil, err
			}
			out = append(out, a)
			if p.peek().kind != tComma {
				break
			}
			p.next()
		}
	}
	return out, nil
}

var clauses = [4]string{"SET", "REMOVE", "ADD", "DELETE"}

// action reads one action of clause: `path = value` (SET), `path` (REMOVE)
// or `path operand` (ADD, DELETE).
func (p *parser) action(clause string) (Action, error) {
	start := p.peek()
	target, end, err := p.path()
	if err != nil {
		return Action{}, err
	}
	a := Action{Clause: clause, Path: target.Path, Offset: start.off}
	switch clause {
	case "SET":
		if eq := p.next(); eq.kind != tCmp || eq.text != "=" {
			return Action{}, p.errorf(eq, "expected \"=\" after %s, found %s", target.Path, eq.describe())
		}
		a.Value, end, err = p.setValue()
	case "ADD", "DELETE":
		a.Value, end, err = p.operand()
	}
	if err != nil {
		return Action{}, err
	}
	a.Values = placeholders(nil, a.Value)
	a.Text = p.src[start.off:end]
	return a, nil
}

// setValue reads operand [('+'|'-') operand]; DynamoDB allows one
// arithmetic operator per value.
func (p *parser) setValue() (Operand, int, error) {
	start := p.peek()
	left, end, err := p.operand()
	if err != nil {
		return Operand{}, 0, err
	}
	op := p.peek()
	if op.kind != tPlus && op.kind != tMinus {
		return left, end, nil
	}
	p.next()
	right, end, err := p.operand()
	if err != nil {
		return Operand{}, 0, err
	}
	return Operand{Func: op.text, Args: []Operand{left, right}, Text: p.src[start.off:end]}, end, nil
}
