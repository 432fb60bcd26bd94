package fence

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// region is the part of one function that runs after a successful acquire
// and before its release (to the function's end when the release is
// deferred).
type region struct {
	scope *Scope
	call  *ssa.Call
	acq   acquireInfo
	// spans are the instructions of the region, per block: Instrs[from:to]
	// for each span, in increasing order. (A map of every instruction cost
	// a tenth of the engine's allocation.)
	spans map[*ssa.BasicBlock][]span
	// key is the lock key of key-value locks: writes to it are the lock's
	// own bookkeeping.
	key      ssa.Value
	keyConst string
	// storeKey is the key a library lock stores itself under when only
	// the acquire names it (rules.Acquire.StoreKeyArg): writes to it are
	// the lock's, but releases are not matched by it.
	storeKey ssa.Value
}

type span struct{ from, to int }

// instrs returns the region's instructions in block order, so that what is
// derived from them (facts) does not depend on map order.
func (r *region) instrs(f *ssa.Function) []ssa.Instruction {
	var out []ssa.Instruction
	for _, b := range f.Blocks {
		for _, s := range r.spans[b] {
			out = append(out, b.Instrs[s.from:s.to]...)
		}
	}
	return out
}

// addSpan adds Instrs[s.from:s.to] of b to the region. A block is entered
// again only at an earlier start (the acquire's own block, through a
// loop), and the scan from there may stop at a release before the first
// span: keep both then.
func (r *region) addSpan(b *ssa.BasicBlock, s span) {
	old := r.spans[b]
	if len(old) > 0 && s.to >= old[0].from {
		old[0].from = min(old[0].from, s.from)
		old[0].to = max(old[0].to, s.to)
		return
	}
	r.spans[b] = append([]span{s}, old...)
}

type acquireInfo struct {
	success rules.Success
	lock    string
	noToken bool
	keyArg  int
	// keyVal is the lock key when no argument index names it (redigo's
	// Do("SET", key, ...)).
	keyVal  ssa.Value
	libRule *rules.Acquire
	leaseT  types.Type // heuristic lease type of result 0, if any
	// advisory: a PostgreSQL advisory lock taken by SQL text; session is
	// the transaction or pinned connection that holds it (nil for a pool).
	advisory bool
	session  ssa.Value
	// sessionKey is the session's sessionKey when session is not a value
	// of the function the region opens in: the receiver field a runner's
	// literal took the lock on (p.conn in Lock's func() error).
	sessionKey string
	// source says what made the call an acquire (Scope.Source).
	source string
	// tokenResult is the result carrying the token of an acquire known
	// from a fact or directive, -1 if none.
	tokenResult int
	fromFact    bool
	// lease: the call claims a row of a SQL lease table (leasetable.go).
	lease *leaseStmt
	// constructed: the call is a constructor (NewLease) of a heuristic
	// lease type, directly or through a wrapper's fact: it builds the
	// value and asks no lock service. In a _test.go file that is a
	// fixture, not a held lock.
	constructed bool
	// ownLock: the lock is a create-if-absent write of the application's
	// (FuncFact.OwnLock).
	ownLock bool
	// etcdLock: the call is an etcd Txn that puts a leased key if absent
	// (etcdlock.go).
	etcdLock *etcdTxnLock
}

func (e *engine) indexClosures(f *ssa.Function) {
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok {
				if fn, ok := mc.Fn.(*ssa.Function); ok {
					e.closures[fn] = append(e.closures[fn], mc)
				}
			}
		}
	}
}

// signatureScope makes the whole body of a function a scope when it takes a
// lease, a lock object, or a token-named integer parameter.
func (e *engine) signatureScope(f *ssa.Function) {
	if e.bodyScope[f] != nil || f.Signature == nil {
		return
	}
	if e.declaredScope(f) {
		return // //fencelint:holds or //fencelint:token PARAM
	}
	if fn, ok := f.Object().(*types.Func); ok {
		if rules.IsReleaseName(fn.Name()) || rules.IsRenewName(fn.Name()) {
			return
		}
		if ff := e.local[fn]; ff != nil && (ff.Acquire || ff.Release) {
			if !ff.Acquire {
				// It takes a lock and releases it itself (write, then
				// release): it holds the lock from its entry to the
				// release (findRegions opens that region).
				e.releasingParamScope(f)
			}
			return // lock API implementations are not lock holders
		}
	}
	if recv := f.Signature.Recv(); recv != nil {
		if _, ok := e.leaseOf(recv.Type()); ok {
			return // a lease's own methods (Valid, Renew, ...) hold nothing
		}
	}
	first := 0
	if f.Signature.Recv() != nil {
		first = 1
	}
	for _, p := range f.Params[first:] {
		t := p.Type()
		if info, ok := e.leaseOf(t); ok {
			s := &Scope{Kind: ScopeLeaseParam, Pos: p.Pos(), Lock: info.Named.Obj().Name() + " held in parameter " + p.Name(), Source: "lease-shaped type " + info.Named.Obj().Name()}
			if info.Token != nil {
				s.Token = p.Name() + "." + info.Token.Name()
			} else {
				s.NoToken = !e.structHasTokenField(t)
				s.Hint = e.leaseHint(t, s.NoToken)
			}
			e.bodyScope[f] = s
			return
		}
		if rules.IsLockType(t) {
			s := &Scope{Kind: ScopeLeaseParam, Pos: p.Pos(), Lock: lockTypeName(t) + " " + p.Name(), Source: "lock type " + lockTypeName(t)}
			s.NoToken, s.Token = lockTypeToken(t, p.Name())
			e.bodyScope[f] = s
			return
		}
	}
	for _, p := range f.Params[first:] {
		if (rules.IsTokenParamName(p.Name()) && rules.IsIntegerLike(p.Type())) || isTokenType(p.Type()) {
			e.tokenParams[p] = p.Name()
			if !isTokenType(p.Type()) && !rules.IsFenceParamName(p.Name()) && !e.comparedInWrite(f, p) {
				// epoch, generation, revision, tok: names data also has
				// (UPDATE devices SET last_seen_epoch = $2). Only a write
				// of f that compares the parameter says it is a token.
				delete(e.tokenParams, p)
				e.memo = map[ssa.Value]*origin{}
				continue
			}
			e.bodyScope[f] = &Scope{Kind: ScopeTokenParam, Pos: p.Pos(), Lock: "token parameter " + p.Name(), Token: p.Name(), Source: "token parameter"}
			return
		}
	}
}

// comparedInWrite: a library write of f (not a helper's: their summaries
// are not made yet) compares a token in its condition, p being one by its
// name, or p is passed to a helper known to be fenced by it.
func (e *engine) comparedInWrite(f *ssa.Function, p *ssa.Parameter) bool {
	for _, instr := range e.callSites(f) {
		cc, _ := callOf(instr)
		fn := calleeFunc(cc)
		if fn == nil {
			continue
		}
		w, ok := rules.WriteOf(fn)
		if !ok {
			// A helper known (imported, or declared here) to be fenced by
			// the parameter p is passed to, or to take a token there.
			ps := params(cc)
			passed := func(i int) bool { return i >= 0 && i < len(ps) && stripValue(ps[i]) == ssa.Value(p) }
			if ff := e.calleeFact(fn); ff != nil {
				for _, i := range append(slices.Clip(ff.FencedBy), ff.TokenParams...) {
					if passed(i) {
						return true
					}
				}
			}
			if e.decl != nil {
				if i, ok := e.decl.tokenParam[fn]; ok && passed(i) {
					return true
				}
			}
			// save(ctx, db, id, tok) of this package, whose parameter there
			// is named like a token too: its summary is not made yet.
			if fn.Pkg() == e.pass.Pkg {
				if sig, ok := fn.Type().(*types.Signature); ok {
					for i := 0; i < sig.Params().Len() && i < len(ps); i++ {
						if passed(i) && rules.IsTokenParamName(sig.Params().At(i).Name()) {
							return true
						}
					}
				}
			}
			continue
		}
		// Any token compare will do: with no lease or lock parameter (those
		// make other scopes), the token parameters are what a write of f
		// compares, whatever the value is called by the time it reaches
		// the condition (strconv.FormatInt(tok, 10) in an etcd Compare).
		ev := e.evalRule(cc, w)
		timeOnly := len(ev.compares) > 0
		for _, c := range ev.compares {
			if !rules.IsTimeColumn(c.Column) {
				timeOnly = false
			}
		}
		if timeOnly {
			continue // DELETE ... WHERE created_epoch < $1: a cut-off in time
		}
		if ev.isWrite && (ev.verdict == Fenced || ev.verdict == WrongPredicate) {
			return true // the etcd Txn's Compare, the expression builder's condition
		}
		for _, c := range ev.compares {
			if c.Token != "" {
				return true
			}
		}
	}
	return false
}

// releasingParamScope records the scope of a function that takes a lock
// or lease parameter and releases a lock itself
// (func save(ctx, rdb, k, lock *redislock.Lock) { rdb.Set(...); lock.Release(ctx) }).
func (e *engine) releasingParamScope(f *ssa.Function) {
	first := 0
	if f.Signature.Recv() != nil {
		first = 1
	}
	for _, p := range f.Params[first:] {
		t := p.Type()
		var s *Scope
		if info, ok := e.leaseOf(t); ok {
			s = &Scope{Kind: ScopeLeaseParam, Pos: p.Pos(), Lock: info.Named.Obj().Name() + " held in parameter " + p.Name(), Source: "lease-shaped type " + info.Named.Obj().Name()}
			if info.Token != nil {
				s.Token = p.Name() + "." + info.Token.Name()
			} else {
				s.NoToken = !e.structHasTokenField(t)
			}
		} else if rules.IsLockType(t) {
			s = &Scope{Kind: ScopeLeaseParam, Pos: p.Pos(), Lock: lockTypeName(t) + " " + p.Name(), Source: "lock type " + lockTypeName(t)}
			s.NoToken, s.Token = lockTypeToken(t, p.Name())
		}
		if s != nil {
			if e.releasingParams == nil {
				e.releasingParams = map[*ssa.Function]paramScope{}
			}
			e.releasingParams[f] = paramScope{s, p}
			return
		}
	}
}

// paramScope is the scope a lock or lease parameter opens.
type paramScope struct {
	scope *Scope
	param *ssa.Parameter
}

// entryRegion makes the instructions from f's entry up to a release (on
// every path) a region of scope s; where the function tests the lock
// parameter p against nil, only the non-nil branch holds it.
func (e *engine) entryRegion(f *ssa.Function, s *Scope, p *ssa.Parameter) {
	e.regionFromEntry(f, s, p, e.isReleaseFor)
}

// regionFromEntry makes f's instructions from its entry up to the first
// call isRelease accepts, on every path, a region of scope s. With a lock
// parameter p, a test of p against nil keeps only the non-nil branch.
func (e *engine) regionFromEntry(f *ssa.Function, s *Scope, p *ssa.Parameter, isRelease func(*region, *ssa.Call) bool) {
	if len(f.Blocks) == 0 {
		return
	}
	r := &region{scope: s, spans: map[*ssa.BasicBlock][]span{}}
	started := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{f.Blocks[0]}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if started[b] {
			continue
		}
		started[b] = true
		end, released := len(b.Instrs), false
		for i, instr := range b.Instrs {
			if c, ok := instr.(*ssa.Call); ok && isRelease(r, c) {
				end, released = i, true
				break
			}
		}
		r.addSpan(b, span{0, end})
		if released {
			continue
		}
		if iff := branchIf(b); iff != nil && p != nil {
			if c, ok := iff.Cond.(*ssa.BinOp); ok && (c.Op == token.EQL || c.Op == token.NEQ) &&
				((c.X == ssa.Value(p) && isNilConst(c.Y)) || (c.Y == ssa.Value(p) && isNilConst(c.X))) {
				if c.Op == token.EQL {
					work = append(work, b.Succs[1]) // p == nil: the false branch holds it
				} else {
					work = append(work, b.Succs[0])
				}
				continue
			}
		}
		work = append(work, b.Succs...)
	}
	e.markRegion(r)
	e.regions[f] = append(e.regions[f], r)
}

// isTokenType: a named integer type whose name says it is a fencing token.
func isTokenType(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && rules.IsIntegerLike(n) && rules.IsTokenTypeName(n.Obj().Name())
}

func (e *engine) structHasTokenField(t types.Type) bool {
	if e.typeHasTokenMethod(t) {
		return true // a //fencelint:token method hands the token out
	}
	st, ok := derefStruct(t)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if e.isTokenField(st.Field(i)) {
			return true
		}
	}
	return false
}

func lockTypeName(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Pkg().Name() + "." + n.Obj().Name()
	}
	return t.String()
}

// lockTypeToken: a lock type with rules' LockTokens (etcd's Mutex and
// Election carry revisions) names its token; the others hand out none.
func lockTypeToken(t types.Type, name string) (noToken bool, token string) {
	if tok, ok := rules.LockTypeToken(t); ok {
		return false, name + tok
	}
	return true, ""
}

// factAcquire is the acquire a call of fn makes when its fact f says it
// acquires (an acquire wrapper, or a function with //fencelint:acquire);
// the caller sets success.
func (e *engine) factAcquire(fn *types.Func, f *FuncFact) acquireInfo {
	lock := f.Lock
	if lock == "" {
		lock = "lock acquired by " + fn.Name()
	}
	src := "acquire wrapper " + fn.FullName()
	if fn.Pkg() == e.pass.Pkg && e.directed[fn] {
		src = "directive //fencelint:acquire on " + fn.Name()
	}
	return acquireInfo{lock: lock, noToken: f.NoToken, keyArg: -1, source: src,
		tokenResult: f.TokenResult, fromFact: true, constructed: f.Constructed, ownLock: f.OwnLock,
		sessionKey: e.wrapperSessions[fn]}
}

// acquireOf classifies a call as an acquire.
func (e *engine) acquireOf(call *ssa.Call) (acquireInfo, bool) {
	cc := call.Common()
	fn := e.callee(cc)
	if fn == nil {
		return acquireInfo{}, false
	}
	if r, ok := rules.AcquireOf(fn); ok {
		if r.Success == rules.StatusCmdOK && !e.isSetArgsNX(cc) {
			return acquireInfo{}, false
		}
		if r.KeyArg >= 0 && !e.isLockKey(call, r.KeyArg) {
			return acquireInfo{}, false // SET NX used for deduplication or caching, not as a lock
		}
		return acquireInfo{success: r.Success, lock: r.Lock, noToken: r.NoToken, keyArg: r.KeyArg, libRule: r, source: "library: " + r.Func}, true
	}
	if ai, ok := e.runnerAcquire(cc, fn); ok {
		return ai, true // retry.Do(ctx, b, func(ctx) error { return l.TryLock(ctx) }) (retry.go)
	}
	if w, ok := e.writeOf(fn); ok {
		// A Kubernetes Lease whose holder is set to the caller (k8s.go).
		if ai, ok := e.k8sLeaseClaim(call, w); ok {
			return ai, true
		}
		// redigo's Do("SET", key, val, "NX", ...) on a lock's key, or
		// go-redis's Do(ctx, "SET", key, val, "NX", ...), whose *Cmd
		// fails with redis.Nil when the key is taken.
		if key, ok := e.redigoSetNX(call); ok {
			if !e.isLockKeyVal(call, key) {
				return acquireInfo{}, false
			}
			ai := acquireInfo{success: rules.ErrNil, lock: rules.RedigoLock, noToken: true, keyArg: -1, keyVal: key,
				source: "library: redigo SET NX"}
			if !rules.IsRedigo(fn) {
				ai.success, ai.source = rules.StatusCmdOK, "library: go-redis Do SET NX"
			}
			return ai, true
		}
		// SQL that takes a PostgreSQL advisory lock; any other storage
		// call is not an acquire.
		if l := e.advisorySQL(fn, cc); l.Acquire {
			return acquireInfo{success: rules.ErrNil, lock: l.Kind, noToken: true, keyArg: -1,
				advisory: true, session: sqlSession(cc), source: "SQL: " + l.Kind + " function"}, true
		}
		if ls := e.leaseStmtOf(cc); ls.role == leaseClaim {
			return e.leaseClaim(cc, ls, ""), true // UPDATE locks SET holder = $1 ... WHERE expires_at < now()
		}
		// A Lua script that SETs one of its KEYS with NX (scriptlock.go).
		if w.Kind == rules.RedisScript {
			if key, counter, ok := e.scriptLock(call, w); ok {
				if !e.isLockKeyVal(call, key) {
					return acquireInfo{}, false // a deduplication or cache key, as for SetNX
				}
				return acquireInfo{success: rules.StatusCmdOK, lock: "Redis SET NX lock (Lua script)", noToken: !counter, keyArg: -1, keyVal: key,
					source: "library: go-redis script with SET NX"}, true
			}
		}
		// Txn(ctx).If(CreateRevision(k) = 0).Then(OpPut(k, v, WithLease(id)))
		// (etcdlock.go).
		if w.Kind == rules.EtcdTxnCommit {
			// In a _test.go file it is a fixture (another holder simulated),
			// as create-if-absent locks are.
			if l, ok := e.etcdTxnLockOf(cc); ok && !e.inTestFile(call.Pos()) {
				return acquireInfo{success: rules.ErrNil, lock: etcdTxnLockName, keyArg: -1, keyVal: l.key, etcdLock: l,
					ownLock: true, source: "etcd Txn: put-if-absent of a key with a lease"}, true
			}
		}
		// lockWithFile's PutObject with IfNoneMatch "*" (createlock.go).
		if lock, ok := e.createIfAbsentLock(call, w); ok && !e.inTestFile(call.Pos()) {
			return acquireInfo{success: successOf(fn), lock: lock, noToken: true, keyArg: -1, ownLock: true,
				source: "heuristic: create-if-absent write in a function named like an acquire"}, true
		}
		return acquireInfo{}, false
	}
	if l, session := e.forwardedAdvisory(cc); l.Acquire {
		// lock(ctx, conn, "SELECT pg_advisory_lock($1)", id): a helper that
		// runs the caller's SQL (forward.go).
		return acquireInfo{success: successOf(fn), lock: l.Kind, noToken: true, keyArg: -1,
			advisory: true, session: session, source: "SQL: " + l.Kind + " function via " + fn.Name()}, true
	}
	if ls := e.leaseStmtOf(cc); ls.role == leaseClaim {
		ai := e.leaseClaim(cc, ls, fn.Name()) // a helper running the caller's claim SQL
		ai.success = successOf(fn)
		return ai, true
	}
	f := e.calleeFact(fn)
	if f == nil || !f.Acquire {
		e.noteUnresolvedAcquire(call, fn)
	}
	if f != nil && f.Acquire {
		if (f.Constructed || f.OwnLock) && e.inTestFile(call.Pos()) {
			return acquireInfo{}, false // a test's lease fixture, or a test of the application's own lock
		}
		ai := e.factAcquire(fn, f)
		ai.success = successOf(fn)
		return ai, true
	}
	// Heuristic: a function returning a lease-shaped type acquires it.
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 || sig.Results().Len() > 2 || isReaderName(fn.Name()) {
		return acquireInfo{}, false
	}
	t := sig.Results().At(0).Type()
	info, ok := e.leaseOf(t)
	if !ok {
		return acquireInfo{}, false
	}
	if recv := sig.Recv(); recv != nil {
		if _, ok := e.leaseOf(recv.Type()); ok {
			return acquireInfo{}, false // lease.Renew() returning a lease is bookkeeping
		}
	}
	constructed := rules.IsLeaseConstructorName(fn.Name())
	if constructed && e.inTestFile(call.Pos()) {
		return acquireInfo{}, false // a test's lease fixture (see constructed)
	}
	ai := acquireInfo{success: successOf(fn), lock: "lease " + info.Named.Obj().Name() + " from " + fn.Name(), keyArg: -1, leaseT: t,
		source: "heuristic: returns lease-shaped type " + info.Named.Obj().Name(), constructed: constructed}
	ai.noToken = info.Token == nil && !e.structHasTokenField(t)
	return ai, true
}

func successOf(fn *types.Func) rules.Success {
	sig := fn.Type().(*types.Signature)
	if n := sig.Results().Len(); n > 0 && isError(sig.Results().At(n-1).Type()) {
		return rules.ErrNil
	}
	return rules.Returns
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

var readerPrefixes = []string{"Get", "Load", "Parse", "Decode", "Unmarshal", "Read", "Find", "Lookup", "List", "Describe", "Current", "Peek", "Inspect", "Fetch"}

// isReaderName: functions that look a lease up rather than take it.
func isReaderName(name string) bool {
	if name == "" {
		return false
	}
	first := name[0]
	if 'a' <= first && first <= 'z' {
		first -= 'a' - 'A' // getLease reads like GetLease
	}
	for _, p := range readerPrefixes {
		if first == p[0] && strings.HasPrefix(name[1:], p[1:]) {
			return true
		}
	}
	return false
}

// isLockKey: SET NX is also used for idempotency keys and caches. It is a
// lock when its key says so (lock, mutex, leader, lease, election), or
// when the function releases the same key (DEL/UNLINK).
func (e *engine) isLockKey(call *ssa.Call, keyArg int) bool {
	ps := params(call.Common())
	if keyArg >= len(ps) {
		return false
	}
	return e.isLockKeyVal(call, ps[keyArg])
}

// isLockKeyVal is isLockKey for the key value itself.
func (e *engine) isLockKeyVal(call *ssa.Call, key ssa.Value) bool {
	if keyNamesLock(key) {
		return true
	}
	if len(constParts(key, 0)) == 0 && onLockType(call.Parent()) {
		return true // func (m *RedisMutex) Lock(ctx) { rdb.SetNX(ctx, m.key, ...) }
	}
	probe := &region{key: key}
	probe.keyConst, _ = constString(key)
	f := call.Parent()
	found := false
	e.forEachCall(f, func(instr ssa.Instruction, cc *ssa.CallCommon) {
		if found {
			return
		}
		if fn := calleeFunc(cc); fn != nil && (rules.IsRelease(fn) || isRedigoRelease(cc)) && e.sameKey(probe, cc) {
			found = true
		}
	})
	return found
}

// keyNamesLock: a constant part of the key names a lock ("lock:"+id,
// fmt.Sprintf("leader/%s", shard)).
func keyNamesLock(key ssa.Value) bool {
	for _, c := range constParts(key, 0) {
		lc := strings.ToLower(c)
		for _, w := range []string{"lock", "mutex", "leader", "lease", "election", "semaphore"} {
			if strings.Contains(lc, w) {
				return true
			}
		}
	}
	return false
}

// constParts returns the constant strings a key is built from
// ("lock:" + id, fmt.Sprintf("lock:%s", id)).
func constParts(v ssa.Value, depth int) []string {
	if depth > 6 {
		return nil
	}
	v = stripValue(v)
	if s, ok := constString(v); ok {
		return []string{s}
	}
	switch x := v.(type) {
	case *ssa.BinOp:
		return append(constParts(x.X, depth+1), constParts(x.Y, depth+1)...)
	case *ssa.Call:
		var out []string
		for _, a := range x.Common().Args {
			out = append(out, constParts(a, depth+1)...)
			if vals, ok := unpackVariadic(a); ok {
				for _, el := range vals {
					out = append(out, constParts(el, depth+1)...)
				}
			}
		}
		return out
	}
	return nil
}

// isSetArgsNX: go-redis SetArgs is an acquire only with Mode "NX".
func (e *engine) isSetArgsNX(cc *ssa.CallCommon) bool {
	ps := params(cc)
	if len(ps) < 4 {
		return false
	}
	fs, ok := fieldStores(ps[3])
	if !ok {
		return false
	}
	mode, ok := constString(fs["Mode"])
	return ok && strings.EqualFold(mode, "NX")
}

// findRegions finds acquire calls and callback registrations in f.
func (e *engine) findRegions(f *ssa.Function) {
	if rp := e.releasingParams[f]; rp.scope != nil {
		e.entryRegion(f, rp.scope, rp.param)
	}
	for _, b := range f.Blocks {
		for i, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Call:
				if ai, ok := e.acquireOf(instr); ok {
					e.openRegion(f, b, i, instr, ai)
					continue
				}
				e.gocronTask(instr)
				e.withLockCall(f, instr.Common(), instr.Pos())
			case *ssa.Go:
				e.withLockCall(f, instr.Common(), instr.Pos())
			case *ssa.Store:
				e.callbackStore(f, instr)
			}
		}
	}
	e.leaderCheckRegions(f) // after the acquires: a lock taken under the check is the inner scope
}

// gocronTask: gocron.NewTask(fn, ...) in a package that configures a
// distributed locker or elector runs fn under a lock that hands it no
// token, and so does a locked event listener (gocron.AfterJobRuns(fn), ...:
// rules.GocronLockedHooks), which gocron's executor calls under the same
// lock as the task.
func (e *engine) gocronTask(call *ssa.Call) {
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Pkg() == nil || rules.LibPath(fn.Pkg().Path()) != rules.GocronPkg {
		return
	}
	if name := rules.Key(fn); name != rules.GocronTask && !rules.GocronLockedHooks[name] || !e.usesGocronDistributed() {
		return
	}
	ps := params(call.Common())
	if len(ps) == 0 {
		return
	}
	if task := funcOf(ps[0]); task != nil && e.bodyScope[task] == nil {
		e.bodyScope[task] = &Scope{Kind: ScopeCallback, Pos: call.Pos(), Lock: "gocron distributed locker", NoToken: true, Source: "library: gocron distributed job"}
	}
}

func (e *engine) usesGocronDistributed() bool {
	if e.gocronDistributed == nil {
		found := false
		for _, obj := range e.pass.TypesInfo.Uses {
			if fn, ok := obj.(*types.Func); ok && rules.GocronDistributed[fn.FullName()] {
				found = true
				break
			}
		}
		e.gocronDistributed = &found
	}
	return *e.gocronDistributed
}

// callbackStore: LeaderCallbacks{OnStartedLeading: fn} runs fn as leader.
func (e *engine) callbackStore(f *ssa.Function, s *ssa.Store) {
	fa, ok := s.Addr.(*ssa.FieldAddr)
	if !ok {
		return
	}
	st, ok := derefStruct(fa.X.Type())
	if !ok {
		return
	}
	var scope *Scope
	if rules.IsCallbackField(fa.X.Type(), st.Field(fa.Field)) {
		scope = &Scope{Kind: ScopeLeading, Pos: s.Pos(), Lock: "leader election (OnStartedLeading)", NoToken: true, Source: "library: client-go leader election"}
	} else if cf := e.callbackFieldOf(st.Field(fa.Field)); cf != nil {
		field := st.Field(fa.Field)
		scope = &Scope{Kind: ScopeLeading, Pos: s.Pos(), Lock: cf.Lock, NoToken: cf.NoToken,
			Source: "callback field " + rules.TypeKey(fa.X.Type()) + "." + field.Name() + ", registered as a lock callback"}
	} else {
		return
	}
	if fn := funcOf(s.Val); fn != nil && e.bodyScope[fn] == nil {
		e.bodyScope[fn] = scope
	}
	e.forwardsCallback(f, s.Val, scope)
}

// recordCallbackField marks field i of the struct t (a named type of this
// package) as a callback field: its value is registered as the callback
// of scope's lock.
func (e *engine) recordCallbackField(t types.Type, i int, scope *Scope) {
	st, ok := derefStruct(t)
	if !ok || i >= st.NumFields() {
		return
	}
	field := st.Field(i)
	if _, isFunc := field.Type().Underlying().(*types.Signature); !isFunc || field.Pkg() != e.pass.Pkg {
		return
	}
	if n := namedOfType(t); n == nil || n.Obj().Pkg() != e.pass.Pkg {
		return
	}
	if e.callbackFields[field] != nil {
		return
	}
	e.callbackFields[field] = &CallbackFieldFact{Lock: scope.Lock, NoToken: scope.NoToken}
	e.wrappers++ // a new callback: callers scanned before must be scanned again
}

// callbackFieldOf returns what is known of field as a callback field: of
// this package, or from another package's fact.
func (e *engine) callbackFieldOf(field *types.Var) *CallbackFieldFact {
	if cf := e.callbackFields[field]; cf != nil {
		return cf
	}
	if field.Pkg() == nil || field.Pkg() == e.pass.Pkg {
		return nil
	}
	if _, isFunc := field.Type().Underlying().(*types.Signature); !isFunc {
		return nil
	}
	cf := new(CallbackFieldFact)
	if e.pass.ImportObjectFact(field, cf) {
		return cf
	}
	return nil
}

// namedOfType strips one pointer down to a named type.
func namedOfType(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// forwardsCallback makes f a with-lock helper when the function it
// registers as a callback is, or only calls, one of f's func parameters:
// OnStartedLeading: run, or OnStartedLeading: func(c) { run(c) }, inside
// func runElection(ctx, lock, run func(context.Context)). Callers' callbacks
// then run under the lock (the same fact an acquire-based helper gets).
func (e *engine) forwardsCallback(f *ssa.Function, cb ssa.Value, scope *Scope) {
	switch v := stripValue(cb).(type) {
	case *ssa.UnOp:
		// OnStartedLeading: run.OnStartedLeading, a func field of this
		// package's own config struct: a function stored in that field
		// runs under the lock too (CallbackFieldFact).
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			e.recordCallbackField(fa.X.Type(), fa.Field, scope)
		}
		return
	case *ssa.Field:
		e.recordCallbackField(v.X.Type(), v.Field, scope)
		return
	}
	fn, ok := f.Object().(*types.Func)
	if !ok || f.Parent() != nil {
		return
	}
	record := func(p *ssa.Parameter, args []ssa.Value) {
		idx := paramIndex(f, p)
		if idx < 0 {
			return
		}
		ff := e.factFor(fn)
		if ff.Callback >= 0 {
			return
		}
		e.wrappers++
		ff.Callback = idx
		ff.NoToken = scope.NoToken
		for j, a := range args {
			if _, ok := e.leaseOf(a.Type()); ok || rules.IsLockType(a.Type()) || e.originOf(a).isToken() {
				ff.LeaseArg = j
				break
			}
		}
	}
	switch v := stripValue(cb).(type) {
	case *ssa.Parameter:
		record(v, nil)
	case *ssa.MakeClosure:
		g, ok := v.Fn.(*ssa.Function)
		if !ok {
			return
		}
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				// A captured parameter is a FreeVar: the value itself, or
				// (when SSA boxes it) a pointer to the cell the parent
				// stored the parameter in.
				callee := c.Common().Value
				boxed := false
				if u, ok := callee.(*ssa.UnOp); ok && u.Op == token.MUL {
					callee, boxed = u.X, true
				}
				fv, ok := callee.(*ssa.FreeVar)
				if !ok {
					continue
				}
				for i, x := range g.FreeVars {
					if x != fv || i >= len(v.Bindings) {
						continue
					}
					bound := v.Bindings[i]
					if boxed {
						if vals := storesTo(bound); len(vals) == 1 {
							bound = vals[0]
						}
					}
					if p, ok := bound.(*ssa.Parameter); ok {
						record(p, c.Common().Args)
					}
				}
			}
		}
	}
}

// withLockCall: a callback handed to a with-lock helper runs under its lock.
func (e *engine) withLockCall(f *ssa.Function, cc *ssa.CallCommon, pos token.Pos) {
	ff := e.calleeFact(calleeFunc(cc))
	if ff == nil || ff.Callback < 0 {
		return
	}
	ps := params(cc)
	if ff.Callback >= len(ps) {
		return
	}
	if e.forwardCallbackParam(f, ps[ff.Callback], ff) {
		return // a with-lock helper handing its own callback on (flowscopes.go)
	}
	fn := funcOf(ps[ff.Callback])
	if fn == nil || (e.bodyScope[fn] != nil && e.bodyScope[fn].Kind != ScopeTokenParam) {
		return // a lease parameter already says it all; a token name says less than the helper
	}
	s := &Scope{Kind: ScopeCallback, Pos: pos, Lock: "lock held by " + e.callName(pos), Source: "with-lock helper " + e.callName(pos)}
	if ff.LeaseArg >= 0 && ff.LeaseArg < len(fn.Params) {
		p := fn.Params[ff.LeaseArg]
		e.tokenParams[p] = p.Name()
		s.Token = p.Name()
		if info, ok := e.leaseOf(p.Type()); ok && info.Token != nil {
			delete(e.tokenParams, p) // its token field is the token, not the whole lease
			s.Token = p.Name() + "." + info.Token.Name()
		}
	} else {
		s.NoToken = ff.NoToken || ff.LeaseArg < 0
		s.Withheld = !ff.NoToken && ff.LeaseArg < 0
	}
	e.bodyScope[fn] = s
}

// funcOf returns the function a func value denotes, if it is one of ours.
func funcOf(v ssa.Value) *ssa.Function {
	switch v := stripValue(v).(type) {
	case *ssa.Function:
		return v
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok {
			return boundMethod(fn)
		}
	}
	return nil
}

// boundMethod maps the wrapper SSA makes for a method value (s.archive
// passed as a callback: a closure over "archive$bound") to the method.
func boundMethod(fn *ssa.Function) *ssa.Function {
	if fn.Synthetic == "" || !strings.HasSuffix(fn.Name(), "$bound") {
		return fn
	}
	if m, ok := fn.Object().(*types.Func); ok {
		if real := fn.Prog.FuncValue(m); real != nil {
			return real
		}
	}
	return fn
}

// openRegion computes the instructions after a successful acquire.
func (e *engine) openRegion(f *ssa.Function, b *ssa.BasicBlock, idx int, call *ssa.Call, ai acquireInfo) {
	hint := e.leaseHint(ai.leaseT, ai.noToken)
	if ai.noToken && (ai.lease != nil || ai.fromFact && strings.HasPrefix(ai.lock, leaseTableLock)) {
		hint = leaseTableHint // also for a claim wrapped in another package
	}
	if ai.noToken && (ai.advisory || ai.fromFact && (ai.lock == rules.AdvisoryLockName || ai.lock == rules.MySQLNamedLock)) {
		hint = databaseLockHint
	}
	r := &region{
		scope: &Scope{Kind: ScopeAcquire, Pos: call.Pos(), Lock: ai.lock, NoToken: ai.noToken, Token: e.acquireToken(call, ai),
			Source: ai.source, Key: e.lockKey(call, ai), Hint: hint},
		call:  call,
		acq:   ai,
		spans: map[*ssa.BasicBlock][]span{},
	}
	if key := ai.sessionKey; key != "" || ai.session != nil {
		if key == "" {
			key = sessionKey(ai.session)
		}
		if e.sessions == nil {
			e.sessions = map[*Scope]string{}
		}
		e.sessions[r.scope] = key
	}
	if ai.keyArg >= 0 {
		if ps := params(call.Common()); ai.keyArg < len(ps) {
			r.key = ps[ai.keyArg]
			r.keyConst, _ = constString(r.key)
		}
	} else if ai.keyVal != nil {
		r.key = ai.keyVal
		r.keyConst, _ = constString(r.key)
	}
	if ai.libRule != nil && ai.libRule.StoreKeyArg > 0 {
		if ps := params(call.Common()); ai.libRule.StoreKeyArg < len(ps) {
			r.storeKey = ps[ai.libRule.StoreKeyArg]
		}
	}
	fails := e.failValues(call, ai)

	type item struct {
		b     *ssa.BasicBlock
		start int
	}
	started := map[*ssa.BasicBlock]int{}
	work := []item{{b, idx + 1}}
	reachesReturn, releasedSomewhere := false, false
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		if s, ok := started[it.b]; ok && s <= it.start {
			continue
		}
		started[it.b] = it.start
		released := false
		end := len(it.b.Instrs)
		for i, instr := range it.b.Instrs[it.start:] {
			if c, ok := instr.(*ssa.Call); ok && c != call && e.isReleaseFor(r, c) {
				released, end = true, it.start+i
				break
			}
		}
		r.addSpan(it.b, span{it.start, end})
		if released {
			releasedSomewhere = true
			continue
		}
		switch t := it.b.Instrs[len(it.b.Instrs)-1].(type) {
		case *ssa.If:
			failOnTrue, known := classifyCond(t.Cond, fails)
			switch {
			case !known:
				work = append(work, item{t.Block().Succs[0], 0}, item{t.Block().Succs[1], 0})
			case failOnTrue:
				work = append(work, item{t.Block().Succs[1], 0})
			default:
				work = append(work, item{t.Block().Succs[0], 0})
			}
		case *ssa.Return:
			reachesReturn = true
		default:
			for _, s := range it.b.Succs {
				work = append(work, item{s, 0})
			}
		}
	}
	e.markRegion(r)
	e.regions[f] = append(e.regions[f], r)
	// A function that returns with the lock held on some paths and
	// releases it on others is an acquire wrapper only if its results can
	// tell its callers which happened (an error, the lock itself): a void
	// function that sometimes leaves a lease to expire (a rate limit) does
	// not hand its callers a lock.
	if reachesReturn && releasedSomewhere && !signalsAcquire(f.Signature) {
		reachesReturn = false
	}
	// Nor does one that drops the handle of the lock it took (neither
	// returns, stores nor hands it on): the lease is left to expire, and a
	// caller has nothing to release.
	if reachesReturn && e.handleDropped(r) {
		reachesReturn = false
	}
	e.inferWrapper(f, r, reachesReturn)
}

// handleDropped reports whether the acquire of r returns a lock handle
// (a lock type rules/ knows, such as redislock's *Lock, or a lease-shaped
// value) that the function never returns,
// stores, captures, sends or passes to a call other than a release.
// Acquires whose lock is their receiver (m.Lock()) have no handle.
func (e *engine) handleDropped(r *region) bool {
	lockHandle := func(t types.Type) bool {
		if _, ok := e.leaseOf(t); ok {
			return true
		}
		return rules.IsLockType(t)
	}
	handles := callResults(r.call, lockHandle)
	if len(handles) == 0 {
		return false
	}
	seen := map[ssa.Value]bool{}
	for len(handles) > 0 {
		h := handles[len(handles)-1]
		handles = handles[:len(handles)-1]
		if seen[h] {
			continue
		}
		seen[h] = true
		refs := h.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			switch u := ref.(type) {
			case *ssa.Phi:
				handles = append(handles, u)
			case *ssa.ChangeType, *ssa.MakeInterface:
				handles = append(handles, u.(ssa.Value))
			case *ssa.Return, *ssa.Store, *ssa.MakeClosure, *ssa.Send, *ssa.MapUpdate:
				return false // handed to the caller or kept
			case ssa.CallInstruction:
				cc := u.Common()
				if cc.IsInvoke() && cc.Value == h {
					continue // a method of the handle itself
				}
				for i, a := range cc.Args {
					if a != h || (i == 0 && cc.Signature().Recv() != nil) {
						continue
					}
					if !e.isReleaseCall(cc) {
						return false // passed on: the callee may keep it
					}
				}
			}
		}
	}
	return true
}

// signalsAcquire: the function has a result a caller can test to know
// whether it holds the lock (an error, a bool, a pointer or interface).
func signalsAcquire(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		switch types.Unalias(sig.Results().At(i).Type()).Underlying().(type) {
		case *types.Pointer, *types.Interface, *types.Basic:
			return true
		}
	}
	return false
}

// markRegion puts r's instructions in r's scope. Where two regions
// overlap, an instruction belongs to the innermost lock, the one taken
// last: r takes over the instructions of the region its own acquire runs
// in (the lock held when r's was taken) and keeps it as r.scope.outer;
// any other earlier claim stands.
func (e *engine) markRegion(r *region) {
	var outer *Scope
	if r.call != nil {
		outer = e.instrScope[r.call]
	}
	if outer != nil && outer != r.scope && r.scope.outer == nil {
		r.scope.outer = outer
	}
	for b, ss := range r.spans {
		for _, s := range ss {
			for _, instr := range b.Instrs[s.from:s.to] {
				if cur := e.instrScope[instr]; cur == nil || (cur == outer && cur != r.scope) {
					e.instrScope[instr] = r.scope
				}
			}
		}
	}
}

// acquireToken names the token an acquire makes available, for messages.
func (e *engine) acquireToken(call *ssa.Call, ai acquireInfo) string {
	if ai.noToken {
		return ""
	}
	recv := "m"
	if c := e.callExpr(call.Pos()); c != nil {
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
			recv = types.ExprString(sel.X)
		}
	}
	switch {
	case ai.lease != nil:
		return "the " + ai.lease.minted + " its claim RETURNs"
	case ai.libRule != nil && ai.libRule.Token != "" && ai.libRule.LockResult:
		// l, err := Obtain(...): the lock is the result, named as assigned.
		if name := e.assignedName(call, 0); name != "" {
			return name + ai.libRule.Token
		}
		return "the " + strings.TrimPrefix(ai.libRule.Token, ".") + " of the " + ai.libRule.Lock
	case ai.libRule != nil && ai.libRule.Token != "":
		return recv + ai.libRule.Token
	case ai.leaseT != nil:
		if info, ok := e.leaseOf(ai.leaseT); ok && info.Token != nil {
			return "the lease's " + info.Token.Name()
		}
		if m := e.tokenMethodOf(ai.leaseT); m != "" {
			return "the lease's " + m + "()"
		}
	case ai.fromFact:
		return e.factToken(call, ai)
	case ai.etcdLock != nil:
		if name := e.assignedName(call, 0); name != "" {
			return name + ".Header.Revision"
		}
		return "the Header.Revision of the Txn's response"
	}
	return ""
}

// factToken names the token an acquire known from a fact or directive
// hands out, as the caller's code spells it: the variable its token result
// is assigned to ("tok"), or the token field of the handle it returns
// ("h.Seq"); otherwise "the token Acquire returns" (issue 18: a
// directive-made lock must still say what to fence with).
func (e *engine) factToken(call *ssa.Call, ai acquireInfo) string {
	fn := e.callee(call.Common())
	if fn == nil {
		return ""
	}
	sig := fn.Type().(*types.Signature)
	if ai.tokenResult >= 0 {
		if name := e.assignedName(call, ai.tokenResult); name != "" {
			return name
		}
		return "the token " + fn.Name() + " returns"
	}
	for i := 0; i < sig.Results().Len(); i++ {
		st, ok := derefStruct(sig.Results().At(i).Type())
		if !ok {
			continue
		}
		for j := 0; j < st.NumFields(); j++ {
			f := st.Field(j)
			if !e.isTokenField(f) && !e.isLeaseToken(sig.Results().At(i).Type(), f) {
				continue
			}
			if name := e.assignedName(call, i); name != "" {
				return name + "." + f.Name()
			}
			return "the " + f.Name() + " of what " + fn.Name() + " returns"
		}
	}
	return ""
}

func (e *engine) isLeaseToken(t types.Type, f *types.Var) bool {
	info, ok := e.leaseOf(t)
	return ok && info.Token == f
}

// assignedName returns the variable result i of call is assigned to in
// its function's syntax (tok in "tok, err := s.Acquire(ctx)"), "" if none.
func (e *engine) assignedName(call *ssa.Call, i int) string {
	ce := e.callExpr(call.Pos())
	fn := call.Parent()
	for fn != nil && fn.Syntax() == nil {
		fn = fn.Parent()
	}
	if ce == nil || fn == nil {
		return ""
	}
	name := ""
	ast.Inspect(fn.Syntax(), func(n ast.Node) bool {
		if name != "" {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || as.Rhs[0] != ce || i >= len(as.Lhs) {
			return true
		}
		if id, ok := as.Lhs[i].(*ast.Ident); ok && id.Name != "_" {
			name = id.Name
		}
		return false
	})
	return name
}

// failValues returns the values whose test tells failure from success.
type failSet struct {
	errs     map[ssa.Value]bool // nil means success
	nilFails map[ssa.Value]bool // nil means failure (lease pointer, consul channel)
	oks      map[ssa.Value]bool // true means success
	counts   map[ssa.Value]bool // rows a claim affected (leasetable.go), GET_LOCK's result: 0 means failure
}

func (e *engine) failValues(call *ssa.Call, ai acquireInfo) failSet {
	fs := failSet{errs: map[ssa.Value]bool{}, nilFails: map[ssa.Value]bool{}, oks: map[ssa.Value]bool{}, counts: map[ssa.Value]bool{}}
	classify := func(v ssa.Value) {
		t := v.Type()
		switch {
		case isError(t):
			fs.errs[v] = true
		case types.Identical(t.Underlying(), types.Typ[types.Bool]):
			fs.oks[v] = true
		default:
			switch t.Underlying().(type) {
			case *types.Pointer, *types.Chan, *types.Interface:
				fs.nilFails[v] = true
			}
		}
	}
	if tup, ok := call.Type().(*types.Tuple); ok {
		for _, ref := range *call.Referrers() {
			if ex, ok := ref.(*ssa.Extract); ok && ex.Index < tup.Len() {
				classify(ex)
			}
		}
	} else {
		classify(call)
	}
	if ai.success == rules.BoolCmdTrue || ai.success == rules.StatusCmdOK {
		// go-redis: the command's Val()/Result()/Err() tell success. A
		// method promoted from the embedded baseCmd (Err on a *Cmd) is
		// called on &cmd.baseCmd.
		var methodCalls []*ssa.Call
		for _, ref := range *call.Referrers() {
			switch r := ref.(type) {
			case *ssa.Call:
				if receiver(r.Common()) == call {
					methodCalls = append(methodCalls, r)
				}
			case *ssa.FieldAddr:
				if r.Referrers() == nil {
					continue
				}
				for _, r2 := range *r.Referrers() {
					if c, ok := r2.(*ssa.Call); ok && receiver(c.Common()) == ssa.Value(r) {
						methodCalls = append(methodCalls, c)
					}
				}
			}
		}
		for _, c := range methodCalls {
			if tup, ok := c.Type().(*types.Tuple); ok {
				for _, r2 := range *c.Referrers() {
					if ex, ok := r2.(*ssa.Extract); ok && ex.Index < tup.Len() {
						if types.Identical(ex.Type(), types.Typ[types.Bool]) || isError(ex.Type()) {
							classify(ex)
						}
					}
				}
			} else if types.Identical(c.Type(), types.Typ[types.Bool]) || isError(c.Type()) {
				classify(c)
			}
		}
		delete(fs.nilFails, call)
	}
	if ai.lease != nil {
		e.leaseFails(call, fs)
	}
	if ai.etcdLock != nil {
		etcdTxnSucceeded(call, fs) // !resp.Succeeded: someone else holds the key
	}
	if ai.advisory {
		// QueryRow("SELECT pg_try_advisory_lock($1)").Scan(&ok): the
		// scanned bool tells success, and Scan's error failure; a scanned
		// integer is GET_LOCK's 1 (taken) or 0 (timed out).
		delete(fs.nilFails, call) // a *sql.Row is never nil
		for _, ref := range *call.Referrers() {
			c, ok := ref.(*ssa.Call)
			if !ok || receiver(c.Common()) != call {
				continue
			}
			if fn := calleeFunc(c.Common()); fn == nil || fn.Name() != "Scan" {
				continue
			}
			if isError(c.Type()) {
				classify(c)
			}
			for _, a := range params(c.Common()) {
				dests, ok := unpackVariadic(a)
				if !ok {
					continue
				}
				for _, d := range dests {
					alloc, ok := stripValue(d).(*ssa.Alloc)
					if !ok || alloc.Referrers() == nil {
						continue
					}
					for _, r := range *alloc.Referrers() {
						load, ok := r.(*ssa.UnOp)
						if !ok || load.Op != token.MUL {
							continue
						}
						if b, ok := load.Type().Underlying().(*types.Basic); ok {
							switch {
							case b.Kind() == types.Bool:
								fs.oks[load] = true // pg_try_advisory_lock: true when taken
							case b.Info()&types.IsInteger != 0:
								fs.counts[load] = true // GET_LOCK: 1 when taken, 0 on timeout
							}
						}
					}
				}
			}
		}
	}
	return fs
}

// classifyCond says whether cond being true means the acquire failed.
func classifyCond(cond ssa.Value, fs failSet) (failOnTrue, known bool) {
	switch c := cond.(type) {
	case *ssa.UnOp:
		if c.Op == token.NOT {
			f, k := classifyCond(c.X, fs)
			return !f, k
		}
	case *ssa.BinOp:
		x, y := c.X, c.Y
		if isNilConst(x) {
			x, y = y, x
		}
		if fs.counts[c.X] || fs.counts[c.Y] {
			n, k, op := c.X, c.Y, c.Op
			if fs.counts[c.Y] {
				n, k, op = c.Y, c.X, mirrorOp(c.Op)
			}
			if kc, ok := k.(*ssa.Const); ok && kc.Value != nil && kc.Value.Kind() == constant.Int && fs.counts[n] {
				v, _ := constant.Int64Val(kc.Value)
				return classifyCount(op, v)
			}
			return false, false
		}
		if c.Op != token.EQL && c.Op != token.NEQ {
			return false, false
		}
		if fs.errs[x] {
			if isNilConst(y) {
				return c.Op == token.NEQ, true
			}
			// err == ErrLocked / err == redis.Nil: true means not acquired
			return c.Op == token.EQL, true
		}
		if fs.nilFails[x] && isNilConst(y) {
			return c.Op == token.EQL, true
		}
		if fs.oks[x] {
			if k, ok := y.(*ssa.Const); ok && k.Value != nil {
				isTrue := k.Value.String() == "true"
				return (c.Op == token.EQL) != isTrue, true
			}
		}
	case *ssa.Call:
		// errors.Is(err, ErrLocked): true means not acquired.
		if fn := calleeFunc(c.Common()); fn != nil && rules.ErrorMatchers[rules.Key(fn)] == "is" {
			if args := c.Common().Args; len(args) > 0 && fs.errs[args[0]] {
				return true, true
			}
		}
	}
	if fs.oks[cond] {
		return false, true
	}
	return false, false
}

func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// isReleaseFor reports whether c releases the lock of region r: directly,
// or through a closure, a returned unlock func or a wrapper (release.go).
func (e *engine) isReleaseFor(r *region, c *ssa.Call) bool {
	return e.releasesVia(r, c.Common(), asIs, 0)
}

// isReleaseForCC reports whether cc is a release of r's lock; in a closure
// body, outer maps its values to the caller's.
func (e *engine) isReleaseForCC(r *region, cc *ssa.CallCommon, outer valueMap) bool {
	fn := calleeFunc(cc)
	if fn == nil {
		return false
	}
	if e.runnerReleasesLock(cc) {
		return true // retry.Do(ctx, b, func(ctx) error { return l.Unlock(ctx) }) (retry.go)
	}
	if r.acq.lease != nil {
		if e.isLeaseRelease(cc, r.acq.lease.table) {
			return true // DELETE FROM locks WHERE name = $1 AND holder = $2
		}
		f := e.calleeFact(fn)
		return f != nil && f.Release
	}
	if r.acq.etcdLock != nil {
		if e.endsEtcdTxnLock(r.acq.etcdLock, cc) {
			return true // cli.Delete(ctx, key) or cli.Revoke(ctx, lease.ID)
		}
		f := e.calleeFact(fn)
		return f != nil && f.Release
	}
	if r.acq.advisory {
		release := e.advisorySQL(fn, cc).Release
		if !release {
			l, _ := e.forwardedAdvisory(cc)
			release = l.Release
		}
		return release
	}
	if releasesOther(r, cc, outer) {
		return false // m2.Unlock() inside m1's region: m1 is still held
	}
	if isRedigoRelease(cc) {
		return r.key != nil && e.sameKey(r, cc)
	}
	if _, release, ok := e.scriptBookkeepingKey(cc); ok {
		// unlock.Run(ctx, rdb, []string{key}, value): a compare-and-delete
		// script releases the SET NX lock on its key.
		return release && e.sameKey(r, cc)
	}
	if rules.IsRelease(fn) {
		if r.key == nil {
			if rules.IsKeyRelease(fn) {
				return false // rdb.Del(ctx, "cache:"+id) under a redsync or redislock lock
			}
			return r.acq.libRule != nil || r.acq.leaseT == nil
		}
		return e.sameKey(r, cc)
	}
	if f := e.calleeFact(fn); f != nil && f.Release {
		return true
	}
	if r.acq.leaseT != nil && rules.IsReleaseName(fn.Name()) {
		// lease.Release(ctx) or store.Release(ctx, lease)
		if recv := receiver(cc); recv != nil {
			if _, ok := e.leaseOf(recv.Type()); ok {
				return true
			}
		}
		for _, a := range params(cc) {
			if _, ok := e.leaseOf(a.Type()); ok {
				return true
			}
		}
	}
	return false
}

// releasesOther reports whether release call cc provably releases another
// lock than region r's: its receiver is a different object from both the
// acquire's receiver (m.Lock / m.Unlock) and the handle the acquire
// returned (lock, _ := c.Obtain(...); lock.Release). When that cannot be
// proven (parameters, phis, interfaces of unknown origin) the release ends
// the region, as before: a region cut short misses writes, one run too long
// would report writes made after the lock was released.
func releasesOther(r *region, cc *ssa.CallCommon, outer valueMap) bool {
	rel := receiver(cc)
	if rel == nil || r.call == nil {
		return false
	}
	rel = outer(rel)
	// The lock object: the handle the acquire returns (redislock's Obtain),
	// else the acquire's receiver (m.Lock).
	mine := callResults(r.call, isHandle)
	if len(mine) == 0 {
		recv := receiver(r.call.Common())
		if recv == nil {
			return false
		}
		mine = append(mine, recv)
	}
	for _, v := range mine {
		if !distinctObjects(v, rel) {
			return false
		}
	}
	return true
}

// callResults returns the results of call whose type satisfies keep: the
// call itself for a single result, its Extracts for a tuple.
func callResults(call *ssa.Call, keep func(types.Type) bool) []ssa.Value {
	var out []ssa.Value
	if keep(call.Type()) {
		out = append(out, call)
	}
	if refs := call.Referrers(); refs != nil {
		for _, ref := range *refs {
			if x, ok := ref.(*ssa.Extract); ok && keep(x.Type()) {
				out = append(out, x)
			}
		}
	}
	return out
}

// isHandle: a result that can be the receiver of a release (a pointer,
// struct or interface other than error), not a status (error, bool, int).
func isHandle(t types.Type) bool {
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	switch types.Unalias(t).Underlying().(type) {
	case *types.Pointer, *types.Struct, *types.Interface:
		return true
	}
	return false
}

// distinctObjects reports whether a and b provably denote different
// objects: two allocations, two globals, two fields of the same base, or
// two calls of one constructor with different arguments
// (NewMutex(s, "/a") and NewMutex(s, "/b")). Two calls with the same
// arguments may return one cached lock (locks.Get(id) twice), and calls of
// different functions may too, so neither counts.
func distinctObjects(a, b ssa.Value) bool {
	a, b = stripValue(a), stripValue(b)
	if a == b {
		return false
	}
	if fa, fb := fieldOf(a), fieldOf(b); fa != nil && fb != nil {
		return stripValue(fa.X) == stripValue(fb.X) && fa.Field != fb.Field
	}
	if ga, gb := globalOf(a), globalOf(b); ga != nil && gb != nil {
		return ga != gb
	}
	if ca, cb := callResult(a), callResult(b); ca != nil && cb != nil {
		return ca != cb && differentCalls(ca.Common(), cb.Common())
	}
	_, aa := a.(*ssa.Alloc)
	_, ab := b.(*ssa.Alloc)
	return aa && ab
}

// fieldOf returns the field address behind s.mu or *(&s.mu).
func fieldOf(v ssa.Value) *ssa.FieldAddr {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	fa, _ := v.(*ssa.FieldAddr)
	return fa
}

// globalOf returns the package-level variable behind g or *g.
func globalOf(v ssa.Value) *ssa.Global {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	g, _ := v.(*ssa.Global)
	return g
}

// callResult returns the call whose result (or a tuple element of it) v is.
func callResult(v ssa.Value) *ssa.Call {
	if x, ok := v.(*ssa.Extract); ok {
		v = x.Tuple
	}
	c, _ := v.(*ssa.Call)
	return c
}

// differentCalls: both call the same static function and some argument is
// built differently.
func differentCalls(a, b *ssa.CallCommon) bool {
	fa, fb := a.StaticCallee(), b.StaticCallee()
	if fa == nil || fa != fb || len(a.Args) != len(b.Args) {
		return false
	}
	for i := range a.Args {
		if keyFingerprint(a.Args[i], 0) != keyFingerprint(b.Args[i], 0) {
			return true
		}
	}
	return false
}

// inferRelease marks a package-level function that releases a lock (calls
// a release rules/ knows, a function with a Release fact, or SQL that
// unlocks an advisory lock) and acquires none as a release wrapper.
func (e *engine) inferRelease(f *ssa.Function) {
	fn, ok := f.Object().(*types.Func)
	if !ok || f.Parent() != nil {
		return
	}
	if ff := e.local[fn]; ff != nil && (ff.Acquire || ff.Release) {
		return
	}
	releases := false
	for _, instr := range e.callSites(f) {
		if cc, _ := callOf(instr); e.isReleaseCall(cc) || e.deletesLockObject(f, cc) {
			releases = true
			break
		}
	}
	if !releases {
		return // most functions: no need to look for acquires
	}
	for _, instr := range e.callSites(f) {
		if call, ok := instr.(*ssa.Call); ok {
			if _, ok := e.acquireOf(call); ok {
				return // it takes a lock too: an acquire or with-lock helper
			}
		}
	}
	e.factFor(fn).Release = true
	e.releases++
}

// isReleaseCall: a call that releases some lock, whichever.
func (e *engine) isReleaseCall(cc *ssa.CallCommon) bool {
	fn := calleeFunc(cc)
	if fn == nil {
		return false
	}
	if rules.IsRelease(fn) {
		_, isWrite := e.writeOf(fn)
		return !isWrite // go-redis Del releases only a SET NX lock's own key
	}
	if f := e.calleeFact(fn); f != nil && f.Release {
		return true
	}
	if e.runnerReleasesLock(cc) {
		return true
	}
	release := e.advisorySQL(fn, cc).Release
	if !release {
		l, _ := e.forwardedAdvisory(cc)
		release = l.Release
	}
	return release || e.isLeaseRelease(cc, "")
}

// advisorySQL reads the constant SQL of a database write call fn(cc...)
// as the SQL of a database's own lock: a PostgreSQL advisory lock or a
// MySQL named lock (the zero SQLLock for other calls).
func (e *engine) advisorySQL(fn *types.Func, cc *ssa.CallCommon) rules.SQLLock {
	w, ok := rules.WriteOf(fn)
	if !ok || w.Kind != rules.SQLWrite || w.QueryArg < 0 {
		return rules.SQLLock{}
	}
	ps := params(cc)
	if w.QueryArg >= len(ps) {
		return rules.SQLLock{}
	}
	q, ok := e.lockSQLString(ps[w.QueryArg])
	if !ok {
		return rules.SQLLock{}
	}
	return rules.AdvisoryLock(q)
}

// sameKey reports whether a key-value call addresses the region's lock
// key. Only key positions count (the key argument, or the keys of a
// variadic DEL), so a lock key stored as a set member is still a write.
// Keys are compared by how they are built: "lock:"+id twice, or
// fmt.Sprintf("lock:%s", id) twice, is the same key.
func (e *engine) sameKey(r *region, cc *ssa.CallCommon) bool {
	if r.key == nil {
		return false
	}
	want := keyFingerprint(r.key, 0)
	for _, k := range e.kvKeys(cc) {
		if k != nil && keyFingerprint(k, 0) == want {
			return true
		}
	}
	return false
}

// kvKeys returns the key arguments of a key-value command: redigo's by
// command name, the lock key of a release or renew script
// (scriptBookkeepingKey), else the first argument after an optional
// context (go-redis's rdb.Del(ctx, keys...), rdb.Expire(ctx, key, ttl),
// go-zero's rds.Del(keys...)), the keys of a variadic DEL one by one.
func (e *engine) kvKeys(cc *ssa.CallCommon) []ssa.Value {
	if keys, ok := e.redigoKeys(cc); ok {
		return keys
	}
	if key, _, ok := e.scriptBookkeepingKey(cc); ok {
		return []ssa.Value{key}
	}
	ps := params(cc)
	if len(ps) > 0 && isContext(ps[0].Type()) {
		ps = ps[1:]
	}
	if len(ps) == 0 {
		return nil
	}
	if keys, ok := unpackVariadic(ps[0]); ok && len(ps) == 1 {
		return keys
	}
	return ps[:1]
}

// keyFingerprint renders how a key value is built: constants by value,
// concatenations and calls of static functions structurally, anything
// else by SSA identity.
func keyFingerprint(v ssa.Value, depth int) string {
	v = boundValue(stripValue(v))
	if s, ok := constString(v); ok {
		return strconv.Quote(s)
	}
	if depth > 6 {
		return fmt.Sprintf("%p", v)
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		// A variable read: the same variable, in the function or in a
		// closure that captured it (the release func an acquire helper
		// returns deletes "lock:"+key of its enclosing call).
		if a, ok := boundValue(x.X).(*ssa.Alloc); ok && x.Op == token.MUL {
			return fmt.Sprintf("*%p", a)
		}
	case *ssa.BinOp:
		return "(" + keyFingerprint(x.X, depth+1) + x.Op.String() + keyFingerprint(x.Y, depth+1) + ")"
	case *ssa.Call:
		if fn := calleeFunc(x.Common()); fn != nil && !x.Common().IsInvoke() {
			var b strings.Builder
			b.WriteString(fn.FullName() + "(")
			for _, a := range x.Common().Args {
				if vals, ok := unpackVariadic(a); ok {
					for _, el := range vals {
						b.WriteString(keyFingerprint(el, depth+1) + ",")
					}
					continue
				}
				b.WriteString(keyFingerprint(a, depth+1) + ",")
			}
			return b.String() + ")"
		}
	}
	return fmt.Sprintf("%p", v)
}

// boundValue returns, for a free variable of a function literal made
// once in its enclosing function, the value the closure captured there;
// any other value unchanged.
func boundValue(v ssa.Value) ssa.Value {
	for range 4 {
		fv, ok := v.(*ssa.FreeVar)
		if !ok {
			return v
		}
		anon := fv.Parent()
		idx := slices.Index(anon.FreeVars, fv)
		if idx < 0 || anon.Parent() == nil {
			return v
		}
		var bound ssa.Value
		for _, b := range anon.Parent().Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == anon && idx < len(mc.Bindings) {
					if bound != nil {
						return v // made more than once: not one value
					}
					bound = mc.Bindings[idx]
				}
			}
		}
		if bound == nil {
			return v
		}
		v = stripValue(bound)
	}
	return v
}

// inferWrapper records acquire wrappers and with-lock helpers as facts.
func (e *engine) inferWrapper(f *ssa.Function, r *region, reachesReturn bool) {
	fn, ok := f.Object().(*types.Func)
	if !ok {
		if f.Parent() != nil && reachesReturn && !hasDeferredRelease(e, f) {
			e.noteHeldAtReturn(f, r) // a function literal a retry runner may run (retry.go)
		}
		return
	}
	ordered := r.instrs(f)
	// with-lock helper: calls a func parameter inside the region.
	for _, instr := range ordered {
		c, ok := instr.(*ssa.Call)
		if !ok {
			continue
		}
		// m.callbacks.OnStartedLeading(ctx): a func field of this
		// package's config struct called under the lock is a callback
		// field (kube-vip's etcd election).
		if ld, ok := c.Common().Value.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if fa, ok := ld.X.(*ssa.FieldAddr); ok {
				e.recordCallbackField(fa.X.Type(), fa.Field, r.scope)
			}
			continue
		}
		p, ok := c.Common().Value.(*ssa.Parameter)
		if !ok {
			continue
		}
		idx := paramIndex(f, p)
		if idx < 0 {
			continue
		}
		ff := e.factFor(fn)
		if ff.Callback < 0 {
			e.wrappers++
		}
		ff.Callback = idx
		ff.NoToken = r.scope.NoToken
		for j, a := range c.Common().Args {
			if _, ok := e.leaseOf(a.Type()); ok || rules.IsLockType(a.Type()) || e.originOf(a).isToken() {
				ff.LeaseArg = j
				break
			}
		}
		return
	}
	if !reachesReturn || hasDeferredRelease(e, f) {
		return
	}
	// acquire wrapper: the lock is still held when the function returns.
	ff := e.factFor(fn)
	if !ff.Acquire {
		e.wrappers++
	}
	ff.Acquire = true
	ff.Lock = r.scope.Lock
	if key := e.receiverSession(r.scope); key != "" {
		// A method that locks its receiver's connection (p.conn): callers
		// in this package hold the lock on that field too.
		if e.wrapperSessions == nil {
			e.wrapperSessions = map[*types.Func]string{}
		}
		e.wrapperSessions[fn] = key
	}
	ff.Constructed = r.acq.constructed
	ff.OwnLock = r.acq.ownLock
	sig := f.Signature
	hasLease := false
	for i := 0; i < sig.Results().Len(); i++ {
		if _, ok := e.leaseOf(sig.Results().At(i).Type()); ok {
			hasLease = true
		}
	}
	for _, instr := range ordered {
		ret, ok := instr.(*ssa.Return)
		if !ok {
			continue
		}
		for i, v := range ret.Results {
			if e.originOf(v).isToken() {
				ff.TokenResult = i
			}
		}
	}
	ff.NoToken = r.scope.NoToken && ff.TokenResult < 0 && !hasLease
}

func paramIndex(f *ssa.Function, p *ssa.Parameter) int {
	first := 0
	if f.Signature.Recv() != nil {
		first = 1
	}
	for i, q := range f.Params[first:] {
		if q == p {
			return i
		}
	}
	return -1
}

func hasDeferredRelease(e *engine, f *ssa.Function) bool {
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			if e.deferredReleaseShape(d) || e.isLeaseRelease(d.Common(), "") {
				return true
			}
			fn := calleeFunc(d.Common())
			if fn == nil {
				continue
			}
			if rules.IsRelease(fn) || rules.IsReleaseName(fn.Name()) && !closesSQLResult(fn) {
				return true
			}
			if ff := e.calleeFact(fn); ff != nil && ff.Release {
				return true
			}
		}
	}
	return false
}

// propagateClosures: closures and goroutines started inside a scope run
// inside it.
func (e *engine) propagateClosures(f *ssa.Function) {
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			s := e.scopeOf(f, instr)
			fn, _ := mc.Fn.(*ssa.Function)
			if s == nil || fn == nil || e.bodyScope[fn] != nil {
				continue
			}
			e.bodyScope[fn] = s
		}
	}
}

func (e *engine) scopeOf(f *ssa.Function, instr ssa.Instruction) *Scope {
	if s := e.instrScope[instr]; s != nil {
		if bs := e.bodyScope[f]; bs != nil && s.Kind == ScopeLeaderCheck {
			return bs // a lease held by the whole body (or inherited by a closure) says more
		}
		return s
	}
	return e.bodyScope[f]
}
