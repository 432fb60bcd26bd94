package fence

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/fencelint/fencelint/analyzer/internal/ddbcond"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// ddbRead is the engine's reading of one DynamoDB item's condition: a
// constant ConditionExpression with its names and values, or an
// expression-builder condition.
type ddbRead struct {
	method string    // UpdateItem, PutItem, DeleteItem; Put, Update, Delete, ConditionCheck in a transaction
	text   string    // the constant ConditionExpression; "" for a builder or an unknown value
	parsed bool      // text was read by ddbcond
	cond   ssa.Value // the ConditionExpression value, for its source span
	cmps   []readCmp
	// written are the attributes the item writes at all (resolved), and
	// recorded those written with a token-derived value; writtenOK says
	// whether the UpdateExpression or Item could be read.
	written, recorded []string
	writtenOK         bool
	// valuesUnknown: ExpressionAttributeValues is set but built where we
	// cannot read it, so a :value in the condition may be the token.
	valuesUnknown bool
	// condPos and condEnd span the ConditionExpression value in source.
	condPos, condEnd token.Pos
}

// condition is the public Condition of a single-item write.
func (r *ddbRead) condition() *Condition {
	return &Condition{Text: r.text, Compares: publicCompares(r.cmps), Records: r.recorded, RecordsKnown: r.writtenOK}
}

// readDynamo reads the condition of one item (an input struct's fields).
func (e *engine) readDynamo(fs map[string]ssa.Value, method string) *ddbRead {
	r := &ddbRead{method: method, cond: fs["ConditionExpression"]}
	names := map[string]string{}
	if m, ok := mapEntries(fs["ExpressionAttributeNames"]); ok {
		for k, v := range m {
			if s, ok := constString(v); ok {
				names[k] = s
			}
		}
	}
	values, ok := mapEntries(fs["ExpressionAttributeValues"])
	if _, has := fs["ExpressionAttributeValues"]; has && !ok {
		r.valuesUnknown = true
	}
	valueOrigin := func(p string) *origin {
		if p == "" || values == nil {
			return nil
		}
		if v, ok := values[p]; ok {
			return e.originOf(v)
		}
		return nil
	}
	r.readWritten(e, fs, names, valueOrigin)
	text, isConst := constString(r.cond)
	if !isConst {
		r.cmps = e.readBuilder(r.cond)
		return r
	}
	r.text = text
	conj, err := ddbcond.ParseCondition(text)
	if err != nil {
		return r
	}
	r.parsed = true
	for _, c := range conj {
		group := ddbFencingGroup(c)
		for _, cmp := range c.Or {
			// NOT fence > :tok is fence <= :tok.
			negated := cmp.Negated
			if inv, ok := negatedOps[cmp.Op]; ok && negated {
				cmp.Op, negated = inv, false
			}
			path, tok, op, swapped := cmp.Left, cmp.Right, cmp.Op, false
			var o *origin
			switch {
			case cmp.Left.Path != "":
				o = valueOrigin(cmp.Right.Value)
			case cmp.Right.Path != "":
				path, tok, op, swapped = cmp.Right, cmp.Left, flipOp(cmp.Op), true
				o = valueOrigin(cmp.Left.Value)
			}
			if o == nil {
				continue
			}
			decimal := false
			if tok.Value != "" && values != nil {
				decimal = stringAttrOfDecimal(values[tok.Value])
			}
			rc := readCmp{o: o, negated: negated, decimal: decimal, pub: CondCompare{
				Column: ddbcond.Resolve(path.Path, names), Text: path.Path, Op: op, Token: tok.Value,
				Origin: o.desc, Weak: o.weak, Clause: "ConditionExpression", Fencing: !negated && group,
				Swapped: swapped, Offset: cmp.Offset, Len: len(cmp.Text), opOff: -1,
			}}
			if !group && !negated {
				rc.bypass = c.Text
			}
			if !cmp.Negated {
				// Under NOT the operator written is not the one to flip.
				rc.pub.OpText, rc.pub.opOff = opAt(text, cmp.Text, cmp.Offset, cmp.Left.Text)
			}
			r.cmps = append(r.cmps, rc)
		}
	}
	return r
}

// stringAttrOfDecimal: v is &types.AttributeValueMemberS{Value: x} with
// x a decimal string (decimalString): DynamoDB orders S values byte by
// byte, N values as numbers.
func stringAttrOfDecimal(v ssa.Value) bool {
	if v == nil {
		return false
	}
	t := stripValue(v).Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if rules.TypeKey(t) != rules.DynamoStringAttr {
		return false
	}
	fs, ok := fieldStores(v)
	return ok && decimalString(fs["Value"])
}

// ddbFencingGroup reports whether an OR group can fence: besides the
// missing-attribute branch of a first write (attribute_not_exists), it
// has at most one alternative. "fence < :tok OR owner = :me" lets the
// owner through whatever its token, as SQL's "fence < $1 OR force" does.
func ddbFencingGroup(c ddbcond.Conjunct) bool {
	n := 0
	for _, cmp := range c.Or {
		if cmp.Op != "attribute_not_exists" || cmp.Negated {
			n++
		}
	}
	return n <= 1
}

// readWritten reads which attributes the item writes: the SET and ADD
// actions of an UpdateExpression, the attributes of a put's Item.
func (r *ddbRead) readWritten(e *engine, fs map[string]ssa.Value, names map[string]string, valueOrigin func(string) *origin) {
	switch r.method {
	case "UpdateItem", "Update":
		upd, ok := constString(fs["UpdateExpression"])
		if !ok {
			return
		}
		acts, err := ddbcond.ParseUpdate(upd)
		if err != nil {
			return
		}
		r.writtenOK = true
		for _, a := range acts {
			if a.Clause != "SET" && a.Clause != "ADD" {
				continue
			}
			attr := ddbcond.Resolve(a.Path, names)
			r.written = append(r.written, attr)
			for _, v := range a.Values {
				if valueOrigin(v).isToken() {
					r.recorded = append(r.recorded, attr)
					break
				}
			}
		}
	case "PutItem", "Put":
		item, ok := mapEntries(fs["Item"])
		if !ok {
			return
		}
		r.writtenOK = true
		for k, v := range item {
			r.written = append(r.written, k)
			if e.originOf(v).isToken() {
				r.recorded = append(r.recorded, k)
			}
		}
	}
}

// negatedOps gives the comparator NOT turns each into.
var negatedOps = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "<>", "<>": "="}

// builderOps are the comparisons of the expression package's
// NameBuilder (and its package-level twins), as "name Op value".
var builderOps = map[string]string{
	"Equal": "=", "NotEqual": "<>", "LessThan": "<", "LessThanEqual": "<=", "GreaterThan": ">", "GreaterThanEqual": ">=",
}

// readBuilder reads an expression-builder condition:
// Have: cond := expression.Name("fence").LessThan(expression.Value(tok))
// Have: expr, err := expression.NewBuilder().WithCondition(cond).Build()
// Have: ConditionExpression: expr.Condition()
// It returns the comparisons of a name with a traced value; nil when the
// chain is not read whole (the caller then falls back to tracing the
// value).
func (e *engine) readBuilder(v ssa.Value) []readCmp {
	call, ok := stripValue(v).(*ssa.Call)
	if !ok || !isExpressionFunc(calleeFunc(call.Common()), "Condition") {
		return nil
	}
	ex, ok := stripValue(receiver(call.Common())).(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return nil
	}
	b, ok := ex.Tuple.(*ssa.Call)
	if !ok || !isExpressionFunc(calleeFunc(b.Common()), "Build") {
		return nil
	}
	var cmps []readCmp
	bv := receiver(b.Common())
	for depth := 0; depth < 8; depth++ {
		c, ok := stripValue(bv).(*ssa.Call)
		if !ok {
			return nil
		}
		fn := calleeFunc(c.Common())
		switch {
		case isExpressionFunc(fn, "NewBuilder"):
			return cmps
		case isExpressionFunc(fn, "WithCondition"):
			ps := params(c.Common())
			if len(ps) != 1 {
				return nil
			}
			got, ok := e.readBuilderCond(ps[0], 0)
			if !ok {
				return nil
			}
			cmps = append(cmps, got...)
		case isExpressionFunc(fn, "WithUpdate"), isExpressionFunc(fn, "WithProjection"):
		default:
			return nil
		}
		bv = receiver(c.Common())
	}
	return nil
}

// readBuilderCond reads one ConditionBuilder: a comparison, And/Or of
// them, or AttributeNotExists (no token). ok is false for anything else.
func (e *engine) readBuilderCond(v ssa.Value, depth int) ([]readCmp, bool) {
	c, ok := stripValue(v).(*ssa.Call)
	if !ok || depth > 16 {
		return nil, false
	}
	fn := calleeFunc(c.Common())
	if fn == nil || !isExpressionFunc(fn, fn.Name()) {
		return nil, false
	}
	sig := fn.Type().(*types.Signature)
	isMethod := sig.Recv() != nil
	ps := params(c.Common())
	name := fn.Name()
	switch {
	case name == "And" || name == "Or":
		parts := ps
		if isMethod {
			parts = append([]ssa.Value{receiver(c.Common())}, ps...)
		}
		if sig.Variadic() && len(parts) > 0 {
			// And(right, other...): the trailing slice, when built here.
			others, ok := unpackVariadic(parts[len(parts)-1])
			if !ok {
				return nil, false
			}
			parts = append(parts[:len(parts)-1:len(parts)-1], others...)
		}
		var out []readCmp
		for _, p := range parts {
			if c, ok := stripValue(p).(*ssa.Const); ok && c.IsNil() {
				continue // no other conditions
			}
			got, ok := e.readBuilderCond(p, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, got...)
		}
		return out, true
	case name == "AttributeNotExists" || name == "AttributeExists":
		return nil, true
	case builderOps[name] != "":
		var nameV, valV ssa.Value
		if isMethod && len(ps) == 1 {
			nameV, valV = receiver(c.Common()), ps[0]
		} else if !isMethod && len(ps) == 2 {
			nameV, valV = ps[0], ps[1]
		} else {
			return nil, false
		}
		op := builderOps[name]
		attr, ok := builderArg(nameV, "Name")
		swapped := false
		if !ok {
			// Value(tok).LessThan(Name("fence")) reads "tok < fence".
			nameV, valV = valV, nameV
			if attr, ok = builderArg(nameV, "Name"); !ok {
				return nil, false
			}
			op, swapped = flipOp(op), true
		}
		val, ok := builderCall(valV, "Value")
		if !ok {
			return nil, false
		}
		o := e.originOf(val.Common().Args[0])
		if o == nil {
			return nil, true
		}
		attrText, _ := constString(attr)
		rc := readCmp{o: o, pub: CondCompare{
			Column: attrText, Text: attrText, Op: op, Token: e.argText(val), Origin: o.desc, Weak: o.weak,
			Clause: "expression builder", Fencing: true, Swapped: swapped, Offset: -1, OpText: name, opOff: -1,
		}}
		if ce, ok := e.calls.at(c.Pos()); ok {
			rc.pub.Pos, rc.pub.End = ce.Pos(), ce.End()
			if sel, ok := ce.Fun.(*ast.SelectorExpr); ok {
				rc.pub.OpPos = sel.Sel.Pos()
			}
		}
		return []readCmp{rc}, true
	}
	return nil, false
}

// builderArg returns the constant-or-not argument of expression.<fn>(x).
func builderArg(v ssa.Value, fn string) (ssa.Value, bool) {
	c, ok := builderCall(v, fn)
	if !ok {
		return nil, false
	}
	if _, ok := constString(c.Common().Args[0]); !ok {
		return nil, false
	}
	return c.Common().Args[0], true
}

func builderCall(v ssa.Value, fn string) (*ssa.Call, bool) {
	c, ok := stripValue(v).(*ssa.Call)
	if !ok || !isExpressionFunc(calleeFunc(c.Common()), fn) || len(c.Common().Args) != 1 {
		return nil, false
	}
	return c, true
}

// argText renders the single argument of the call c: "lease.Token".
func (e *engine) argText(c *ssa.Call) string {
	if ce, ok := e.calls.at(c.Pos()); ok && len(ce.Args) == 1 {
		return types.ExprString(ce.Args[0])
	}
	return "the token"
}

// isExpressionFunc: fn is name of the DynamoDB expression package.
func isExpressionFunc(fn *types.Func, name string) bool {
	return fn != nil && fn.Name() == name && fn.Pkg() != nil && fn.Pkg().Path() == expressionPkg
}

const expressionPkg = rules.DynamoExpressionPkg
