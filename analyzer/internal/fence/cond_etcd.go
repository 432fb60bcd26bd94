package fence

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/fencelint/fencelint/internal/lazyregexp"
	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// readEtcdCmp reads one If compare of an etcd Txn:
// Have: clientv3.Compare(clientv3.ModRevision(k), "<", m.Header().Revision)
// normalised to "ModRevision(k) Op token". ok is false when c is not a
// Compare with a constant operator whose value derives from a token.
func (e *engine) readEtcdCmp(c ssa.Value) (readCmp, bool) {
	call, ok := stripValue(c).(*ssa.Call)
	if !ok {
		return readCmp{}, false
	}
	fn := calleeFunc(call.Common())
	args := call.Common().Args
	if !isEtcdFunc(fn, "Compare") || len(args) != 3 {
		return readCmp{}, false
	}
	op, ok := constString(args[1])
	if !ok {
		return readCmp{}, false
	}
	target, ok := stripValue(args[0]).(*ssa.Call)
	if !ok {
		return readCmp{}, false
	}
	if tfn := calleeFunc(target.Common()); tfn == nil || tfn.Pkg() == nil || rules.LibPath(tfn.Pkg().Path()) != etcdPkg {
		return readCmp{}, false
	}
	o := e.originOf(args[2])
	if o == nil {
		return readCmp{}, false
	}
	rc := readCmp{o: o, pub: CondCompare{
		Op: op, Origin: o.desc, Weak: o.weak, Clause: "If", Fencing: true, Offset: -1, opOff: -1,
		Column: "the compared revision", Text: "the compared revision", Token: o.desc,
	}}
	if tfn := calleeFunc(target.Common()); tfn.Name() == "Value" && decimalString(args[2]) {
		rc.decimal = true // Compare(Value(k), "<", strconv.FormatInt(rev, 10))
	}
	if ce, ok := e.calls.at(call.Pos()); ok && len(ce.Args) == 3 {
		rc.pub.Pos, rc.pub.End = ce.Pos(), ce.End()
		rc.pub.Text, rc.pub.Token = types.ExprString(ce.Args[0]), types.ExprString(ce.Args[2])
		rc.pub.Column = rc.pub.Text
		// The operator is a string literal: the fix rewrites its text.
		if lit, ok := ce.Args[1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && s == op && len(lit.Value) == len(op)+2 {
				rc.pub.OpText, rc.pub.OpPos = op, lit.Pos()+1
			}
		}
	}
	return rc, true
}

const etcdPkg = rules.EtcdClientPkg

// isEtcdFunc: fn is the etcd client's function or method of that name.
func isEtcdFunc(fn *types.Func, name string) bool {
	return fn != nil && fn.Name() == name && fn.Pkg() != nil && rules.LibPath(fn.Pkg().Path()) == etcdPkg
}

// decimalString: v is an integer printed as an unpadded decimal string,
// strconv.FormatInt/FormatUint/Itoa or fmt.Sprint, or fmt.Sprintf with a
// %d or %v verb and no zero-padded width (%020d orders correctly).
func decimalString(v ssa.Value) bool {
	call, ok := stripValue(v).(*ssa.Call)
	if !ok {
		return false
	}
	fn := calleeFunc(call.Common())
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch rules.Key(fn) {
	case "strconv.FormatInt", "strconv.FormatUint", "strconv.Itoa", "fmt.Sprint":
		return true
	case "fmt.Sprintf":
		args := call.Common().Args
		if len(args) == 0 {
			return false
		}
		format, ok := constString(args[0])
		return ok && unpaddedDecimalRe.MatchString(format) && !paddedDecimalRe.MatchString(format)
	}
	return false
}

var (
	unpaddedDecimalRe = lazyregexp.New(`%[-+ #]*[0-9]*[dv]`)
	paddedDecimalRe   = lazyregexp.New(`%0[0-9]+d`)
)
