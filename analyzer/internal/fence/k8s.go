package fence

import (
	"go/token"
	"go/types"
	"strings"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Kubernetes objects (rules.ObjectVersioned, rules.K8sLeaseLock).
//
// An Update sends the whole object; the API server compares its
// metadata.resourceVersion with the stored one when it is not empty and
// answers a mismatch with 409 Conflict. So the write is a compare-and-set
// exactly when the object carries a resourceVersion the code read, like a
// ZooKeeper Set given the version of its Get.

// objVersion is what an object handed to a write carries as its
// resourceVersion.
type objVersion int

const (
	versionUnknown objVersion = iota
	versionRead               // the stored one, read by a Get or a List (or assigned from a value)
	versionEmpty              // none: built here without one, or set to ""
)

// evalObjectVersion reads an object write: a CAS on the resourceVersion
// the object carries, blind when it carries none, unknown when the object
// comes from where the engine cannot see (a parameter, a builder).
func (e *engine) evalObjectVersion(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	ev := &eval{isWrite: true, verdict: Unknown, target: keyTarget(ps, w.KeyArg)}
	if w.InputArg < 0 || w.InputArg >= len(ps) {
		return ev
	}
	in := ps[w.InputArg]
	if isByteSlice(in.Type()) {
		return e.evalPatchBody(ev, in)
	}
	if b, ok := stripValue(in).(*ssa.Call); ok {
		if fn := calleeFunc(b.Common()); fn != nil && rules.K8sPatchBuilders[rules.Key(fn)] {
			return evalPatchBuilder(ev, b)
		}
	}
	switch objectVersion(in, 0) {
	case versionRead:
		ev.verdict = Fenced // a compare-and-set on the resourceVersion read
	case versionEmpty:
		ev.verdict = Unfenced
		ev.blind = true
		ev.detail = "its object carries no resourceVersion, so the API server writes it unconditionally"
	}
	return ev
}

// evalPatchBody: a Patch is conditional only when its body names
// metadata.resourceVersion; a constant body that does not is blind, and a
// body built at run time (json.Marshal, client.MergeFrom) is unknown.
func (e *engine) evalPatchBody(ev *eval, body ssa.Value) *eval {
	text, ok := constString(body)
	if !ok {
		text, ok = patchSkeleton(body)
	}
	if !ok {
		return ev
	}
	if strings.Contains(text, "resourceVersion") {
		ev.verdict = Fenced
		return ev
	}
	ev.verdict = Unfenced
	ev.blind = true
	ev.detail = "its patch names no resourceVersion, so the API server applies it unconditionally"
	return ev
}

// patchSkeleton reads a patch body built by concatenation,
// []byte(`{"metadata":{"labels":{"` + key + `":"` + val + `"}}}`), when
// every value concatenated in sits inside a JSON string (the constant
// before it ends with a quote and the one after it starts with one): the
// constants then fix which fields the patch sets, and the skeleton, the
// constants joined, is read like a constant body. Anything else is not
// guessed.
func patchSkeleton(body ssa.Value) (string, bool) {
	var parts []ssa.Value
	var flatten func(v ssa.Value, depth int) bool
	flatten = func(v ssa.Value, depth int) bool {
		if depth > 16 {
			return false
		}
		if bo, ok := v.(*ssa.BinOp); ok && bo.Op == token.ADD {
			return flatten(bo.X, depth+1) && flatten(bo.Y, depth+1)
		}
		parts = append(parts, v)
		return true
	}
	conv, ok := body.(*ssa.Convert)
	if !ok || !flatten(conv.X, 0) || len(parts) < 2 {
		return "", false
	}
	var b strings.Builder
	for i, p := range parts {
		if s, ok := constString(p); ok {
			b.WriteString(s)
			continue
		}
		if i == 0 || i == len(parts)-1 {
			return "", false
		}
		before, ok1 := constString(parts[i-1])
		after, ok2 := constString(parts[i+1])
		if !ok1 || !ok2 || !strings.HasSuffix(before, `"`) || !strings.HasPrefix(after, `"`) {
			return "", false
		}
	}
	return b.String(), true
}

// evalPatchBuilder: a controller-runtime merge patch (client.MergeFrom)
// sends no resourceVersion unless built with the optimistic-lock option
// (client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})).
func evalPatchBuilder(ev *eval, b *ssa.Call) *eval {
	args := b.Common().Args
	if len(args) > 1 {
		opts, ok := unpackVariadic(args[len(args)-1])
		if !ok {
			return ev // options built elsewhere: unknown
		}
		for _, o := range opts {
			if rules.HasTypeKey(stripValue(o).Type(), rules.K8sOptimisticLock) {
				ev.verdict = Fenced
				return ev
			}
		}
	}
	ev.verdict = Unfenced
	ev.blind = true
	ev.detail = "its merge patch carries no resourceVersion precondition (MergeFromWithOptimisticLock), so the API server applies it unconditionally"
	return ev
}

func isByteSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// objectVersion follows the object v (a pointer) back to where it was
// made. A resourceVersion assigned to it (obj.ResourceVersion = x,
// obj.SetResourceVersion(x)) decides; otherwise an object read from the
// API server or a cache carries the stored one, and a composite literal
// carries none.
func objectVersion(v ssa.Value, depth int) objVersion {
	if depth > 6 {
		return versionUnknown
	}
	v = stripValue(v)
	if set, ok := assignedVersion(v, 0); ok {
		return set
	}
	switch x := v.(type) {
	case *ssa.Call:
		fn := calleeFunc(x.Common())
		switch {
		case fn == nil:
		case rules.IsK8sObjectRead(fn):
			return versionRead
		case fn.Name() == "DeepCopy" || fn.Name() == "DeepCopyObject":
			return objectVersion(receiver(x.Common()), depth+1)
		}
	case *ssa.Extract:
		return objectVersion(x.Tuple, depth+1)
	case *ssa.IndexAddr:
		// &list.Items[i]: an item of a List carries its resourceVersion.
		return objectVersion(x.X, depth+1)
	case *ssa.FieldAddr:
		if fieldNameOf(x.X.Type(), x.Field) == "Items" {
			return objectVersion(x.X, depth+1)
		}
	case *ssa.Field:
		if fieldNameOf(x.X.Type(), x.Field) == "Items" {
			return objectVersion(x.X, depth+1)
		}
	case *ssa.Index:
		return objectVersion(x.X, depth+1)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			return objectVersion(x.X, depth+1)
		}
	case *ssa.Phi:
		out := versionUnknown
		for i, edge := range x.Edges {
			ver := objectVersion(edge, depth+1)
			if i > 0 && ver != out {
				return versionUnknown
			}
			out = ver
		}
		return out
	case *ssa.Alloc:
		// cm := *got (a local copy of a read object), or a composite
		// literal: &corev1.ConfigMap{...}.
		if val, ok := storedWhole(x); ok {
			return objectVersion(val, depth+1)
		}
		if filledByRead(x) {
			return versionRead // c.Get(ctx, key, obj) filled it
		}
		if _, isStruct := derefStruct(x.Type()); isStruct && !escapes(x) {
			return versionEmpty
		}
	}
	return versionUnknown
}

// storedWhole returns the value stored whole into alloc (cm := *got), if
// the only whole-value store is one.
func storedWhole(alloc *ssa.Alloc) (ssa.Value, bool) {
	var val ssa.Value
	for _, r := range *alloc.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == alloc {
			if val != nil {
				return nil, false
			}
			val = st.Val
		}
	}
	return val, val != nil
}

// assignedVersion looks for a resourceVersion assigned to the object v
// points to: a store to its ObjectMeta's ResourceVersion field (through
// the embedded ObjectMeta or a nested composite literal), or a call of
// SetResourceVersion on it. The constant "" is none; any other value is
// taken to be one that was read (a resourceVersion is only ever copied
// from the API server's answers).
func assignedVersion(v ssa.Value, depth int) (objVersion, bool) {
	if depth > 3 || v.Referrers() == nil {
		return versionUnknown, false
	}
	found, conflict, out := false, false, versionUnknown
	merge := func(ver objVersion) {
		if found && ver != out {
			conflict = true
		}
		found, out = true, ver
	}
	stored := func(val ssa.Value) {
		if s, ok := constString(val); ok && s == "" {
			merge(versionEmpty)
			return
		}
		merge(versionRead)
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			switch {
			case fieldNameOf(r.X.Type(), r.Field) == rules.K8sResourceVersionField && isObjectMeta(r.X.Type()):
				for _, fr := range *r.Referrers() {
					if st, ok := fr.(*ssa.Store); ok && st.Addr == r {
						stored(st.Val)
					}
				}
			case isObjectMeta(r.Type()):
				// obj.ObjectMeta.ResourceVersion, a nested literal's field,
				// or a whole ObjectMeta stored: ObjectMeta: metav1.ObjectMeta{...}.
				if ver, ok := assignedVersion(r, depth+1); ok {
					merge(ver)
				}
				for _, fr := range *r.Referrers() {
					st, ok := fr.(*ssa.Store)
					if !ok || st.Addr != r {
						continue
					}
					merge(wholeMetaVersion(st.Val, depth))
				}
			}
		case *ssa.Call:
			cc := r.Common()
			if fn := calleeFunc(cc); fn != nil && fn.Name() == rules.K8sSetResourceVersion && len(cc.Args) == 2 && stripValue(cc.Args[0]) == v {
				stored(cc.Args[1])
			}
		}
	}
	if conflict {
		return versionUnknown, true
	}
	return out, found
}

// wholeMetaVersion is the resourceVersion a whole ObjectMeta stored into
// an object carries: a literal built here (metav1.ObjectMeta{Name: n})
// carries the one assigned to it, or none; a copy of another object's
// metadata (ObjectMeta: cur.ObjectMeta) carries that object's.
func wholeMetaVersion(val ssa.Value, depth int) objVersion {
	load, ok := val.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return versionUnknown
	}
	switch src := load.X.(type) {
	case *ssa.Alloc:
		if ver, ok := assignedVersion(src, depth+1); ok {
			return ver
		}
		if escapes(src) {
			return versionUnknown
		}
		return versionEmpty
	case *ssa.FieldAddr:
		return objectVersion(src.X, depth+1)
	}
	return versionUnknown
}

// filledByRead: the object alloc points to is passed to a read that fills
// it (rules.K8sObjectFills: controller-runtime's Get(ctx, key, obj)).
func filledByRead(alloc *ssa.Alloc) bool {
	var uses []ssa.Instruction
	for _, r := range *alloc.Referrers() {
		uses = append(uses, r)
		if mi, ok := r.(*ssa.MakeInterface); ok && mi.Referrers() != nil {
			uses = append(uses, *mi.Referrers()...)
		}
	}
	for _, u := range uses {
		call, ok := u.(ssa.CallInstruction)
		if !ok {
			continue
		}
		fn := calleeFunc(call.Common())
		if fn == nil {
			continue
		}
		idx, ok := rules.K8sObjectFills[rules.Key(fn)]
		if !ok {
			continue
		}
		ps := params(call.Common())
		if idx < len(ps) && stripValue(ps[idx]) == alloc {
			return true
		}
	}
	return false
}

// escapes reports whether the object alloc points to is handed to code
// that may fill it in (json.Unmarshal(data, obj), src.DeepCopyInto(obj),
// a helper, a closure) other than a Kubernetes object write, or stored
// elsewhere: then what it carries is not known here.
func escapes(alloc *ssa.Alloc) bool {
	return escapesFrom(alloc, alloc, 0)
}

// escapesFrom is escapes for v, alloc itself or its conversion to an
// interface (a controller-runtime client.Object).
func escapesFrom(alloc *ssa.Alloc, v ssa.Value, depth int) bool {
	if v.Referrers() == nil || depth > 2 {
		return depth > 2
	}
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.FieldAddr, *ssa.DebugRef:
		case *ssa.UnOp:
			// a load of the whole value: a copy, not an escape
		case *ssa.MakeInterface:
			if escapesFrom(alloc, r, depth+1) {
				return true
			}
		case *ssa.Store:
			if r.Val == v {
				return true
			}
		case ssa.CallInstruction:
			fn := calleeFunc(r.Common())
			if fn == nil {
				return true
			}
			if w, ok := rules.WriteOf(fn); ok && w.Kind == rules.ObjectVersioned {
				continue
			}
			// u.SetName(n), u.GetName(): the object's own accessors, on
			// it as the receiver, fill in nothing from elsewhere.
			if args := r.Common().Args; len(args) > 0 && stripValue(args[0]) == alloc && fn.Type().(*types.Signature).Recv() != nil &&
				(strings.HasPrefix(fn.Name(), "Set") || strings.HasPrefix(fn.Name(), "Get")) {
				continue
			}
			return true
		default:
			return true // a closure's binding, a phi
		}
	}
	return false
}

// isObjectMeta: t is *metav1.ObjectMeta (a FieldAddr of the embedded
// metadata).
func isObjectMeta(t types.Type) bool { return rules.HasTypeKey(t, rules.K8sObjectMetaType) }

// fieldNameOf returns the name of field i of the struct t points to (or
// is).
func fieldNameOf(t types.Type, i int) string {
	st, ok := derefStruct(t)
	if !ok || i >= st.NumFields() {
		return ""
	}
	return st.Field(i).Name()
}

// atomicFieldLoad returns the name of the struct field whose sync/atomic
// value call Loads (w.isLeader.Load() on an atomic.Bool field).
func atomicFieldLoad(call *ssa.Call) (string, bool) {
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Name() != "Load" || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return "", false
	}
	fa, ok := receiver(call.Common()).(*ssa.FieldAddr)
	if !ok {
		return "", false
	}
	return fieldNameOf(fa.X.Type(), fa.Field), true
}

// isLeaseObjectWrite: the write's object (or, for a Patch, its target) is
// a Kubernetes Lease used as a lock: its writes (acquire, renew, release)
// are the lock's own bookkeeping, never protected writes.
func isLeaseObjectWrite(cc *ssa.CallCommon, w *rules.Write) bool {
	if w.Store != rules.K8sStore {
		return false
	}
	for _, p := range params(cc) {
		if rules.HasTypeKey(stripValue(p).Type(), rules.K8sLeaseLock.Type) {
			return true
		}
	}
	res := cc.Signature().Results()
	return res.Len() > 0 && rules.HasTypeKey(res.At(0).Type(), rules.K8sLeaseLock.Type)
}

// k8sLeaseClaim: call writes a Lease (Update or Create) whose holder field
// (Spec.HolderIdentity) this function assigns a value: it takes the lock
// (rules.K8sLeaseLock). The scope opens where its error is nil.
func (e *engine) k8sLeaseClaim(call *ssa.Call, w *rules.Write) (acquireInfo, bool) {
	if !isLeaseObjectWrite(call.Common(), w) {
		return acquireInfo{}, false
	}
	var obj ssa.Value
	for _, p := range params(call.Common()) {
		if rules.HasTypeKey(stripValue(p).Type(), rules.K8sLeaseLock.Type) {
			obj = p
		}
	}
	if obj == nil || !holderAssigned(call.Parent()) {
		return acquireInfo{}, false
	}
	r := &rules.K8sLeaseLock.Acquire
	return acquireInfo{success: r.Success, lock: r.Lock, keyArg: -1, libRule: r,
		source: "library: a Kubernetes Lease whose " + rules.K8sLeaseLock.HolderField + " is set"}, true
}

// holderAssigned: f (or a closure in it) stores a non-nil value into a
// Lease's holder field.
func holderAssigned(f *ssa.Function) bool {
	ll := rules.K8sLeaseLock
	found := false
	var visit func(f *ssa.Function)
	visit = func(f *ssa.Function) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || fieldNameOf(fa.X.Type(), fa.Field) != ll.HolderField || !rules.HasTypeKey(fa.X.Type(), ll.HolderType) {
					continue
				}
				if c, ok := st.Val.(*ssa.Const); ok && c.IsNil() {
					continue // a release clears the holder
				}
				if s, ok := constString(st.Val); ok && s == "" {
					continue
				}
				found = true
				return
			}
		}
		for _, a := range f.AnonFuncs {
			if !found {
				visit(a)
			}
		}
	}
	visit(f)
	return found
}
