package fence

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strings"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// MongoDB (mongo-driver v2). A write's condition is its filter document,
// read from the bson.M, bson.D or map literal built in the function: a
// field compared with a value ({"fence": tok} is "=", {"fence":
// {"$lt": tok}} is "<", rules.MongoCompareOps) is a comparison of the
// stored field with that value, judged like a SQL WHERE. The update
// document records the token when its $set (or $max) sets a field to it;
// a replacement document (no $ operator) records every field it carries.
// A filter or update built elsewhere (a helper, a struct filter, a
// pipeline) is not guessed at: the write is then unknown.

// mongoRead is the engine's reading of one MongoDB write.
type mongoRead struct {
	cmps []readCmp
	// written are the fields the update writes, recorded those it sets to
	// a token-derived value; writtenOK: the update was read whole (a
	// delete writes nothing and is read whole).
	written, recorded []string
	writtenOK         bool
	update            bool // the write has an update or replacement
	recordOrigin      *origin
}

// mongoEntry is one key of a document literal and its value.
type mongoEntry struct {
	key string
	val ssa.Value
}

// mongoDoc reads a document literal: bson.M (or any map with string
// keys), bson.D (a slice of bson.E{Key, Value}), a nil document; ok is
// false for anything else (a struct, a document from elsewhere).
func mongoDoc(v ssa.Value) ([]mongoEntry, bool) {
	v = stripValue(v)
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return nil, true
	}
	if m, ok := mapEntries(v); ok {
		var out []mongoEntry
		for k, val := range m {
			out = append(out, mongoEntry{k, val})
		}
		sortEntries(out)
		return out, true
	}
	elems, ok := sliceElems(v)
	if !ok {
		return nil, false
	}
	var out []mongoEntry
	for _, el := range elems {
		fs, ok := fieldStores(el)
		if !ok {
			return nil, false
		}
		k, ok := constString(fs["Key"])
		if !ok {
			return nil, false
		}
		out = append(out, mongoEntry{k, fs["Value"]})
	}
	return out, true
}

// sortEntries orders a map literal's entries by key: a map has no order,
// and the readings must not depend on SSA's.
func sortEntries(es []mongoEntry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].key < es[j-1].key; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// mongoArray reads an array literal ($and, $or): bson.A, []any,
// []bson.M or []bson.D built here.
func mongoArray(v ssa.Value) ([]ssa.Value, bool) {
	return sliceElems(stripValue(v))
}

// readMongoFilter reads the comparisons of a filter document. ok is false
// when the filter, or a part that may hold the fence, cannot be read.
func (e *engine) readMongoFilter(v ssa.Value, fencing bool, depth int) (cmps []readCmp, ok bool) {
	entries, ok := mongoDoc(v)
	if !ok || depth > 8 {
		return nil, false
	}
	ok = true
	for _, en := range entries {
		switch {
		case en.key == "$and":
			docs, isArr := mongoArray(en.val)
			if !isArr {
				ok = false
				continue
			}
			for _, d := range docs {
				got, dok := e.readMongoFilter(d, fencing, depth+1)
				cmps = append(cmps, got...)
				ok = ok && dok
			}
		case en.key == "$or" || en.key == "$nor":
			docs, isArr := mongoArray(en.val)
			if !isArr {
				ok = false
				continue
			}
			// Only a single alternative is a condition every matched
			// document meets; $nor negates: neither fences. A branch that
			// admits a document without the field ({"fence": {"$exists":
			// false}}, {"fence": nil}) is the first grant's, as DynamoDB's
			// attribute_not_exists(fence) OR fence < :tok: it does not count.
			alone := en.key == "$or" && onlyAlternative(docs)
			for _, d := range docs {
				got, dok := e.readMongoFilter(d, fencing && alone, depth+1)
				cmps = append(cmps, got...)
				ok = ok && dok
			}
		case strings.HasPrefix(en.key, "$"):
			ok = false // $expr, $where, $text: not read
		default:
			got, fok := e.readMongoField(en.key, en.val, fencing)
			cmps = append(cmps, got...)
			ok = ok && fok
		}
	}
	return cmps, ok
}

// onlyAlternative: the $or has one alternative, or one besides branches
// that only admit a document without that alternative's own field
// ({"fence": {"$exists": false}} or {"fence": nil} next to {"fence":
// {"$lt": tok}}). A missing-field branch on another field lets documents
// through whatever their fence.
func onlyAlternative(docs []ssa.Value) bool {
	var rest []string // the field of each alternative that is not a missing-field branch
	var missing []string
	for _, d := range docs {
		entries, ok := mongoDoc(d)
		if !ok {
			return false
		}
		if f, isMissing := missingFieldBranch(entries); isMissing {
			missing = append(missing, f)
			continue
		}
		field := ""
		if len(entries) == 1 {
			field = entries[0].key
		}
		rest = append(rest, field)
	}
	if len(rest) != 1 {
		return false
	}
	for _, f := range missing {
		if f != rest[0] {
			return false
		}
	}
	return true
}

// missingFieldBranch: entries are {"f": {"$exists": false}} or {"f": nil}.
func missingFieldBranch(entries []mongoEntry) (string, bool) {
	if len(entries) != 1 || strings.HasPrefix(entries[0].key, "$") {
		return "", false
	}
	v := stripValue(entries[0].val)
	if c, isConst := v.(*ssa.Const); isConst && c.IsNil() {
		return entries[0].key, true
	}
	ops, ok := mongoDoc(v)
	if ok && len(ops) == 1 && ops[0].key == "$exists" {
		if c, isConst := stripValue(ops[0].val).(*ssa.Const); isConst && c.Value != nil && c.Value.ExactString() == "false" {
			return entries[0].key, true
		}
	}
	return "", false
}

// readMongoField reads the condition on one field: a value (equality) or
// an operator document.
func (e *engine) readMongoField(field string, v ssa.Value, fencing bool) ([]readCmp, bool) {
	entries, isDoc := mongoDoc(v)
	if !isDoc || len(entries) == 0 || !strings.HasPrefix(entries[0].key, "$") {
		// {"fence": tok}: equality with a value (an embedded document
		// compared whole is equality too).
		if rc, ok := e.mongoCompare(field, "=", "", v, fencing); ok {
			return []readCmp{rc}, true
		}
		return nil, true
	}
	var out []readCmp
	for _, en := range entries {
		op, isCmp := rules.MongoCompareOps[en.key]
		if !isCmp {
			continue // $exists, $in, $type: no order with the token
		}
		if rc, ok := e.mongoCompare(field, op, en.key, en.val, fencing); ok {
			out = append(out, rc)
		}
	}
	return out, true
}

// mongoCompare is "field op value" when value carries a token or a
// parameter.
func (e *engine) mongoCompare(field, op, opText string, v ssa.Value, fencing bool) (readCmp, bool) {
	o := e.originOf(v)
	if o == nil {
		return readCmp{}, false
	}
	if opText == "" {
		opText = "="
	}
	return readCmp{o: o, pub: CondCompare{
		Column: field, Text: field, Op: op, Token: o.desc, Origin: o.desc, Weak: o.weak,
		Clause: "filter", Fencing: fencing, Offset: -1, OpText: opText, opOff: -1,
	}}, true
}

// readMongoUpdate reads what an update or replacement document writes.
func (e *engine) readMongoUpdate(r *mongoRead, v ssa.Value) {
	entries, ok := mongoDoc(v)
	if !ok {
		if fields, sok := e.structDoc(v); sok {
			entries, ok = fields, true
		}
	}
	if !ok {
		return // a pipeline, a document from elsewhere
	}
	r.writtenOK = true
	record := func(field string, val ssa.Value) {
		r.written = append(r.written, field)
		if o := e.originOf(val); o.isToken() {
			r.recorded = append(r.recorded, field)
			if r.recordOrigin == nil {
				r.recordOrigin = o
			}
		}
	}
	for _, en := range entries {
		if !strings.HasPrefix(en.key, "$") {
			record(en.key, en.val) // a replacement document
			continue
		}
		inner, ok := mongoDoc(en.val)
		if !ok {
			r.writtenOK = false
			continue
		}
		for _, f := range inner {
			if rules.MongoRecordOps[en.key] {
				record(f.key, f.val)
			} else {
				r.written = append(r.written, f.key) // $inc, $unset, $push: not the token's value
			}
		}
	}
}

// structDoc reads a struct literal replacement (&Lease{Fence: tok}) by
// its bson field names: the bson tag's name, else the lower-cased field
// name, as the driver encodes it.
func (e *engine) structDoc(v ssa.Value) ([]mongoEntry, bool) {
	fs, ok := fieldStores(v)
	if !ok {
		return nil, false
	}
	base := stripValue(v)
	if load, isLoad := base.(*ssa.UnOp); isLoad && load.Op == token.MUL {
		base = load.X
	}
	st, ok := derefStruct(base.Type())
	if !ok {
		return nil, false
	}
	var out []mongoEntry
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		val, set := fs[f.Name()]
		if !set {
			continue
		}
		name := strings.ToLower(f.Name())
		if tag, ok := reflect.StructTag(st.Tag(i)).Lookup("bson"); ok {
			if n, _, _ := strings.Cut(tag, ","); n != "" && n != "-" {
				name = n
			}
		}
		out = append(out, mongoEntry{name, val})
	}
	return out, true
}

// evalMongo judges one MongoDB collection write.
func (e *engine) evalMongo(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	var filter, update ssa.Value
	if w.InputArg >= 0 && w.InputArg < len(ps) {
		filter = ps[w.InputArg]
	}
	if w.UpdateArg >= 0 && w.UpdateArg < len(ps) {
		update = ps[w.UpdateArg]
	}
	method := ""
	if fn := calleeFunc(cc); fn != nil {
		method = fn.Name()
	}
	ev := e.judgeMongo(filter, update, w.InputArg < 0, method)
	ev.litArg = w.InputArg
	return ev
}

// judgeMongo judges a write with filter and update (nil for a delete);
// byID: the filter is the _id alone (UpdateByID).
func (e *engine) judgeMongo(filter, update ssa.Value, byID bool, method string) *eval {
	ev := &eval{isWrite: true, store: "MongoDB"}
	r := &mongoRead{writtenOK: true}
	if update != nil {
		r.update, r.writtenOK = true, false
		e.readMongoUpdate(r, update)
	}
	var filterOK bool
	if byID {
		filterOK = true
	} else {
		r.cmps, filterOK = e.readMongoFilter(filter, true, 0)
	}
	ev.mongoRead = r
	ev.cond = &Condition{Compares: publicCompares(r.cmps), Records: r.recorded, RecordsKnown: r.writtenOK, Partial: !filterOK}
	var fenced, wrong, weak, orOnly bool
	var params []int
	for _, c := range r.cmps {
		if !c.pub.Fencing {
			orOnly = orOnly || c.o.isToken()
			continue
		}
		if c.o.param >= 0 {
			if paramFence(c.pub.Column, c.pub.Op) {
				params = appendUnique(params, c.o.param)
			}
			continue
		}
		ev.compares = append(ev.compares, Compare{Column: c.pub.Column, Op: c.pub.Op, Token: c.o.desc, TokenPos: c.o.pos, Weak: c.o.weak, Why: c.o.why})
		switch {
		case c.o.weak:
			weak = true
		case validDirection(c.pub.Op):
			fenced = true
		default:
			wrong = true
		}
	}
	ev.recorded = r.recorded
	switch {
	case fenced:
		ev.verdict = Fenced
	case wrong:
		ev.verdict = WrongPredicate
	case weak:
		ev.verdict = WeakToken
	case !filterOK:
		ev.verdict = Unknown // a part of the filter we cannot read may hold the fence
	case len(r.recorded) > 0 && len(params) == 0:
		ev.verdict = RecordedOnly
		ev.detail = fmt.Sprintf("it records %s in %s but its filter never compares it", r.recordOrigin.desc, r.recorded[0])
		if orOnly {
			ev.detail = fmt.Sprintf("it records %s in %s but its filter compares it only in an $or whose other branches let a document through whatever its fence", r.recordOrigin.desc, r.recorded[0])
		}
	default:
		ev.fencedBy = params
		ev.verdict = Unfenced
		switch {
		case byID:
			ev.detail = method + "'s filter is the _id alone; compare the fence field with the token in an UpdateOne filter"
		case orOnly:
			ev.detail = "its filter compares the token only in an $or whose other branches let a document through whatever its fence"
		default:
			ev.detail = "its filter does not compare a fence field with the token"
		}
		if entries, ok := mongoDoc(filter); ok && len(entries) == 0 && !byID {
			ev.blind = true // an empty filter matches any document
			ev.detail = "its filter is empty"
		}
	}
	return ev
}

// evalMongoBulk: BulkWrite's models are applied one by one (ordered or
// not, never together), so each must be fenced by its own filter: the
// write is fenced when every model is, unfenced when one is not.
func (e *engine) evalMongoBulk(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	ev := &eval{isWrite: true, store: "MongoDB", verdict: Unknown}
	if w.InputArg < 0 || w.InputArg >= len(ps) {
		return &eval{}
	}
	models, ok := sliceElems(stripValue(ps[w.InputArg]))
	if !ok || len(models) == 0 {
		return ev
	}
	var evs []*eval
	for _, m := range models {
		filter, update, method, ok := mongoModel(m)
		if !ok {
			return ev
		}
		if method == "NewInsertOneModel" {
			continue // creates only
		}
		evs = append(evs, e.judgeMongo(filter, update, false, method))
	}
	if len(evs) == 0 {
		return ev
	}
	for _, v := range []Verdict{Unfenced, RecordedOnly, Unknown, WrongPredicate, WeakToken} {
		for _, m := range evs {
			if m.verdict == v {
				*ev = *m
				if v == Unfenced || v == RecordedOnly {
					ev.detail = "a model of the bulk write is not fenced: " + m.detail
				}
				ev.litArg = -1
				return ev
			}
		}
	}
	*ev = *evs[0] // all fenced
	ev.litArg = -1
	return ev
}

// mongoModel reads a write model built here: mongo.NewUpdateOneModel()
// .SetFilter(f).SetUpdate(u) (rules.MongoModelSetters).
func mongoModel(v ssa.Value) (filter, update ssa.Value, maker string, ok bool) {
	v = stripValue(v)
	if load, isLoad := v.(*ssa.UnOp); isLoad && load.Op == token.MUL {
		if ss := storesTo(load.X); len(ss) == 1 {
			v = stripValue(ss[0])
		}
	}
	for depth := 0; depth < 8; depth++ {
		call, isCall := v.(*ssa.Call)
		if !isCall {
			return nil, nil, "", false
		}
		fn := calleeFunc(call.Common())
		if fn == nil || fn.Pkg() == nil || !rules.MongoModelPkgs[fn.Pkg().Path()] {
			return nil, nil, "", false
		}
		if strings.HasPrefix(fn.Name(), "New") && strings.HasSuffix(fn.Name(), "Model") {
			return filter, update, fn.Name(), true
		}
		ps := params(call.Common())
		switch rules.MongoModelSetters[fn.Name()] {
		case "filter":
			if filter == nil && len(ps) == 1 {
				filter = ps[0]
			}
		case "update":
			if update == nil && len(ps) == 1 {
				update = ps[0]
			}
		default:
			// SetUpsert, SetCollation, SetDocument: settings
		}
		v = stripValue(receiver(call.Common()))
	}
	return nil, nil, "", false
}

// placeMongo spans the filter argument in source: the condition's place,
// where fencepredicate reports.
func placeMongo(w *Write, r *mongoRead, filter ast.Expr) {
	if filter == nil {
		return
	}
	w.Cond.Pos, w.Cond.End = filter.Pos(), filter.End()
	for i := range r.cmps {
		r.cmps[i].pub.Pos, r.cmps[i].pub.End = filter.Pos(), filter.End()
	}
	w.Cond.Compares = publicCompares(r.cmps)
}
