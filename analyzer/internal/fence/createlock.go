package fence

import (
	"go/types"

	"github.com/fencelint/fencelint/rules"
	"golang.org/x/tools/go/ssa"
)

// Locks taken by a create-if-absent write. A function named like an
// acquire (lock, lockWithFile, TryLock, acquire...) whose write only
// creates an object or item that must not exist yet (S3 PutObject or
// Upload with IfNoneMatch "*", a DynamoDB PutItem conditioned on
// attribute_not_exists(key) alone, a GCS writer on a handle with
// If(Conditions{DoesNotExist: true}), a ZooKeeper Create of an ephemeral
// node that is not sequential) takes a lock by that write:
// terraform's S3, DynamoDB and GCS state locks are this shape. Success is
// the write's success; the lock hands out no token (whatever the object
// holds is the holder's own ID, not a number that grows with each grant).
//
// Kept narrow for precision: the name must say "take a lock" (lockPath,
// lockInfo and getLockInfo do not), and the write must carry no other
// condition, so a create-only write of data in an ordinary function stays
// a write.

// createIfAbsentLock reports whether call, a write of rule w, takes a lock
// by creating an object that does not exist yet, and names the lock.
func (e *engine) createIfAbsentLock(call *ssa.Call, w *rules.Write) (string, bool) {
	parent := call.Parent()
	for parent != nil && parent.Parent() != nil {
		parent = parent.Parent() // a closure inside lock(): the named function
	}
	if parent == nil || !rules.IsAcquireName(parent.Name()) {
		return "", false
	}
	cc := call.Common()
	ps := params(cc)
	switch w.Kind {
	case rules.S3Write:
		if w.InputArg >= len(ps) {
			return "", false
		}
		fs, ok := fieldStores(ps[w.InputArg])
		if !ok {
			return "", false
		}
		if v, ok := constString(fs[rules.S3CreateIfAbsent]); !ok || v != rules.S3CreateIfAbsentValue {
			return "", false
		}
		for _, p := range rules.S3Preconditions {
			if _, has := fs[p]; has && p != rules.S3CreateIfAbsent {
				return "", false
			}
		}
	case rules.DynamoWrite:
		if w.InputArg >= len(ps) {
			return "", false
		}
		fn := calleeFunc(cc)
		if fn == nil || fn.Name() != "PutItem" {
			return "", false
		}
		fs, ok := fieldStores(ps[w.InputArg])
		if !ok {
			return "", false
		}
		if c, ok := constString(fs["ConditionExpression"]); !ok || !rules.IsDynamoCreateIfAbsent(c) {
			return "", false
		}
	case rules.GCSWrite:
		fn := calleeFunc(cc)
		if fn == nil || fn.Name() != "NewWriter" || !gcsCreateOnlyHandle(receiver(cc)) {
			return "", false
		}
	case rules.KVBlind:
		// ZooKeeper's Create(path, data, zk.FlagEphemeral, acl): the node
		// exists while the session lives; a sequential one is the lock
		// recipe's queue, not a lock by itself.
		if w.LockFlag == 0 || w.RecipeFlagArg < 0 || w.RecipeFlagArg >= len(ps) {
			return "", false
		}
		flags, ok := constInt(ps[w.RecipeFlagArg])
		if !ok || flags&w.LockFlag == 0 || flags&w.RecipeFlag != 0 {
			return "", false
		}
	default:
		return "", false
	}
	return w.Store + " lock object created by " + parent.Name(), true
}

// gcsCreateOnlyHandle follows an object handle back to Bucket().Object()
// (or to the helper that made it) and reports whether its only condition
// is DoesNotExist: true.
func gcsCreateOnlyHandle(v ssa.Value) bool {
	createOnly := false
	for depth := 0; depth < 16; depth++ {
		call, ok := stripValue(v).(*ssa.Call)
		if !ok {
			return false
		}
		fn := calleeFunc(call.Common())
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != rules.GCSPkg {
			// a handle from a helper (c.lockFile()): the If seen is the
			// condition this write carries
			return createOnly
		}
		ps := params(call.Common())
		switch fn.Name() {
		case "Object":
			return createOnly
		case "If":
			if len(ps) == 0 {
				return false
			}
			fs, ok := fieldStores(ps[0])
			if !ok {
				return false
			}
			for _, p := range rules.GCSPreconditions {
				val, has := fs[p]
				if !has || isZeroConst(val) {
					continue
				}
				if p != rules.GCSCreateIfAbsent || !isTrueConst(val) {
					return false
				}
				createOnly = true
			}
		default:
			if !rules.GCSHandleMethods[fn.Name()] || fn.Name() == "Generation" {
				return false
			}
		}
		v = receiver(call.Common())
	}
	return false
}

// deletesLockObject: cc, in f, deletes an object or item of a store whose
// create-if-absent writes make locks, and f is named like a release
// (Unlock, unlockWithFile, releaseLock): the release of such a lock.
func (e *engine) deletesLockObject(f *ssa.Function, cc *ssa.CallCommon) bool {
	for f.Parent() != nil {
		f = f.Parent()
	}
	if !rules.IsReleaseFuncName(f.Name()) {
		return false
	}
	fn := calleeFunc(cc)
	if fn == nil {
		return false
	}
	if e.endsEtcdTxnLock(nil, cc) {
		return true // an etcd put-if-absent lock's key deleted or lease revoked (etcdlock.go)
	}
	// A Redis SET NX lock's key deleted, by DEL or by a compare-and-delete
	// script: a key named like a lock's ("lock:"+l.Key), or a key with no
	// constant part in a method of a type named like a lock (func (l
	// *RedisLock) Unlock deleting l.key).
	var keys []ssa.Value
	if _, release, _ := e.scriptBookkeepingKey(cc); release || rules.IsKeyRelease(fn) || isRedigoRelease(cc) {
		keys = e.kvKeys(cc)
	}
	for _, k := range keys {
		if k == nil {
			continue
		}
		if keyNamesLock(k) || (len(constParts(k, 0)) == 0 && onLockType(f)) {
			return true
		}
	}
	if len(keys) > 0 {
		return false
	}
	w, ok := e.writeOf(fn)
	if !ok {
		return false
	}
	switch w.Kind {
	case rules.S3Write, rules.DynamoWrite, rules.GCSWrite, rules.ZKVersioned:
		return rules.IsDeleteMethodName(fn.Name())
	}
	return false
}

// onLockType: f is a method of a type named like a lock (RedisLock,
// Mutex, Locker).
func onLockType(f *ssa.Function) bool {
	recv := f.Signature.Recv()
	if recv == nil {
		return false
	}
	n := namedOfType(recv.Type())
	return n != nil && rules.IsLockTypeName(n.Obj().Name())
}

// isTrueConst: the constant true.
func isTrueConst(v ssa.Value) bool {
	c, ok := stripValue(v).(*ssa.Const)
	return ok && c.Value != nil && types.Identical(c.Type().Underlying(), types.Typ[types.Bool]) && c.Value.String() == "true"
}
