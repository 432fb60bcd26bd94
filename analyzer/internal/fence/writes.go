package fence

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// eval is the condition model of one write call.
type eval struct {
	isWrite  bool
	verdict  Verdict
	detail   string
	store    string
	target   string
	fencedBy []int // parameters (of the enclosing function) that fence it
	// byKey: fencedBy fence the write by naming its object (an S3 key, a
	// GCS object or Azure blob name built from them), not by a compare.
	byKey  bool
	helper string
	// unit identifies the transaction or batch the write belongs to, so
	// that a fenced statement can fence the whole unit.
	unit ssa.Value
	// lockingRead: a SELECT ... FOR UPDATE/SHARE on the unit.
	lockingRead bool
	guard       *Guard
	write       *Write

	litArg int // index of the argument holding the condition, -1 if none
	// litCall is the call whose argument litArg holds the condition when
	// that is not the write call (gocql's Session.Query, Batch.Query,
	// ahead of the Exec that runs it); NoPos for the write call.
	litCall      token.Pos
	sql          string
	tokenOffsets []int
	compares     []Compare
	recorded     []string
	// resources are what a helper call writes ("store\ttarget"), from the
	// helper's summary.
	resources []string
	// helperScope: the helper is a scope of its own on the lease or lock
	// passed to it; its writes are judged (and listed) inside it.
	helperScope bool
	// cond is the write's normalised condition; sqlRead and ddbRead the
	// readings fencepredicate's defects come from.
	cond    *Condition
	sqlRead *sqlRead
	ddbRead *ddbRead
	// mongoRead: a MongoDB write's filter and update (mongo.go).
	mongoRead *mongoRead
	// ddbReads: the items of a DynamoDB transaction that is not fenced.
	ddbReads []*ddbRead
	// etcdRead: the token compares of an etcd Txn that is wrongly fenced.
	etcdRead []readCmp
	// createOnly: the write only creates what does not exist yet (a
	// ZooKeeper Create, a plain SQL INSERT): it cannot overwrite a newer
	// holder's data, though it is not fenced either.
	createOnly bool
	// etcd and redis: the write's shape for the store proofs.
	etcd  *EtcdShape
	redis *RedisShape
	// blind: the write carries no condition the store evaluates at all
	// (an unconditional put, an UPDATE without WHERE, version -1).
	blind bool
	// weak: for a WeakToken write with no compares of its own (a
	// //fencelint:write call, a helper), the weak value taken for its
	// token, where weaktoken reports it.
	weak *weakSource
}

// sessionScope is the scope, s or one around it, whose database lock (a
// PostgreSQL advisory lock, a MySQL named lock) the transaction or
// connection session holds; nil when none does.
func (e *engine) sessionScope(s *Scope, session ssa.Value) *Scope {
	if session == nil {
		return nil
	}
	key := sessionKey(session)
	for ; s != nil; s = s.outer {
		if held := e.sessions[s]; held != "" && held == key {
			return s
		}
	}
	return nil
}

// sessionKey names the database session v stands for. A transaction begun
// on a pinned connection runs in that connection's session (a session
// advisory lock taken on conn covers tx := conn.BeginTx(...)); a field of
// the receiver (p.conn) is the same session in every method of the type
// and in the literals they make (recvKeyPrefix); any other value is
// itself.
func sessionKey(v ssa.Value) string {
	for range 4 {
		v = stripValue(v)
		if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
			v = ex.Tuple
		}
		c, ok := v.(*ssa.Call)
		if !ok {
			break
		}
		fn := calleeFunc(c.Common())
		r := receiver(c.Common())
		if fn == nil || r == nil || !strings.HasPrefix(fn.Name(), "Begin") || !rules.IsSessionType(r.Type()) {
			break
		}
		v = r
	}
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if fa, ok := u.X.(*ssa.FieldAddr); ok {
			if p, ok := capturedValue(fa.X).(*ssa.Parameter); ok {
				if f := p.Parent(); f != nil && f.Signature.Recv() != nil && len(f.Params) > 0 && f.Params[0] == p {
					if tn := recvTypeName(f); tn != nil {
						return fmt.Sprintf("%s%s.%d", recvKeyPrefix, tn.Name(), fa.Field)
					}
				}
			}
		}
	}
	return fmt.Sprintf("%p", v)
}

// capturedValue sees through a closure's capture of v: a free variable
// bound to one value, or the cell a captured variable lives in when it is
// stored once (the receiver a method's literal uses).
func capturedValue(v ssa.Value) ssa.Value {
	v = boundValue(stripValue(v))
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if alloc, ok := boundValue(u.X).(*ssa.Alloc); ok {
			if vals := storesTo(alloc); len(vals) == 1 {
				return stripValue(vals[0])
			}
		}
	}
	return v
}

// recvKeyPrefix starts the sessionKey of a receiver's field.
const recvKeyPrefix = "receiver field "

// receiverSession returns the sessionKey of the session holding scope s
// when it is a receiver's field (the same in every method and literal of
// the type, so it may be carried out of the function); "" otherwise.
func (e *engine) receiverSession(s *Scope) string {
	if key := e.sessions[s]; strings.HasPrefix(key, recvKeyPrefix) {
		return key
	}
	return ""
}

// checkWrites gives a verdict to every write inside a scope of f.
func (e *engine) checkWrites(f *ssa.Function) {
	var units []*unitWrite
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			cc, pos := callOf(instr)
			if cc == nil {
				continue
			}
			s := e.scopeOf(f, instr)
			if s == nil {
				e.noteUnscoped(cc, pos)
				continue
			}
			ev := e.evalCall(f, instr, cc, s)
			if ev.store == "SQL" {
				// SQL on the transaction or session that holds the scope's
				// database lock is protected by it, whatever the statement
				// (even one that is not a constant: no blind spot either).
				if held := e.sessionScope(s, e.sessionOf(cc)); held != nil {
					if ev.isWrite {
						e.noteProtected(pos, held, ev)
						continue
					}
					if _, known := e.sqlTextOf(cc); !known {
						continue
					}
				}
			}
			e.noteBlind(instr, cc, pos, s, ev)
			if ev.unit != nil {
				units = append(units, &unitWrite{ev: ev, instr: instr})
			}
			e.noteCall(instr, cc, ev, true)
			if !ev.isWrite {
				continue
			}
			if ev.verdict == Unfenced || ev.verdict == RecordedOnly {
				if g := e.guardOf(f, instr, s); g != nil {
					ev.verdict = AppChecked
					ev.guard = g
				}
			}
			w := &Write{
				Resources: ev.resources, HelperScope: ev.helperScope,
				Pos: pos, End: pos, Call: e.callName(pos), Store: ev.store, Target: ev.target,
				Scope: s, Verdict: ev.verdict, Detail: ev.detail, Guard: ev.guard, Helper: ev.helper,
				SQL: ev.sql, TokenOffsets: ev.tokenOffsets, Compares: ev.compares, Recorded: ev.recorded,
				Etcd: ev.etcd, Redis: ev.redis,
			}
			if ev.cond == nil {
				ev.cond = &Condition{}
			}
			ev.cond.Blind, ev.cond.CreateOnly = ev.blind, ev.createOnly
			ev.cond.Unit = ev.cond.Unit || ev.unit != nil
			w.Cond = ev.cond
			if c := e.callExpr(pos); c != nil {
				w.Pos, w.End = c.Pos(), c.End()
				lc := c // the call holding the condition's text
				if ev.litCall.IsValid() {
					lc = e.callExpr(ev.litCall)
				}
				if lc != nil && ev.litArg >= 0 && ev.litArg < len(lc.Args) {
					w.Literal, w.LiteralEnd = lc.Args[ev.litArg].Pos(), lc.Args[ev.litArg].End()
				}
				if lc != nil && lc != c {
					// s.Query(`UPDATE ...`, a, b).Exec names itself
					// s.Query(...).Exec: the statement is reported apart.
					w.Call = strings.Replace(w.Call, types.ExprString(lc), types.ExprString(lc.Fun)+"(...)", 1)
				}
				if w.Cond != nil && lc != nil {
					e.placeCond(w, ev, lc)
				}
			}
			if w.Target == "" && fenceMap {
				w.KeyPattern = e.keyPattern(cc)
			}
			if mn := e.mirrorName(calleeFunc(cc)); mn != "" {
				w.Call += " (" + mn + ")" // the interface and the store it mirrors (mirror.go)
			}
			e.condWrites = append(e.condWrites, condWrite{w: w, f: f, ev: ev})
			ev.write = w
			e.writeInstr[w] = instr
			if ev.weak != nil && ev.verdict == WeakToken {
				if e.writeWeak == nil {
					e.writeWeak = map[*Write]*weakSource{}
				}
				e.writeWeak[w] = ev.weak
			}
			e.model.Writes = append(e.model.Writes, w)
			e.sites[w] = writeSite{instr: instr, fn: f}
		}
	}
	e.applyUnits(f, units)
}

type unitWrite struct {
	ev    *eval
	instr ssa.Instruction
}

// applyUnits: a transaction or batch is one unit. It is fenced when one of
// its statements is fenced, or when it took a row lock (SELECT ... FOR
// UPDATE/SHARE) and the function compares the token in Go before commit:
// the row lock serialises holders, so the comparison cannot go stale.
func (e *engine) applyUnits(f *ssa.Function, units []*unitWrite) {
	fenced := map[ssa.Value]bool{}
	locked := map[ssa.Value]bool{}
	for _, u := range units {
		if u.ev.isWrite && (u.ev.verdict == Fenced || u.ev.verdict == WrongPredicate || u.ev.verdict == WeakToken) {
			fenced[u.ev.unit] = true
		}
		if u.ev.lockingRead {
			locked[u.ev.unit] = true
		}
	}
	if len(fenced) == 0 && len(locked) == 0 {
		return
	}
	goCompare := len(locked) > 0 && e.comparesTokenInGo(f)
	for _, u := range units {
		if u.ev.write == nil {
			continue
		}
		switch u.ev.write.Verdict {
		case Unfenced, RecordedOnly, AppChecked:
			if fenced[u.ev.unit] || (locked[u.ev.unit] && goCompare) {
				u.ev.write.Verdict = Fenced
				u.ev.write.Guard = nil // the unit fences it: no app check
			}
		}
	}
}

// comparesTokenInGo reports whether f (or a closure in it) compares a
// token-derived value in Go.
func (e *engine) comparesTokenInGo(f *ssa.Function) bool {
	found := false
	var visit func(fn *ssa.Function)
	visit = func(fn *ssa.Function) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if bo, ok := instr.(*ssa.BinOp); ok && isCompare(bo.Op) {
					if e.originOf(bo.X).isToken() || e.originOf(bo.Y).isToken() {
						found = true
						return
					}
				}
			}
		}
		for _, a := range fn.AnonFuncs {
			visit(a)
		}
	}
	visit(f)
	return found
}

func isCompare(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// callOf returns the call of a Call, Go or Defer instruction.
func callOf(instr ssa.Instruction) (*ssa.CallCommon, token.Pos) {
	// CallCommon.Pos is the call's Lparen; Go and Defer's own Pos is the
	// keyword.
	switch c := instr.(type) {
	case *ssa.Call:
		return c.Common(), c.Common().Pos()
	case *ssa.Go:
		return c.Common(), c.Common().Pos()
	case *ssa.Defer:
		return c.Common(), c.Common().Pos()
	}
	return nil, token.NoPos
}

// evalCall models the write condition of one call, if it is a write.
func (e *engine) evalCall(f *ssa.Function, instr ssa.Instruction, cc *ssa.CallCommon, s *Scope) *eval {
	fn := e.callee(cc)
	if fn == nil {
		return e.evalClosureCall(cc, s) // save() of a closure defined before the lock (flowscopes.go)
	}
	if rules.IsRelease(fn) || rules.IsRenew(fn) {
		if _, isWrite := e.writeOf(fn); !isWrite {
			return &eval{} // the lock library's own bookkeeping
		}
	}
	if _, ok := rules.AcquireOf(fn); ok {
		return &eval{}
	}
	if rules.IsReleaseFuncName(fn.Name()) && e.isReleaseCall(cc) {
		// The application's own release (p.Unlock() releasing through a
		// runner or a wrapper): what it writes is the lock's bookkeeping
		// (golang-migrate's releaseTableLock deletes the lock row).
		return &eval{}
	}
	if w, ok := e.writeOf(fn); ok {
		// A Kubernetes Lease's writes are its lock's own (k8s.go); a key
		// that carries a digest of its value is no protected write.
		if e.isBookkeeping(f, instr, cc, w) || isLeaseObjectWrite(cc, w) || e.contentAddressed(cc, w) {
			return &eval{}
		}
		ev := e.evalRule(cc, w)
		ev.store = w.Store
		lit := ev.litArg // a reader whose condition is in another call (litCall) sets it
		ev.litArg = -1
		switch w.Kind {
		case rules.SQLWrite:
			ev.litArg = w.QueryArg
		case rules.DynamoWrite, rules.DynamoTransact, rules.S3Write, rules.MongoWrite:
			ev.litArg = w.InputArg
		case rules.CQLQuery, rules.CQLBatch:
			if ev.litCall.IsValid() {
				ev.litArg = lit
			}
		}
		if ev.isWrite && w.Kind == rules.KVBlind && w.Store == "etcd" {
			if i := e.lockLeaseOption(f, s, cc); i >= 0 {
				if ev.etcd != nil && i < len(ev.etcd.Options) {
					ev.etcd.Options[i].LockLease = true
				}
				// Put(k, v, WithLease(s.Lease())) with s the lock's
				// session: etcd refuses it once that lease is gone, as it
				// deletes the lock's key (the etcd proof checks it).
				if ev.verdict == Unfenced {
					ev.verdict, ev.detail = Fenced, ""
				}
			}
		}
		if ev.isWrite && ev.verdict == Unfenced && s != nil && s.NoToken {
			ev.detail = joinDetail(ev.detail, s.NoTokenClause())
		}
		return ev
	}
	return e.evalHelper(f, cc, fn, s)
}

// lockLeaseOption returns the index among an etcd Put's or Delete's
// OpOptions of clientv3.WithLease(sess.Lease()) where sess is the session
// of the Mutex or Election whose acquire opened scope s in f, or -1.
func (e *engine) lockLeaseOption(f *ssa.Function, s *Scope, cc *ssa.CallCommon) int {
	if s == nil || s.Kind != ScopeAcquire {
		return -1
	}
	var sess ssa.Value
	for _, r := range e.regions[f] {
		if r.scope != s || r.call == nil {
			continue
		}
		lock, ok := stripValue(receiver(r.call.Common())).(*ssa.Call)
		if !ok {
			return -1
		}
		switch concurrencyCall(lock) {
		case "NewMutex", "NewElection":
			if args := lock.Common().Args; len(args) > 0 {
				sess = stripValue(args[0])
			}
		}
	}
	if sess == nil {
		return -1
	}
	ps := params(cc)
	if len(ps) == 0 {
		return -1
	}
	opts, ok := unpackVariadic(ps[len(ps)-1])
	if !ok {
		return -1
	}
	for i, o := range opts {
		call, ok := stripValue(o).(*ssa.Call)
		if !ok {
			continue
		}
		fn := calleeFunc(call.Common())
		if fn == nil || fn.Name() != "WithLease" || fn.Pkg() == nil || rules.LibPath(fn.Pkg().Path()) != rules.EtcdClientPkg || len(call.Common().Args) != 1 {
			continue
		}
		lease, ok := stripValue(call.Common().Args[0]).(*ssa.Call)
		if ok && concurrencyCall(lease) == "Lease" && stripValue(receiver(lease.Common())) == sess {
			return i
		}
	}
	return -1
}

// isBookkeeping: writes to the lock's own key (release, renew) and calls
// inside the lock library are not protected writes.
func (e *engine) isBookkeeping(f *ssa.Function, instr ssa.Instruction, cc *ssa.CallCommon, w *rules.Write) bool {
	// A closure made inside a region runs in it (propagateClosures): the
	// enclosing functions' lock keys are its own (the release func an
	// acquire helper returns deletes the key the helper set).
	regions := e.regions[f]
	if f.Parent() != nil {
		regions = slices.Clone(regions)
		for g := f.Parent(); g != nil; g = g.Parent() {
			regions = append(regions, e.regions[g]...)
		}
	}
	for _, r := range regions {
		if r.key != nil && e.sameKey(r, cc) {
			return true // also a compare-and-delete or compare-and-expire script on the key (kvKeys)
		}
		if r.storeKey != nil {
			probe := &region{key: r.storeKey}
			probe.keyConst, _ = constString(r.storeKey)
			if e.sameKey(probe, cc) {
				return true
			}
		}
	}
	// A deferred Del of a SET NX key released outside any region (the
	// region opened in this function and the key matches) is covered
	// above; a key-value lock acquired in a caller cannot be told apart,
	// so its release is treated as a write only when the key differs.
	return false
}

// evalRule reads a library write's condition with the reader of its
// declared mechanism (rules.WriteKind).
func (e *engine) evalRule(cc *ssa.CallCommon, w *rules.Write) *eval {
	if read, ok := writeReaders[w.Kind]; ok {
		return read(e, cc, w)
	}
	return &eval{}
}

// writeReaders is the engine's one reader per rules.WriteKind: where the
// write's condition lives and how it is read. The contract test
// (outcome_contract_test.go) requires one for every rules.WriteKinds. It
// is filled in init: the readers reach evalRule again (helpers' summaries).
var writeReaders map[rules.WriteKind]func(*engine, *ssa.CallCommon, *rules.Write) *eval

func init() {
	writeReaders = map[rules.WriteKind]func(*engine, *ssa.CallCommon, *rules.Write) *eval{
		rules.SQLWrite:        (*engine).evalSQL,
		rules.SQLStmtWrite:    (*engine).evalSQL,
		rules.DynamoWrite:     (*engine).evalDynamo,
		rules.DynamoTransact:  (*engine).evalDynamoTransact,
		rules.S3Write:         (*engine).evalS3,
		rules.KVBlind:         (*engine).evalBlind,
		rules.EtcdTxnCommit:   func(e *engine, cc *ssa.CallCommon, _ *rules.Write) *eval { return e.evalEtcdTxn(cc) },
		rules.RedisScript:     (*engine).evalRedisScript,
		rules.ZKVersioned:     (*engine).evalVersioned,
		rules.ZKMulti:         (*engine).evalCheckedBatch,
		rules.Conditional:     func(*engine, *ssa.CallCommon, *rules.Write) *eval { return &eval{isWrite: true, verdict: Fenced} },
		rules.ConsulTxn:       (*engine).evalConsulTxn,
		rules.GormChain:       (*engine).evalGorm,
		rules.GormSave:        (*engine).evalGorm,
		rules.GormCreate:      (*engine).evalGorm,
		rules.GCSWrite:        func(e *engine, cc *ssa.CallCommon, _ *rules.Write) *eval { return e.evalGCS(cc) },
		rules.AzureWrite:      (*engine).evalAzure,
		rules.RedigoDo:        (*engine).evalRedigoDo,
		rules.RedigoScript:    (*engine).evalRedigoScript,
		rules.CQLQuery:        (*engine).evalCQLQuery,
		rules.CQLBatch:        (*engine).evalCQLBatch,
		rules.MongoWrite:      (*engine).evalMongo,
		rules.MongoBulk:       (*engine).evalMongoBulk,
		rules.ObjectVersioned: (*engine).evalObjectVersion,
	}
}

// evalVersioned: a write whose version argument (VersionArg) makes it a
// compare-and-set unless it is the constant -1 (ZooKeeper Set, Delete).
func (e *engine) evalVersioned(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	ev := &eval{isWrite: true, target: keyTarget(ps, w.KeyArg)}
	if w.VersionArg < len(ps) {
		if v, ok := constInt(ps[w.VersionArg]); ok && v == -1 {
			ev.verdict = Unfenced
			ev.detail = "version -1 makes it unconditional"
			ev.blind = true
			return ev
		}
	}
	ev.verdict = Fenced // a compare-and-set on the version
	return ev
}

// evalCheckedBatch: a batch (ZooKeeper Multi) is fenced when one of its
// operations is of the CheckType that makes it a compare-and-set.
func (e *engine) evalCheckedBatch(cc *ssa.CallCommon, w *rules.Write) *eval {
	ev := &eval{isWrite: true}
	ps := params(cc)
	if len(ps) > 0 {
		if ops, ok := unpackVariadic(ps[len(ps)-1]); ok {
			for _, op := range ops {
				if op != nil && rules.HasTypeKey(op.Type(), w.CheckType) {
					ev.verdict = Fenced
					return ev
				}
			}
			ev.verdict = Unfenced
			ev.detail = "it carries no " + shortTypeName(w.CheckType) + " on the lock node"
			ev.blind = true
			return ev
		}
	}
	ev.verdict = Unknown
	return ev
}

// shortTypeName is the type name of a "pkgpath.Type" key.
func shortTypeName(key string) string { return key[strings.LastIndexByte(key, '.')+1:] }

// evalConsulTxn: a consul transaction is fenced when one of its operations
// has the store check the session or an index; a transaction of plain sets
// and deletes is blind. Operations built elsewhere: unknown. KV.Txn takes
// KVTxnOps; Txn.Txn takes TxnOps, each wrapping one KV, Node, Service or
// Check operation with its own Verb.
func (e *engine) evalConsulTxn(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	ev := &eval{isWrite: true, verdict: Unknown}
	if w.InputArg >= len(ps) {
		return ev
	}
	ops, ok := sliceElems(ps[w.InputArg])
	if !ok || len(ops) == 0 {
		return ev
	}
	for _, op := range ops {
		fs, ok := fieldStores(op)
		if !ok {
			return ev
		}
		if _, direct := fs["Verb"]; !direct {
			inner := false
			for _, kind := range []string{"KV", "Node", "Service", "Check"} {
				if v, ok := fs[kind]; ok {
					if fs, ok = fieldStores(v); !ok {
						return ev
					}
					inner = true
					break
				}
			}
			if !inner {
				return ev
			}
		}
		verb, ok := constString(fs["Verb"])
		if !ok {
			return ev
		}
		if rules.ConsulCheckVerbs[verb] {
			ev.verdict = Fenced
			return ev
		}
	}
	ev.verdict = Unfenced
	ev.detail = "no operation of the transaction checks the lock's session or an index"
	ev.blind = true
	return ev
}

func joinDetail(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func keyTarget(ps []ssa.Value, i int) string {
	if i < 0 || i >= len(ps) {
		return ""
	}
	if s, ok := constString(ps[i]); ok {
		return s
	}
	return ""
}

func (e *engine) evalBlind(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	ev := &eval{isWrite: true, verdict: Unfenced, target: keyTarget(ps, w.KeyArg)}
	if w.RecipeFlag != 0 && w.RecipeFlagArg >= 0 && w.RecipeFlagArg < len(ps) {
		// ZooKeeper's Create with FlagSequence is the lock recipe's own node.
		if flags, ok := constInt(ps[w.RecipeFlagArg]); ok && flags&w.RecipeFlag != 0 {
			return &eval{}
		}
	}
	if w.CreateOnly {
		name := "create"
		if fn := calleeFunc(cc); fn != nil {
			name = fn.Name()
		}
		ev.detail = "a plain " + name + " is not conditioned on the lock"
		ev.createOnly = true
		return ev
	}
	ev.detail = "it is unconditional"
	if fn := calleeFunc(cc); fn != nil {
		switch w.Store {
		case "etcd":
			ev.etcd = &EtcdShape{Method: fn.Name()}
			if w.KeyArg >= 0 && w.KeyArg < len(ps) {
				ev.etcd.Key = e.argOf(ps[w.KeyArg])
			}
			// The OpOptions: the last, variadic, parameter.
			if sig, ok := fn.Type().(*types.Signature); ok && sig.Variadic() && len(ps) == sig.Params().Len() {
				ev.etcd.Options, ok = e.etcdOptionsOf(ps[len(ps)-1])
				ev.etcd.OptionsUnread = !ok
			}
		case "Redis":
			// The shape is go-redis's (ctx first), which the Redis proof
			// replays; another client's commands (go-zero's) have none.
			if rules.IsRedisCommand(fn) {
				ev.redis = e.redisCommandShape(fn.Name(), cc)
			}
		}
	}
	ev.blind = true
	return ev
}

// redisCommandShape reads a plain go-redis command's arguments after ctx.
func (e *engine) redisCommandShape(name string, cc *ssa.CallCommon) *RedisShape {
	sh := &RedisShape{Command: name, Variadic: -1}
	ps := params(cc)
	if len(ps) == 0 {
		return sh
	}
	variadic := false
	if fn, ok := cc.Value.(*ssa.Function); ok && !cc.IsInvoke() {
		variadic = fn.Signature.Variadic()
	} else if cc.IsInvoke() {
		variadic = cc.Signature().Variadic()
	}
	for i, p := range ps[1:] {
		if variadic && i == len(ps)-2 {
			args, ok := e.argsOf(p)
			if !ok {
				sh.ArgsUnread = true
				break
			}
			sh.Variadic = len(sh.Args)
			sh.Args = append(sh.Args, args...)
			break
		}
		sh.Args = append(sh.Args, e.argOf(p))
	}
	return sh
}

// evalEtcdTxn: Txn(ctx).If(cmps...).Then(ops...).Commit() is fenced when
// an If compare involves the token (IsOwner(), Compare(CreateRevision(k),
// "=", rev)) or the lock's own key (Compare(Value(e.Key()), "=", v): etcd
// deletes that key with the lease); any If makes it conditional, which
// etcd itself evaluates. The builder is mutable, so an If made in a
// statement of its own (txn := c.Txn(ctx); txn.If(cmps...);
// txn.Then(ops...).Commit()) counts like a chained one.
func (e *engine) evalEtcdTxn(cc *ssa.CallCommon) *eval {
	ev := &eval{isWrite: true}
	v := receiver(cc)
	var cmps []ssa.Value
	ifUnread := false
	addIf := func(ifc *ssa.CallCommon) {
		if ps := params(ifc); len(ps) == 1 {
			if vals, ok := unpackVariadic(ps[0]); ok {
				cmps = append(cmps, vals...)
			} else {
				cmps = append(cmps, ps[0])
				ifUnread = true
			}
		}
	}
	sh := &EtcdShape{Method: "Commit"}
	addThen := func(thc *ssa.CallCommon) {
		ops, unread := e.txnOps(thc)
		sh.Then = append(sh.Then, ops...)
		sh.ThenUnread = sh.ThenUnread || unread
	}
	ifs, thens, elses, sawTxn := txnBuilderCalls(v)
	for _, ifc := range ifs {
		addIf(ifc)
	}
	for _, thc := range thens {
		addThen(thc)
	}
	if !sawTxn {
		ev.verdict = Unknown
		return ev
	}
	if len(cmps) > 0 {
		// Else runs exactly when the If fails: a Put or Delete there is
		// the write of a holder that is no longer the owner.
		for _, ec := range elses {
			ops, _ := e.txnOps(ec)
			for _, op := range ops {
				if op.Verb == "Put" || op.Verb == "Delete" {
					ev.etcd = sh
					ev.verdict = Unfenced
					ev.detail = fmt.Sprintf("its %s runs in the Txn's Else, which applies when the If compare fails: the write happens exactly when the holder is no longer the owner; move it to Then", op.Verb)
					return ev
				}
			}
		}
	}
	for _, c := range cmps {
		cmp := e.etcdCmpOf(c)
		if cmp.Unread {
			sh.IfUnread = true
		}
		sh.If = append(sh.If, cmp)
	}
	if ifUnread {
		sh.IfUnread = true
	}
	ev.etcd = sh
	if len(cmps) == 0 {
		ev.verdict = Unfenced
		ev.detail = "the Txn has no If compare; use If(m.IsOwner()) or compare the token"
		ev.blind = true
		return ev
	}
	for _, c := range cmps {
		if e.comparesLockKey(c) {
			ev.verdict = Fenced // fails once the lock's own key is gone
			return ev
		}
	}
	// Compare(target, op, token) read whole: the direction decides, as in
	// SQL; a compare not read that way falls to the tracing below. An
	// order compare on a key the Txn never writes does not fence (the
	// etcd proof: the stale holder lands), whatever its direction.
	unrecorded := ""
	var read []readCmp
	wrong := false
	for i, c := range cmps {
		rc, ok := e.readEtcdCmp(c)
		if !ok || !rc.o.isToken() || rc.o.weak {
			continue
		}
		read = append(read, rc)
		if rc.decimal && orderOp(rc.pub.Op) {
			wrong = true // "9" > "10": the bytes of a decimal string do not order the numbers
			continue
		}
		if validDirection(rc.pub.Op) {
			if i < len(sh.If) && !sh.ThenUnread && !recordsFence(sh, sh.If[i]) {
				unrecorded = fmt.Sprintf("the Txn compares the token with %s(%q) but never writes that key, so the fence never moves", sh.If[i].Target, sh.If[i].Key.Const)
				continue
			}
			ev.verdict = Fenced
			return ev
		}
		wrong = true
	}
	if wrong {
		for _, c := range cmps {
			if _, ok := e.readEtcdCmp(c); !ok && e.originOf(c).isToken() {
				ev.verdict = Fenced // another compare (m.IsOwner()) fences it
				return ev
			}
		}
		ev.verdict = WrongPredicate
		ev.etcdRead = read
		ev.cond = &Condition{Compares: publicCompares(read)}
		if len(read) > 0 {
			ev.cond.Pos, ev.cond.End = read[0].pub.Pos, read[0].pub.End
		}
		return ev
	}
	for i, c := range cmps {
		if o := e.originOf(c); o != nil {
			if o.param >= 0 {
				ev.fencedBy = append(ev.fencedBy, o.param)
				continue
			}
			if o.weak {
				ev.verdict = WeakToken
				return ev
			}
			if i < len(sh.If) && !sh.ThenUnread && !recordsFence(sh, sh.If[i]) {
				unrecorded = fmt.Sprintf("the Txn compares the token with %s(%q) but never writes that key, so the fence never moves", sh.If[i].Target, sh.If[i].Key.Const)
				continue
			}
			ev.verdict = Fenced
			return ev
		}
	}
	if unrecorded != "" && len(ev.fencedBy) == 0 {
		// Compare(ModRevision("/fence"), "<", rev) with no Put to
		// "/fence": the stale holder's revision is below the fence
		// key's as the current one's is (the etcd proof showed it lands).
		ev.verdict = Unfenced
		ev.detail = unrecorded
		return ev
	}
	if len(ev.fencedBy) > 0 {
		ev.verdict = Unfenced
		ev.detail = "the Txn's If compares no fencing token"
		return ev
	}
	if onlyConstants(cmps) {
		// Compare(Value("/config/enabled"), "=", "on"): a key of its own
		// compared with a fixed value holds for a stale holder as for the
		// current one (the etcd proof showed it lands).
		ev.verdict = Unfenced
		ev.detail = "the Txn's If compares only fixed values, not the lock's key or a fencing token"
		return ev
	}
	ev.verdict = Fenced // conditional on a revision the store checks
	return ev
}

// recordsFence reports whether cmp needs no recording, or the Txn's Then
// records it: an order compare ("stored < token") on a constant key other
// than the lock's is a fence only if the Txn puts that key, moving its
// revision past the token for the next holder. Equality (a CAS on a
// revision read or stamped at acquire) and compares on the lock's key
// need nothing.
func recordsFence(sh *EtcdShape, cmp EtcdCmp) bool {
	if cmp.IsOwner || cmp.Key.LockKey || cmp.Key.Kind != "string" || cmp.Op != "<" {
		return true
	}
	for _, op := range sh.Then {
		if op.Verb == "Put" && op.Key.Kind == "string" && op.Key.Const == cmp.Key.Const {
			return true
		}
	}
	return false
}

// onlyConstants: every compare is clientv3.Compare(Target(k), op, c)
// with k a constant key and c a constant: fixed state, not tied to the
// lock (a compare on the lock's own key, e.Key() or m.Key(), has no
// constant key).
func onlyConstants(cmps []ssa.Value) bool {
	for _, c := range cmps {
		call, ok := stripValue(c).(*ssa.Call)
		if !ok {
			return false
		}
		fn := calleeFunc(call.Common())
		args := call.Common().Args
		if fn == nil || fn.Name() != "Compare" || fn.Pkg() == nil || rules.LibPath(fn.Pkg().Path()) != rules.EtcdClientPkg || len(args) != 3 {
			return false
		}
		if _, ok := stripValue(args[2]).(*ssa.Const); !ok {
			return false
		}
		target, ok := stripValue(args[0]).(*ssa.Call)
		if !ok || len(target.Common().Args) != 1 {
			return false
		}
		if _, ok := constString(target.Common().Args[0]); !ok {
			return false
		}
	}
	return len(cmps) > 0
}

// txnOps reads the ops of a Txn's Then or Else call; unread is set when
// its arguments come from elsewhere or an op is not read.
func (e *engine) txnOps(c *ssa.CallCommon) (ops []EtcdOp, unread bool) {
	ps := params(c)
	if len(ps) != 1 {
		return nil, false
	}
	vals, ok := unpackVariadic(ps[0])
	if !ok {
		return nil, true
	}
	for _, v := range vals {
		op := e.etcdOpOf(v)
		unread = unread || op.Verb == ""
		ops = append(ops, op)
	}
	return ops, unread
}

// txnCalls returns the calls of method name (If, Then) made with txn as
// their receiver.
// txnBuilderCalls follows an etcd Txn builder back from v (Commit's
// receiver) to Txn(ctx) and returns its If and Then calls, chained or made
// in statements of their own (txn.If(cmps...) on a builder kept in a
// variable), each once, nearest to Commit first. sawTxn is false when the
// chain does not lead back to Txn.
func txnBuilderCalls(v ssa.Value) (ifs, thens, elses []*ssa.CallCommon, sawTxn bool) {
	seen := map[*ssa.Call]bool{}
	add := func(c *ssa.Call, name string) {
		if seen[c] {
			return
		}
		seen[c] = true
		switch name {
		case "If":
			ifs = append(ifs, c.Common())
		case "Then":
			thens = append(thens, c.Common())
		case "Else":
			elses = append(elses, c.Common())
		}
	}
	for i := 0; i < 16 && v != nil; i++ {
		call, ok := stripValue(v).(*ssa.Call)
		if !ok {
			break
		}
		fn := calleeFunc(call.Common())
		if fn == nil {
			break
		}
		if fn.Name() == "If" || fn.Name() == "Then" || fn.Name() == "Else" {
			add(call, fn.Name())
		}
		// Calls made on the builder in statements of their own, and on
		// their results: txn.If(cmp).Then(put).Else(get) as a statement,
		// then txn.Commit().
		forward := []*ssa.Call{call}
		for j := 0; j < len(forward) && j < 16; j++ {
			for _, name := range []string{"If", "Then", "Else"} {
				for _, c := range txnCalls(forward[j], name) {
					add(c, name)
					forward = append(forward, c)
				}
			}
		}
		if fn.Name() == "Txn" {
			return ifs, thens, elses, true
		}
		v = receiver(call.Common())
	}
	return ifs, thens, elses, false
}

func txnCalls(txn *ssa.Call, name string) []*ssa.Call {
	var out []*ssa.Call
	refs := txn.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		c, ok := r.(*ssa.Call)
		if !ok || stripValue(receiver(c.Common())) != ssa.Value(txn) {
			continue
		}
		if fn := calleeFunc(c.Common()); fn != nil && fn.Name() == name {
			out = append(out, c)
		}
	}
	return out
}

// comparesLockKey: clientv3.Compare(Value(k), ...) or Compare(
// CreateRevision|ModRevision|Version|LeaseValue(k), "=", x != 0) where k is
// the key of an etcd election or mutex (e.Key(), m.Key()). That key lives
// only as long as the holder's lease, so etcd fails the compare once the
// lock or leadership is lost.
func (e *engine) comparesLockKey(c ssa.Value) bool {
	call, ok := stripValue(c).(*ssa.Call)
	if !ok {
		return false
	}
	fn := calleeFunc(call.Common())
	if !isEtcdFunc(fn, "Compare") {
		return false
	}
	args := call.Common().Args
	if len(args) == 0 {
		return false
	}
	target, ok := stripValue(args[0]).(*ssa.Call)
	if !ok {
		return false
	}
	tfn := calleeFunc(target.Common())
	if tfn == nil || tfn.Pkg() == nil || rules.LibPath(tfn.Pkg().Path()) != rules.EtcdClientPkg {
		return false
	}
	switch tfn.Name() {
	case "Value":
		// etcd fails a value compare on a missing key, whatever the operator.
	case "CreateRevision", "ModRevision", "Version", "LeaseValue":
		// A missing key compares as zero: the compare fails without the
		// key when "0 op x" is false. For "= x" with x not a constant zero
		// (e.Rev(), a revision) that holds; for a constant x it is
		// decided (Version(k) > 0 fails, CreateRevision(k) = 0 asks for
		// no key).
		if len(args) < 3 {
			return false
		}
		op, ok := constString(args[1])
		if !ok {
			return false
		}
		if x, isConst := constInt(args[2]); isConst {
			if !failsWithoutKey(op, x) {
				return false
			}
		} else if op != "=" {
			return false
		}
	default:
		return false
	}
	targs := target.Common().Args
	if len(targs) == 0 {
		return false
	}
	// e.Key(), m.Key(), or m.leaderKey set from e.Key() after the Campaign.
	return e.isEtcdLockKey(targs[0])
}

// failsWithoutKey reports whether etcd's compare "0 op x" is false: a
// revision, version or lease compare with x that a missing key fails.
func failsWithoutKey(op string, x int64) bool {
	switch op {
	case "=":
		return x != 0
	case "!=":
		return x == 0
	case ">":
		return x >= 0
	case "<":
		return x <= 0
	}
	return false
}

// isLockKeyCall: e.Key() or m.Key() of an etcd election or mutex.
func isLockKeyCall(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	fn := calleeFunc(call.Common())
	return fn != nil && fn.Name() == "Key" && fn.Pkg() != nil && rules.LibPath(fn.Pkg().Path()) == rules.EtcdConcurrencyPkg
}

// isLockKeyField reports whether every store to the field of fa in this
// package stores an etcd election or mutex key (s.leaderKey = e.Key()).
// Only functions with SSA are seen; a store in a body the per-function
// filter skipped can only make a write look fenced (a missed report),
// never unfenced.
func (e *engine) isLockKeyField(fa *ssa.FieldAddr) bool {
	st, ok := derefStruct(fa.X.Type())
	if !ok || fa.Field >= st.NumFields() {
		return false
	}
	field := st.Field(fa.Field)
	if v, ok := e.lockKeyFields[field]; ok {
		return v
	}
	stores := 0
	all := true
	for _, f := range e.funcs {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				s, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				sfa, ok := s.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				if sst, ok := derefStruct(sfa.X.Type()); !ok || sfa.Field >= sst.NumFields() || sst.Field(sfa.Field) != field {
					continue
				}
				stores++
				if !isLockKeyCall(stripValue(s.Val)) {
					all = false
				}
			}
		}
	}
	v := stores > 0 && all
	if e.lockKeyFields == nil {
		e.lockKeyFields = map[*types.Var]bool{}
	}
	e.lockKeyFields[field] = v
	return v
}

// evalHelper: calls of functions that write (directives, facts, local
// summaries).
func (e *engine) evalHelper(f *ssa.Function, cc *ssa.CallCommon, fn *types.Func, s *Scope) *eval {
	if ev := e.evalForwarded(cc, fn); ev != nil {
		if ev.verdict == Unfenced && s != nil && s.NoToken {
			ev.detail = joinDetail(ev.detail, s.NoTokenClause())
		}
		return ev // a helper running the caller's statement (forward.go)
	}
	ff := e.calleeFact(fn)
	if ff == nil {
		if callee, ok := cc.Value.(*ssa.Function); ok && !cc.IsInvoke() {
			if o := callee.Origin(); o != nil {
				callee = o // an instance ((*Repo[int]).Touch): its generic body's summary
			}
			if callee.Pkg == e.pkg {
				ff = e.summary(callee)
			}
		}
	}
	return e.evalHelperFact(cc, ff, fn.Name(), s)
}

// evalHelperFact judges a call of a helper named name whose summary or
// fact is ff.
func (e *engine) evalHelperFact(cc *ssa.CallCommon, ff *FuncFact, name string, s *Scope) *eval {
	if ff == nil || !ff.Write {
		return &eval{}
	}
	ev := &eval{isWrite: true, helper: name, store: "storage", resources: ff.Resources}
	ps := params(cc)
	if len(ff.FencedBy) > 0 {
		for _, i := range ff.FencedBy {
			if i >= len(ps) {
				continue
			}
			if _, ok := e.leaseOf(ps[i].Type()); ok {
				ev.verdict = Fenced // the helper is itself a scope on that lease
				ev.helperScope = true
				return ev
			}
			if rules.IsLockType(ps[i].Type()) {
				ev.verdict = Fenced
				ev.helperScope = true
				return ev
			}
			if cmps, ok := unpackVariadic(stripValue(ps[i])); ok {
				for _, c := range cmps {
					if c != nil && e.comparesLockKey(c) {
						ev.verdict = Fenced // []clientv3.Cmp{Compare(Value(e.Key()), ...)} for the helper's If
						return ev
					}
				}
			}
			o := e.originOf(ps[i])
			switch {
			case o.isToken() && slices.Contains(ff.KeyFencedBy, i) && uniqueName(o, ps[i]):
				// writeActions(tempPathWithUUID, ...): a key or path made
				// unique names an object no other holder writes.
				ev.verdict = Fenced
				return ev
			case o.isToken() && o.weak:
				// The marked token parameter gets a clock or a random
				// value: weaktoken's finding, at that value.
				ev.verdict = WeakToken
				ev.weak = e.weakSourceOf(o)
				return ev
			case o.isToken():
				ev.verdict = Fenced
				return ev
			case o != nil:
				ev.fencedBy = append(ev.fencedBy, o.param)
				ev.byKey = slices.Contains(ff.KeyFencedBy, i) && (len(ev.fencedBy) == 1 || ev.byKey)
			}
		}
		if len(ev.fencedBy) > 0 && ff.Unfenced == "" && (s == nil || !s.NoToken) {
			ev.verdict = Unfenced
			ev.detail = fmt.Sprintf("the token does not reach %s's fence parameter", name)
			return ev
		}
		if ff.Unfenced == "" {
			ev.verdict = Unfenced
			ev.detail = fmt.Sprintf("no fencing token reaches %s's fence parameter", name)
			if s != nil && s.NoToken {
				ev.detail += "; " + s.NoTokenClause()
			}
			return ev
		}
	}
	if ff.Directive {
		// //fencelint:write without token=: the write is fenced when any
		// argument carries a token. A wall-clock reading or a random value
		// is never taken for the token (issue 18): an integer argument made
		// of one is weaktoken's finding, whichever argument comes first; a
		// string or a body made of one (a UUID key, a timestamp in the
		// payload) is data, and the write is unfenced.
		var weak *origin
		sig := cc.Signature()
		for i, a := range ps {
			o := e.originOf(a)
			switch {
			case o == nil:
			case o.param >= 0:
				if ff.port != "" && (i >= sig.Params().Len() || !rules.IsTokenishParamName(sig.Params().At(i).Name())) {
					continue // a port's id or amount is no fence parameter of the caller
				}
				ev.fencedBy = append(ev.fencedBy, o.param)
			case o.weak:
				if weak == nil && rules.IsIntegerLike(stripValue(a).Type()) {
					weak = o
				}
			default:
				ev.verdict = Fenced
				return ev
			}
		}
		if weak != nil {
			ev.verdict = WeakToken
			ev.weak = e.weakSourceOf(weak)
			return ev
		}
		ev.verdict = Unfenced
		ev.detail = fmt.Sprintf("no fencing token is passed to %s", name)
		if ff.port != "" {
			ev.detail = fmt.Sprintf("no fencing token is passed to %s, a write-named method of the port %s (its implementation is wired elsewhere)", name, ff.port)
		}
		if s != nil && s.NoToken {
			ev.detail += "; " + s.NoTokenClause()
		}
		return ev
	}
	if ff.Unfenced != "" {
		ev.verdict = Unfenced
		ev.detail = fmt.Sprintf("%s does %s", name, ff.Unfenced)
		if s != nil && s.NoToken {
			ev.detail += "; " + s.NoTokenClause()
		}
		return ev
	}
	if ff.Weak != "" {
		// The helper fences its write with a clock or a random value it
		// mints itself: weaktoken's finding, at that value when it is in
		// this package, else at this call.
		ev.verdict = WeakToken
		src := &weakSource{pos: ff.weakPos, end: ff.weakEnd, WeakSource: WeakSource{
			Desc: ff.Weak, Why: ff.WeakWhy, Weakness: ff.WeakKind, Issuer: ff.WeakIssuer}}
		if !src.pos.IsValid() {
			src.Desc = fmt.Sprintf("%s (in %s)", ff.Weak, name)
			if c := e.callExpr(cc.Pos()); c != nil {
				src.pos, src.end = c.Pos(), c.End()
			}
		}
		ev.weak = src
		return ev
	}
	// The helper writes, and what fences it is unknown: the call is a
	// write of unknown verdict, never nothing.
	ev.verdict = Unknown
	return ev
}

// weakSourceOf is the weak source of a weak token origin.
func (e *engine) weakSourceOf(o *origin) *weakSource {
	src := &weakSource{pos: o.pos, WeakSource: WeakSource{Desc: o.desc, Why: o.why}}
	if o.rule != nil {
		src.Weakness, src.Issuer = o.rule.Weak, o.rule.Issuer
	}
	return src
}

// summary infers what a function of this package does for its callers:
// which of its parameters fence its writes, or which write is unfenced.
func (e *engine) summary(f *ssa.Function) *FuncFact {
	if ff, ok := e.summaries[f]; ok {
		return ff
	}
	if e.inSummary[f] || tooBig(f) {
		return nil
	}
	e.inSummary[f] = true
	defer delete(e.inSummary, f)

	ff := newFuncFact()
	if fn, ok := f.Object().(*types.Func); ok {
		if l := e.local[fn]; l != nil {
			ff = l
		}
	}
	if bs := e.bodyScope[f]; bs != nil && (bs.Kind == ScopeLeaseParam || bs.Kind == ScopeTokenParam || bs.Kind == ScopeHeld) {
		// The function is a scope on its own lease or token parameter: its
		// writes are judged inside it, so callers are told only which
		// parameter fences them.
		if e.writesAnywhere(f) {
			ff.Write = true
			for i, p := range f.Params {
				if p.Pos() == bs.Pos && bs.Kind != ScopeHeld { // a lock ID parameter fences nothing
					if f.Signature.Recv() != nil {
						i--
					}
					ff.FencedBy = appendUnique(ff.FencedBy, i)
				}
			}
			if fn, ok := f.Object().(*types.Func); ok {
				e.local[fn] = ff // exported: callers in other packages learn the fence parameter
			}
		}
		e.summaries[f] = ff
		return ff
	}
	var unfenced string
	var fencedBy, keyFencedBy, compareFencedBy []int
	var resources []string
	var weak *weakSource
	any := false
	createOnly := true // every unfenced write only creates
	e.forEachCall(f, func(instr ssa.Instruction, cc *ssa.CallCommon) {
		if e.instrScope[instr] != nil {
			return // judged in its own scope
		}
		ev := e.evalCall(f, instr, cc, nil)
		if !ev.isWrite {
			return
		}
		e.noteWeakWrite(instr, ev)
		e.noteCall(instr, cc, ev, false)
		any = true
		resources = addResources(resources, ev)
		switch {
		case len(ev.fencedBy) > 0 && (ev.verdict == Unfenced || ev.verdict == Fenced):
			for _, i := range ev.fencedBy {
				fencedBy = appendUnique(fencedBy, i)
				if ev.byKey {
					keyFencedBy = appendUnique(keyFencedBy, i)
				} else {
					compareFencedBy = appendUnique(compareFencedBy, i)
				}
			}
		case ev.verdict == Unfenced || ev.verdict == RecordedOnly:
			if unfenced == "" {
				unfenced = describe(ev)
			}
			createOnly = createOnly && ev.createOnly
		case ev.verdict == WeakToken:
			// Fenced only by a clock or a random value minted here: the
			// callers under a lock are told weaktoken (a summary never
			// hides a write).
			if weak == nil {
				weak = ev.weak
				if weak == nil {
					weak = e.weakOfWrite(instr, ev)
				}
			}
		}
	})
	if any {
		ff.Write = true
		ff.Resources = resources
		ff.FencedBy = fencedBy
		for _, i := range keyFencedBy {
			if !slices.Contains(compareFencedBy, i) {
				ff.KeyFencedBy = append(ff.KeyFencedBy, i)
			}
		}
		if len(fencedBy) == 0 {
			ff.Unfenced = unfenced
			ff.CreateOnly = unfenced != "" && createOnly
		} else {
			e.helperOutcomes(f, ff) // sqlc's :execrows and :one (helperoutcome.go)
		}
		if len(fencedBy) == 0 && unfenced == "" && weak != nil {
			ff.Weak, ff.WeakWhy, ff.WeakKind, ff.WeakIssuer = weak.Desc, weak.Why, weak.Weakness, weak.Issuer
			ff.weakPos, ff.weakEnd = weak.pos, weak.end
		}
		if fn, ok := f.Object().(*types.Func); ok {
			e.local[fn] = ff
		}
	}
	if fws := e.forwardsOf(f); len(fws) > 0 {
		ff.Forwards = fws // exported: callers in other packages judge them
		if fn, ok := f.Object().(*types.Func); ok {
			e.local[fn] = ff
		}
	}
	e.summaries[f] = ff
	if !any && !ff.Write {
		return nil
	}
	return ff
}

// addResources adds what ev writes to a sorted set of "store\ttarget".
func addResources(set []string, ev *eval) []string {
	add := func(r string) {
		i := sort.SearchStrings(set, r)
		if i < len(set) && set[i] == r {
			return
		}
		set = append(set, "")
		copy(set[i+1:], set[i:])
		set[i] = r
	}
	if ev.helper != "" {
		for _, r := range ev.resources {
			add(r)
		}
		return set
	}
	add(ev.store + "\t" + ev.target)
	return set
}

func describe(ev *eval) string {
	article := "a "
	if ev.store != "" && strings.ContainsAny(ev.store[:1], "AEIOUaeiou") {
		article = "an "
	}
	s := article + ev.store + " write"
	if ev.target != "" {
		s += " to " + ev.target
	}
	if ev.helper != "" {
		s += " via " + ev.helper
	}
	return s + " with no fence"
}

func appendUnique(xs []int, x int) []int {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// writesAnywhere reports whether f or its closures contain a write.
func (e *engine) writesAnywhere(f *ssa.Function) bool {
	found := false
	e.forEachCall(f, func(instr ssa.Instruction, cc *ssa.CallCommon) {
		if found {
			return
		}
		fn := calleeFunc(cc)
		if fn == nil {
			return
		}
		if w, ok := e.writeOf(fn); ok {
			// Have: db.QueryRowContext(ctx, "SELECT ..."): a read.
			ps := params(cc)
			if (w.Kind == rules.SQLWrite) && w.QueryArg >= 0 && w.QueryArg < len(ps) {
				if q, ok := e.sqlString(ps[w.QueryArg]); ok && !e.isWriteSQL(q) {
					return
				}
			}
			found = true
			return
		}
		if ff := e.calleeFact(fn); ff != nil && ff.Write {
			found = true
		}
	})
	return found
}

// forEachCall calls fn for every call, go and defer in f, and in its
// closures that are no scope of their own.
func (e *engine) forEachCall(f *ssa.Function, fn func(ssa.Instruction, *ssa.CallCommon)) {
	for _, instr := range e.callSites(f) {
		cc, _ := callOf(instr)
		fn(instr, cc)
	}
	for _, a := range f.AnonFuncs {
		if e.bodyScope[a] == nil {
			e.forEachCall(a, fn)
		}
	}
}

// callSites returns f's call, go and defer instructions in block order,
// found once: half a dozen passes visit every call of every function
// (summaries, forwards, claimed tables, lock wrappers, ...), and scanning
// all instructions for them each time was 2% of a lock-heavy run.
func (e *engine) callSites(f *ssa.Function) []ssa.Instruction {
	if sites, ok := e.callsOf[f]; ok {
		return sites
	}
	var sites []ssa.Instruction
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if cc, _ := callOf(instr); cc != nil {
				sites = append(sites, instr)
			}
		}
	}
	if e.callsOf == nil {
		e.callsOf = map[*ssa.Function][]ssa.Instruction{}
	}
	e.callsOf[f] = sites
	return sites
}

// exportSummaries computes summaries of every package-level function so
// that callers in other packages learn about write helpers.
func (e *engine) exportSummaries() {
	for _, f := range e.funcs {
		if _, ok := f.Object().(*types.Func); !ok {
			continue
		}
		e.guard(f, func() { e.summary(f) })
	}
}
