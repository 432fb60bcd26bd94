package fence

import (
	"go/constant"
	"go/token"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// The concrete shape of an etcd or Redis write, as the engine read it:
// data only (no SSA values), so that the store proofs
// (analyzer/internal/storeproof) can replay the write against a real server
// and check the verdict. Nothing in the engine decides on these fields.

// Arg is one argument of a write as read: a constant, a value derived from
// a fencing token, or anything else (Kind "" and no Token: a value the
// program computes, which the proofs choose).
type Arg struct {
	// Kind is the constant's kind ("string", "int", "float", "bool",
	// "nil"), or "" when the value is not a constant.
	Kind  string
	Const string // the constant, as a Go literal value (unquoted for strings)
	// Token is set when the value derives from a fencing token: the
	// token's origin ("e.Rev()", "lease.Token"). Weak: not monotonic.
	Token string
	Weak  bool
	// Source names the etcd recipe call the value is, when it is one
	// directly: "Rev", "Header().Revision", "Key", "IsOwner".
	Source string
	// LockKey: the value is the key of an etcd mutex or election (e.Key(),
	// m.Key(), or a field only ever set from one).
	LockKey bool
}

// EtcdShape is an etcd write: a Put, a Delete or a Txn's Commit.
type EtcdShape struct {
	Method string // "Put", "Delete" or "Commit"
	Key    Arg    // Put and Delete: the key
	// If are a Txn's If compares, in order; IfUnread is set when some were
	// built where the engine cannot read them (a slice from elsewhere).
	If       []EtcdCmp
	IfUnread bool
	// Then are a Txn's Then operations; ThenUnread as for If.
	Then       []EtcdOp
	ThenUnread bool
	// Options are a Put's or Delete's OpOptions (clientv3.WithLease(x)):
	// the function's name and its argument; OptionsUnread is set when
	// they were built elsewhere.
	Options       []EtcdOption
	OptionsUnread bool
}

// EtcdOption is one clientv3 OpOption call.
type EtcdOption struct {
	Name string // "WithLease", "WithPrevKV", ...; "" when not read
	Arg  Arg
	// LockLease: WithLease(sess.Lease()) with sess the session of the
	// Mutex or Election that opened the write's scope.
	LockLease bool
}

// EtcdCmp is one If compare: m.IsOwner(), or
// clientv3.Compare(Target(Key), Op, Value). Unread: neither form.
type EtcdCmp struct {
	IsOwner bool
	Target  string // "Value", "CreateRevision", "ModRevision", "Version", "LeaseValue"
	Key     Arg
	Op      string
	Value   Arg
	Unread  bool
}

// EtcdOp is one Then operation: clientv3.OpPut, OpDelete or OpGet.
type EtcdOp struct {
	Verb  string // "Put", "Delete", "Get"; "" when not read
	Key   Arg
	Value Arg // OpPut's value
}

// RedisShape is a go-redis write: a plain command, or a Lua script run by
// Eval, EvalSha, FCall or (*Script).Run/Eval/EvalSha.
type RedisShape struct {
	Command string // the go-redis method: "Set", "HSet", "Eval", "Run", ...
	// Args are a plain command's arguments after ctx, the variadic one
	// expanded from index Variadic (-1: none, or not expanded);
	// ArgsUnread is set when a variadic slice came from elsewhere.
	Args       []Arg
	Variadic   int
	ArgsUnread bool
	// Script is a script's Lua source, Keys its KEYS, ScriptArgs its ARGV
	// (KeysUnread/ScriptArgsUnread: a slice built elsewhere), and
	// Compared the ARGV indexes (1-based) the engine reads as compared.
	Script           string
	Keys             []Arg
	KeysUnread       bool
	ScriptArgs       []Arg
	ScriptArgsUnread bool
	Compared         []int
}

// argOf reads v as an Arg.
func (e *engine) argOf(v ssa.Value) Arg {
	var a Arg
	if v == nil {
		return a
	}
	if s, ok := constString(v); ok {
		a.Kind, a.Const = "string", s
	} else if c, ok := stripValue(v).(*ssa.Const); ok {
		switch {
		case c.Value == nil:
			a.Kind = "nil"
		case c.Value.Kind() == constant.Int:
			a.Kind, a.Const = "int", c.Value.ExactString()
		case c.Value.Kind() == constant.Float:
			a.Kind, a.Const = "float", c.Value.ExactString()
		case c.Value.Kind() == constant.Bool:
			a.Kind, a.Const = "bool", c.Value.ExactString()
		}
	}
	if o := e.originOf(v); o.isToken() {
		a.Token, a.Weak = o.desc, o.weak
	}
	a.Source = etcdSource(v)
	a.LockKey = e.isEtcdLockKey(v)
	return a
}

// etcdSource names the concurrency call v is directly: e.Rev(), m.Key(),
// m.IsOwner(), e.Header().Revision.
func etcdSource(v ssa.Value) string {
	switch x := stripValue(v).(type) {
	case *ssa.Field:
		if fieldName(x) == "Revision" && concurrencyCall(x.X) == "Header" {
			return "Header().Revision"
		}
		return ""
	case *ssa.UnOp:
		if addr, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && fieldAddrName(addr) == "Revision" && concurrencyCall(addr.X) == "Header" {
			return "Header().Revision"
		}
		return ""
	}
	switch name := concurrencyCall(v); name {
	case "Rev", "Key", "IsOwner", "Lease":
		return name
	}
	return ""
}

// etcdOptionsOf reads a variadic []clientv3.OpOption argument.
func (e *engine) etcdOptionsOf(v ssa.Value) ([]EtcdOption, bool) {
	vals, ok := unpackVariadic(v)
	if !ok {
		return nil, false
	}
	var out []EtcdOption
	for _, x := range vals {
		var o EtcdOption
		if call, ok := stripValue(x).(*ssa.Call); ok {
			if fn := calleeFunc(call.Common()); fn != nil && fn.Pkg() != nil && rules.LibPath(fn.Pkg().Path()) == rules.EtcdClientPkg {
				o.Name = fn.Name()
				if args := call.Common().Args; len(args) == 1 {
					o.Arg = e.argOf(args[0])
				}
			}
		}
		out = append(out, o)
	}
	return out, true
}

// concurrencyCall returns the name of the etcd concurrency method v is a
// call of, or "".
func concurrencyCall(v ssa.Value) string {
	call, ok := stripValue(v).(*ssa.Call)
	if !ok {
		return ""
	}
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Pkg() == nil || rules.LibPath(fn.Pkg().Path()) != rules.EtcdConcurrencyPkg {
		return ""
	}
	return fn.Name()
}

func fieldName(f *ssa.Field) string {
	if st, ok := derefStruct(f.X.Type()); ok && f.Field < st.NumFields() {
		return st.Field(f.Field).Name()
	}
	return ""
}

func fieldAddrName(f *ssa.FieldAddr) string {
	if st, ok := derefStruct(f.X.Type()); ok && f.Field < st.NumFields() {
		return st.Field(f.Field).Name()
	}
	return ""
}

// isEtcdLockKey: v is an etcd election or mutex key (e.Key(), m.Key()), or a
// field every store of which stores one (s.leaderKey = e.Key()).
func (e *engine) isEtcdLockKey(v ssa.Value) bool {
	key := stripValue(v)
	if isLockKeyCall(key) {
		return true
	}
	if u, ok := key.(*ssa.UnOp); ok && u.Op == token.MUL {
		if fa, ok := u.X.(*ssa.FieldAddr); ok {
			return e.isLockKeyField(fa)
		}
	}
	return false
}

// etcdCmpOf reads one If compare.
func (e *engine) etcdCmpOf(c ssa.Value) EtcdCmp {
	if c == nil {
		return EtcdCmp{Unread: true}
	}
	if concurrencyCall(c) == "IsOwner" {
		return EtcdCmp{IsOwner: true}
	}
	call, ok := stripValue(c).(*ssa.Call)
	if !ok {
		return EtcdCmp{Unread: true}
	}
	fn := calleeFunc(call.Common())
	args := call.Common().Args
	if fn == nil || fn.Name() != "Compare" || fn.Pkg() == nil || rules.LibPath(fn.Pkg().Path()) != rules.EtcdClientPkg || len(args) != 3 {
		return EtcdCmp{Unread: true}
	}
	target, ok := stripValue(args[0]).(*ssa.Call)
	if !ok {
		return EtcdCmp{Unread: true}
	}
	tfn := calleeFunc(target.Common())
	if tfn == nil || tfn.Pkg() == nil || rules.LibPath(tfn.Pkg().Path()) != rules.EtcdClientPkg || len(target.Common().Args) != 1 {
		return EtcdCmp{Unread: true}
	}
	op, ok := constString(args[1])
	if !ok {
		return EtcdCmp{Unread: true}
	}
	return EtcdCmp{
		Target: tfn.Name(),
		Key:    e.argOf(target.Common().Args[0]),
		Op:     op,
		Value:  e.argOf(args[2]),
	}
}

// etcdOpOf reads one Then operation.
func (e *engine) etcdOpOf(v ssa.Value) EtcdOp {
	call, ok := stripValue(v).(*ssa.Call)
	if !ok {
		return EtcdOp{}
	}
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Pkg() == nil || rules.LibPath(fn.Pkg().Path()) != rules.EtcdClientPkg {
		return EtcdOp{}
	}
	args := call.Common().Args
	switch fn.Name() {
	case "OpPut":
		if len(args) >= 2 {
			return EtcdOp{Verb: "Put", Key: e.argOf(args[0]), Value: e.argOf(args[1])}
		}
	case "OpDelete", "OpGet":
		if len(args) >= 1 {
			return EtcdOp{Verb: fn.Name()[2:], Key: e.argOf(args[0])}
		}
	}
	return EtcdOp{}
}

// argsOf reads a variadic argument slice; ok is false when it was built
// elsewhere.
func (e *engine) argsOf(v ssa.Value) ([]Arg, bool) {
	vals, ok := unpackVariadic(v)
	if !ok {
		return nil, false
	}
	out := make([]Arg, len(vals))
	for i, x := range vals {
		out[i] = e.argOf(x)
	}
	return out, true
}
