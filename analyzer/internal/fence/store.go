package fence

import (
	"fmt"
	"go/constant"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/fencelint/fencelint/analyzer/internal/ddbcond"
	"github.com/fencelint/fencelint/internal/lazyregexp"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// evalDynamo models PutItem / UpdateItem / DeleteItem: the fence is the
// ConditionExpression, compared with an ExpressionAttributeValues entry
// derived from the token (or built with the expression package from it).
func (e *engine) evalDynamo(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	if w.InputArg >= len(ps) {
		return &eval{}
	}
	fs, ok := fieldStores(ps[w.InputArg])
	if !ok {
		return &eval{isWrite: true, verdict: Unknown}
	}
	method := ""
	if fn := calleeFunc(cc); fn != nil {
		method = fn.Name()
	}
	ev := e.judgeDynamoItem(fs, method)
	if ev.ddbRead != nil {
		ev.cond = ev.ddbRead.condition()
	}
	return ev
}

func (e *engine) judgeDynamoItem(fs map[string]ssa.Value, method string) *eval {
	ev := &eval{isWrite: true, store: "DynamoDB"}
	if t, ok := constString(fs["TableName"]); ok {
		ev.target = t
	}
	cond, has := fs["ConditionExpression"]
	if !has {
		ev.verdict = Unfenced
		ev.detail = "it has no ConditionExpression"
		ev.blind = true
		return ev
	}
	r := e.readDynamo(fs, method)
	ev.ddbRead = r
	if r.text == "" {
		// Built with the expression package (expr.Condition()), or elsewhere.
		if len(publicCompares(r.cmps)) == 0 {
			if o := e.originOf(cond); o != nil && o.param >= 0 {
				ev.fencedBy = []int{o.param}
				ev.verdict = Unfenced
				ev.detail = "its ConditionExpression compares no value derived from the token"
				return ev
			} else if o != nil {
				ev.verdict = Fenced
				if o.weak {
					ev.verdict = WeakToken
				}
				return ev
			}
			if isExpressionCondition(cond) {
				ev.verdict = Unfenced
				ev.detail = "its ConditionExpression compares no value derived from the token"
				return ev
			}
			ev.verdict = Unknown
			return ev
		}
	} else if !r.parsed {
		ev.verdict = Unknown
		return ev
	}
	var fenced, wrong, weak bool
	var params []int
	bypass := ""
	for _, c := range r.cmps {
		if c.bypass != "" {
			if c.o.isToken() && bypass == "" {
				bypass = c.bypass
			}
			continue
		}
		if c.o.param >= 0 {
			params = appendUnique(params, c.o.param)
			continue
		}
		if c.o.weak {
			weak = true
			continue
		}
		switch {
		case c.decimal && orderOp(c.pub.Op):
			wrong = true // an S attribute: "9" > "10"
		case validDirection(c.pub.Op):
			fenced = true
		default:
			wrong = true
		}
	}
	switch {
	case fenced:
		ev.verdict = Fenced
	case wrong:
		ev.verdict = WrongPredicate
	case weak:
		ev.verdict = WeakToken
	case len(params) == 0 && r.valuesUnknown && len(ddbcond.Placeholders(r.text)) > 0:
		// The condition compares :values we cannot see (a map built by a
		// helper or passed in): one may be the token.
		ev.verdict = Unknown
	case bypass != "":
		ev.verdict = Unfenced
		ev.detail = fmt.Sprintf("its ConditionExpression compares the token inside an OR, %q: the item is written when any alternative holds, so the fence does not bind", bypass)
	default:
		ev.fencedBy = params
		ev.verdict = Unfenced
		ev.detail = "its ConditionExpression does not compare the fence attribute with the token"
	}
	return ev
}

// isExpressionCondition: expr.Condition() from the expression builder.
func isExpressionCondition(v ssa.Value) bool {
	c, ok := stripValue(v).(*ssa.Call)
	if !ok {
		return false
	}
	fn := calleeFunc(c.Common())
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == expressionPkg
}

// evalDynamoTransact: the transaction is one unit, fenced when one of its
// items (a ConditionCheck included) is fenced.
func (e *engine) evalDynamoTransact(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	ev := &eval{isWrite: true, store: "DynamoDB"}
	if w.InputArg >= len(ps) {
		return &eval{}
	}
	fs, ok := fieldStores(ps[w.InputArg])
	if !ok {
		ev.verdict = Unknown
		return ev
	}
	items, has := fs["TransactItems"]
	if !has {
		if _, batch := fs["RequestItems"]; batch {
			ev.verdict = Unfenced
			ev.detail = "BatchWriteItem has no condition at all"
			ev.blind = true
			return ev
		}
		ev.verdict = Unknown
		return ev
	}
	elems, ok := sliceElems(items)
	if !ok {
		ev.verdict = Unknown
		return ev
	}
	result := Unfenced
	for _, el := range elems {
		efs, ok := fieldStores(el)
		if !ok {
			result = Unknown
			continue
		}
		for _, k := range []string{"Put", "Update", "Delete", "ConditionCheck"} {
			v, has := efs[k]
			if !has {
				continue
			}
			ifs, ok := fieldStores(v)
			if !ok {
				result = Unknown
				continue
			}
			iev := e.judgeDynamoItem(ifs, k)
			if iev.ddbRead != nil {
				ev.ddbReads = append(ev.ddbReads, iev.ddbRead)
			}
			switch iev.verdict {
			case Fenced:
				ev.verdict = Fenced
				ev.ddbReads = nil
				return ev
			case WrongPredicate:
				result = WrongPredicate
			case WeakToken:
				if result != WrongPredicate {
					result = WeakToken
				}
			case Unknown:
				if result == Unfenced {
					result = Unknown
				}
			}
		}
	}
	ev.verdict = result
	if result == Unfenced {
		ev.detail = "no item of the transaction compares the fence attribute with the token"
	}
	ev.cond = &Condition{Unit: true}
	for _, r := range ev.ddbReads {
		ev.cond.Compares = append(ev.cond.Compares, publicCompares(r.cmps)...)
	}
	return ev
}

// sliceElems returns the elements of a slice literal.
func sliceElems(v ssa.Value) ([]ssa.Value, bool) {
	v = stripValue(v)
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil, false
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil, false
	}
	var out []ssa.Value
	for _, r := range *alloc.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok || ia.X != alloc {
			continue
		}
		// Elements are structs stored field by field through ia, or whole
		// values stored at ia.
		if ss := storesTo(ia); len(ss) > 0 {
			out = append(out, ss...)
			continue
		}
		out = append(out, ia) // a struct element built in place
	}
	return out, true
}

// evalS3: a precondition (IfMatch / IfNoneMatch) or a token in the key.
func (e *engine) evalS3(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	if w.InputArg >= len(ps) {
		return &eval{}
	}
	fs, ok := fieldStores(ps[w.InputArg])
	ev := &eval{isWrite: true, store: "S3"}
	if !ok {
		ev.verdict = Unknown
		return ev
	}
	if k, ok := constString(fs["Key"]); ok {
		ev.target = k
	}
	for _, p := range rules.S3Preconditions {
		if _, has := fs[p]; has {
			ev.verdict = Fenced
			return ev
		}
	}
	return e.keyFence(ev, fs["Key"], "it has no IfMatch/IfNoneMatch precondition and its key does not carry the token")
}

// keyFence judges an object-store write that has no precondition by its
// key (S3 key, GCS object name, Azure blob name): one per token fences it
// (weakly for a weak token); a key built from a parameter tells callers
// which parameter would fence it (FencedBy); anything else is unfenced,
// for the reason detail gives. key may be nil (no key seen).
func (e *engine) keyFence(ev *eval, key ssa.Value, detail string) *eval {
	if key != nil {
		if o := e.originOf(key); o != nil && o.param >= 0 {
			ev.fencedBy, ev.byKey = []int{o.param}, true
		} else if o != nil {
			ev.verdict = Fenced
			if o.weak && !uniqueName(o, key) {
				ev.verdict = WeakToken
			}
			return ev
		}
	}
	ev.verdict = Unfenced
	ev.detail = detail
	ev.blind = len(ev.fencedBy) == 0
	return ev
}

// uniqueName: o, a random value (a UUID), makes the object name or key v
// it is part of new on every write: such a write creates an object no
// other holder writes, so it cannot overwrite a newer holder's data (a
// temporary file before a conditional rename). A clock reading in a name
// stays weak: readers that pick the newest name trust its order.
func uniqueName(o *origin, v ssa.Value) bool {
	return o.weak && o.rule != nil && o.rule.Weak == rules.WeakRandom && !rules.IsIntegerLike(stripValue(v).Type())
}

var (
	argvRe    = lazyregexp.New(`ARGV\[(\d+)\]`)
	luaCmpRe  = lazyregexp.New(`(<=|>=|==|~=|<|>)`)
	luaWrites = lazyregexp.New(`(?i)redis\.p?call\(\s*['"](set|setex|psetex|hset|hmset|del|unlink|incr|incrby|decr|lpush|rpush|sadd|zadd|expire|pexpire|append|hdel|hincrby|mset|rename|xadd|lset|lrem|srem|zrem)['"]`)
)

// evalRedisScript: a script is fenced when it compares a token passed in
// ARGV with the stored fence before writing.
func (e *engine) evalRedisScript(cc *ssa.CallCommon, w *rules.Write) *eval {
	ps := params(cc)
	var script string
	var ok bool
	if w.QueryArg >= 0 && w.QueryArg < len(ps) {
		script, ok = constString(ps[w.QueryArg])
	} else if r := receiver(cc); r != nil {
		script, ok = e.scriptSource(r)
	}
	if !ok {
		return &eval{}
	}
	var args []ssa.Value
	if w.ArgsFrom < len(ps) {
		args, _ = unpackVariadic(ps[w.ArgsFrom])
	}
	return e.evalScriptText(script, args, func(compared map[int]bool) *RedisShape {
		return e.redisScriptShape(cc, w, script, compared)
	})
}

// evalScriptText judges a Lua script run with ARGV args: the reading of a
// script call, and of a call of a helper that forwards its script
// (forward.go). shape records the call's shape for the Redis proof.
func (e *engine) evalScriptText(script string, args []ssa.Value, shape func(compared map[int]bool) *RedisShape) *eval {
	if !luaWrites.MatchString(script) {
		return &eval{} // a read-only script
	}
	ev := &eval{isWrite: true, store: "Redis"}
	compared := comparedArgv(script)
	ev.redis = shape(compared)
	return e.judgeScript(ev, script, compared, args)
}

// judgeScript decides a write script's verdict from the ARGV it compares
// (compared, 1-based) and the values bound to ARGV (args[n-1]).
func (e *engine) judgeScript(ev *eval, script string, compared map[int]bool, args []ssa.Value) *eval {
	sawCompare := false
	for n := range compared {
		if n >= 1 && n <= len(args) && args[n-1] != nil {
			if _, isConst := stripValue(args[n-1]).(*ssa.Const); isConst {
				// A compile-time constant (asynq passes math.MaxInt64 to
				// wrap a counter) is neither a token nor an owner's value
				// that a check could be about: the comparison fences nothing.
				continue
			}
		}
		sawCompare = true
		if n < 1 || n > len(args) || args[n-1] == nil {
			continue
		}
		if o := e.originOf(args[n-1]); o != nil {
			if o.param >= 0 {
				ev.fencedBy = appendUnique(ev.fencedBy, o.param)
				continue
			}
			ev.verdict = Fenced
			if o.weak {
				ev.verdict = WeakToken
			} else if why := luaWrongWay(script, n); why != "" {
				ev.verdict = Unfenced
				ev.detail = why
			} else if why := luaUnrecorded(script); why != "" {
				ev.verdict = Unfenced
				ev.detail = why
			}
			return ev
		}
	}
	if sawCompare && len(ev.fencedBy) == 0 {
		// An ownership check against a value we cannot trace: not guessed.
		ev.verdict = Unknown
		return ev
	}
	ev.verdict = Unfenced
	ev.detail = "the script compares no token passed in ARGV"
	return ev
}

// redisScriptShape records a script write for the Redis proof: its
// source, KEYS (the argument before ARGV) and ARGV.
func (e *engine) redisScriptShape(cc *ssa.CallCommon, w *rules.Write, script string, compared map[int]bool) *RedisShape {
	sh := &RedisShape{Script: script, Variadic: -1}
	if fn := calleeFunc(cc); fn != nil {
		sh.Command = fn.Name()
	}
	ps := params(cc)
	if k := w.ArgsFrom - 1; k >= 0 && k < len(ps) {
		if keys, ok := e.argsOf(stripValue(ps[k])); ok {
			sh.Keys = keys
		} else {
			sh.KeysUnread = true
		}
	} else {
		sh.KeysUnread = true
	}
	if w.ArgsFrom < len(ps) {
		if args, ok := e.argsOf(ps[w.ArgsFrom]); ok {
			sh.ScriptArgs = args
		} else {
			sh.ScriptArgsUnread = true
		}
	}
	for n := range compared {
		sh.Compared = append(sh.Compared, n)
	}
	sort.Ints(sh.Compared)
	return sh
}

// scriptSource follows a *redis.Script to redis.NewScript("...").
func (e *engine) scriptSource(v ssa.Value) (string, bool) {
	switch x := stripValue(v).(type) {
	case *ssa.Call:
		if fn := calleeFunc(x.Common()); fn != nil && fn.Name() == "NewScript" && len(x.Common().Args) == 1 {
			return constString(x.Common().Args[0])
		}
	case *ssa.UnOp:
		if g, ok := x.X.(*ssa.Global); ok {
			return e.globalScript(g)
		}
	}
	return "", false
}

// globalScript finds `var s = redis.NewScript("...")` in the package's
// init function (Globals have no referrers in SSA).
func (e *engine) globalScript(g *ssa.Global) (string, bool) {
	if g.Pkg != e.pkg {
		return "", false
	}
	init := e.pkg.Func("init")
	if init == nil {
		return "", false
	}
	for _, b := range init.Blocks {
		for _, instr := range b.Instrs {
			if s, ok := instr.(*ssa.Store); ok && s.Addr == g {
				return e.scriptSource(s.Val)
			}
		}
	}
	return "", false
}

// comparedArgv returns the ARGV indexes that appear in a comparison in
// the script (same line as a comparison operator, or inside tonumber()).
func comparedArgv(script string) map[int]bool {
	out := map[int]bool{}
	for _, line := range strings.Split(script, "\n") {
		// An ARGV that is only an argument of a command whose reply is
		// compared (redis.call("ZADD", k, ARGV[3], id) ~= 1) is not itself
		// compared: look at the line without its redis.call(...) spans.
		line = stripRedisCalls(stripLuaStrings(line))
		if !luaCmpRe.MatchString(line) {
			continue
		}
		for _, m := range argvRe.FindAllStringSubmatch(line, -1) {
			if n, err := strconv.Atoi(m[1]); err == nil {
				out[n] = true
			}
		}
	}
	// local tok = tonumber(ARGV[2]) ... if cur >= tok then
	// A local holding a command's reply (local old = redis.call("ZRANGE",
	// k, "-inf", ARGV[4])) holds no ARGV: the spans are stripped first.
	for _, m := range regexp.MustCompile(`local\s+(\w+)\s*=\s*[^\n]*ARGV\[(\d+)\]`).FindAllStringSubmatch(stripRedisCallsLines(script), -1) {
		name, n := m[1], m[2]
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
		for _, line := range strings.Split(script, "\n") {
			if strings.Contains(line, "local "+name) {
				continue
			}
			if re.MatchString(line) && luaCmpRe.MatchString(stripLuaStrings(line)) {
				if i, err := strconv.Atoi(n); err == nil {
					out[i] = true
				}
			}
		}
	}
	return out
}

// stripRedisCalls replaces each redis.call(...) or redis.pcall(...) in
// line, up to its balanced closing parenthesis, with a placeholder; an
// unbalanced call (continued on the next line) is left as it is.
func stripRedisCalls(line string) string {
	for {
		i := strings.Index(line, "redis.call(")
		n := len("redis.call(")
		if j := strings.Index(line, "redis.pcall("); j >= 0 && (i < 0 || j < i) {
			i, n = j, len("redis.pcall(")
		}
		if i < 0 {
			return line
		}
		depth, end := 1, -1
		for k := i + n; k < len(line) && end < 0; k++ {
			switch line[k] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					end = k
				}
			}
		}
		if end < 0 {
			return line
		}
		line = line[:i] + "REPLY" + line[end+1:]
	}
}

// stripRedisCallsLines is stripRedisCalls on every line of script.
func stripRedisCallsLines(script string) string {
	lines := strings.Split(script, "\n")
	for i, l := range lines {
		lines[i] = stripRedisCalls(l)
	}
	return strings.Join(lines, "\n")
}

func stripLuaStrings(line string) string {
	if i := strings.Index(line, "--"); i >= 0 {
		line = line[:i]
	}
	return line
}

var _ = fmt.Sprint

// evalGCS: a Cloud Storage write is fenced by a precondition on its
// object handle (If(Conditions{GenerationMatch: g}), DoesNotExist, ...,
// anything but zero) or by the token in the object name. It follows the
// handle back through If, Generation and the other handle methods (and
// CopierFrom/ComposerFrom for copies) to Bucket(...).Object(name). A
// handle that comes from elsewhere (a parameter, a field) may carry
// conditions we cannot see: unknown.
func (e *engine) evalGCS(cc *ssa.CallCommon) *eval {
	return e.gcsHandle(receiver(cc), false, 0)
}

// gcsHandle judges a write on object handle v, conditioned already when
// an If seen closer to the write set a precondition. A handle returned by
// a helper of this package (c.stateFile(), c.lockFile()) is followed into
// the helper's returns; the verdict holds when every return agrees.
func (e *engine) gcsHandle(v ssa.Value, conditioned bool, depth int) *eval {
	ev := &eval{isWrite: true, store: "GCS", verdict: Unknown}
	for ; depth < 16; depth++ {
		call, ok := stripValue(v).(*ssa.Call)
		if !ok {
			return ev
		}
		fn := calleeFunc(call.Common())
		if fn == nil {
			return ev
		}
		if fn.Pkg() == nil || fn.Pkg().Path() != rules.GCSPkg {
			return e.gcsHelperHandle(call, conditioned, depth)
		}
		ps := params(call.Common())
		switch name := fn.Name(); {
		case name == "Object":
			if len(ps) == 0 {
				return ev
			}
			if n, ok := constString(ps[0]); ok {
				ev.target = n
			}
			if conditioned {
				ev.verdict = Fenced
				return ev
			}
			return e.keyFence(ev, ps[0], "it has no If(Conditions{...}) precondition and its object name does not carry the token")
		case name == "If":
			if len(ps) == 0 {
				return ev
			}
			fs, ok := fieldStores(ps[0])
			if !ok {
				return ev // conditions built elsewhere
			}
			for _, p := range rules.GCSPreconditions {
				if val, has := fs[p]; has && !isZeroConst(val) {
					conditioned = true
				}
			}
		case name == "Generation":
			conditioned = true // one generation: a delete or update of exactly it
		case rules.GCSHandleMethods[name]:
		default:
			return ev
		}
		v = receiver(call.Common())
	}
	return ev
}

// gcsHelperHandle follows a handle that a function of this package
// returns. The helper's own values cannot be mapped to the caller's
// parameters, so a verdict from inside it tells the caller no fence
// parameter (fencedBy is dropped: the write is blind for the caller).
func (e *engine) gcsHelperHandle(call *ssa.Call, conditioned bool, depth int) *eval {
	unknown := &eval{isWrite: true, store: "GCS", verdict: Unknown}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg != e.pkg || len(callee.Blocks) == 0 || depth >= 8 {
		return unknown
	}
	var out *eval
	for _, b := range callee.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		ev := e.gcsHandle(ret.Results[0], conditioned, depth+1)
		if ev.verdict == Unknown || len(ev.fencedBy) > 0 && ev.verdict != Unfenced {
			return unknown
		}
		if len(ev.fencedBy) > 0 {
			ev.fencedBy, ev.blind = nil, true
		}
		if out != nil && (out.verdict != ev.verdict || out.target != ev.target) {
			return unknown // the returns disagree
		}
		out = ev
	}
	if out == nil {
		return unknown
	}
	return out
}

// isZeroConst: a constant 0 or false (GCS treats a zero condition as none).
func isZeroConst(v ssa.Value) bool {
	c, ok := stripValue(v).(*ssa.Const)
	if !ok {
		return false
	}
	if c.Value == nil {
		return c.IsNil()
	}
	switch c.Value.Kind() {
	case constant.Bool:
		return !constant.BoolVal(c.Value)
	case constant.Int:
		return constant.Sign(c.Value) == 0
	}
	return false
}

// evalAzure: an Azure Blob write is fenced by a precondition in its
// options' AccessConditions (or a blob lease ID, which the service checks
// for that blob) or by the token in the blob name: the name argument of
// azblob.Client's methods, or the name a blob client was made for
// (container.NewBlockBlobClient(name)). Options or clients built
// elsewhere may carry what we cannot see: unknown.
func (e *engine) evalAzure(cc *ssa.CallCommon, w *rules.Write) *eval {
	ev := &eval{isWrite: true, store: "Azure Blob", verdict: Unknown}
	ps := params(cc)
	if w.InputArg >= len(ps) {
		return ev
	}
	conditioned, ok := e.azureConditioned(ps[w.InputArg])
	if !ok {
		return ev
	}
	if conditioned {
		ev.verdict = Fenced
		return ev
	}
	var name ssa.Value
	if w.KeyArg >= 0 && w.KeyArg < len(ps) {
		name = ps[w.KeyArg]
	} else if call, ok := stripValue(receiver(cc)).(*ssa.Call); ok {
		if fn := calleeFunc(call.Common()); fn != nil && rules.AzureClientCtors[fn.Name()] {
			if cps := params(call.Common()); len(cps) > 0 {
				name = cps[0]
			}
		}
	}
	if name == nil {
		return ev // a client made elsewhere, for a name we cannot see
	}
	if n, ok := constString(name); ok {
		ev.target = n
	}
	return e.keyFence(ev, name, "it has no AccessConditions precondition (IfMatch, IfNoneMatch, IfTags, a lease ID) and its blob name does not carry the token")
}

// azureConditioned reads an options value: conditioned when its
// AccessConditions set a precondition; ok is false when the options (or
// their conditions) are built where we cannot see them.
func (e *engine) azureConditioned(opts ssa.Value) (conditioned, ok bool) {
	if c, isConst := stripValue(opts).(*ssa.Const); isConst && c.IsNil() {
		return false, true // nil options: no conditions
	}
	fs, ok := fieldStores(opts)
	if !ok {
		return false, false
	}
	ac, has := fs["AccessConditions"]
	if !has {
		return false, true
	}
	if c, isConst := stripValue(ac).(*ssa.Const); isConst && c.IsNil() {
		return false, true
	}
	acs, ok := fieldStores(ac)
	if !ok {
		return false, false
	}
	for group, fields := range rules.AzureConditions {
		v, has := acs[group]
		if !has {
			continue
		}
		gs, ok := fieldStores(v)
		if !ok {
			return false, false
		}
		for _, f := range fields {
			if x, has := gs[f]; has && !isZeroConst(x) {
				conditioned = true
			}
		}
	}
	return conditioned, true
}
