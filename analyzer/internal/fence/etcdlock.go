package fence

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Locks taken with an etcd transaction of the application's own: the
// recipe many services write instead of concurrency.Mutex.
//
//	lease, _ := cli.Grant(ctx, ttl)
//	resp, err := cli.Txn(ctx).
//		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
//		Then(clientv3.OpPut(key, id, clientv3.WithLease(lease.ID))).
//		Commit()
//	if err != nil || !resp.Succeeded { /* not acquired */ }
//
// The put happens only while no one holds the key, and the key lives only
// as long as the lease: a lease lock, with the pause problem of any other.
// Its fencing token is resp.Header.Revision, the revision of the put (the
// key's CreateRevision), which grows with every grant.
//
// Kept narrow for precision: the If must be that one absence compare
// (CreateRevision or Version of the key equal to 0), and a Then must put
// the same key with a lease. A put-if-absent without a lease creates a
// record that stays (a registration, an allocated ID, a cluster ID), not a
// lock. The lock ends at a Delete of the key or a Revoke of the lease, in
// the function, or in a function named like a release (deletesLockObject).

// etcdTxnLockName names the lock in messages.
const etcdTxnLockName = "etcd lease lock (Txn put-if-absent)"

// etcdTxnLock is the key and the lease of an etcd put-if-absent lock.
type etcdTxnLock struct {
	key, lease ssa.Value
}

// etcdTxnLockOf reads cc, a Txn Commit, as a put-if-absent lock.
func (e *engine) etcdTxnLockOf(cc *ssa.CallCommon) (*etcdTxnLock, bool) {
	ifs, thens, _, sawTxn := txnBuilderCalls(receiver(cc))
	if !sawTxn || len(ifs) != 1 {
		return nil, false
	}
	cmps := builderArgs(ifs[0])
	if len(cmps) != 1 {
		return nil, false
	}
	key, ok := absenceCompare(cmps[0])
	if !ok {
		return nil, false
	}
	want := keyFingerprint(key, 0)
	for _, thc := range thens {
		for _, op := range builderArgs(thc) {
			put, ok := stripValue(op).(*ssa.Call)
			if !ok || !isEtcdFunc(calleeFunc(put.Common()), "OpPut") {
				continue
			}
			args := put.Common().Args
			if len(args) < 3 || keyFingerprint(args[0], 0) != want {
				continue
			}
			opts, _ := unpackVariadic(args[2])
			for _, o := range opts {
				with, ok := stripValue(o).(*ssa.Call)
				if ok && isEtcdFunc(calleeFunc(with.Common()), "WithLease") && len(with.Common().Args) == 1 {
					return &etcdTxnLock{key: key, lease: with.Common().Args[0]}, true
				}
			}
		}
	}
	return nil, false
}

// builderArgs returns the compares or ops of one If or Then call, nil when
// its variadic slice was built elsewhere.
func builderArgs(cc *ssa.CallCommon) []ssa.Value {
	ps := params(cc)
	if len(ps) != 1 {
		return nil
	}
	vals, _ := unpackVariadic(ps[0])
	return vals
}

// absenceCompare reads Compare(CreateRevision(k), "=", 0) or
// Compare(Version(k), "=", 0) - "k does not exist" - and returns k.
func absenceCompare(c ssa.Value) (ssa.Value, bool) {
	call, ok := stripValue(c).(*ssa.Call)
	if !ok || !isEtcdFunc(calleeFunc(call.Common()), "Compare") {
		return nil, false
	}
	args := call.Common().Args
	if len(args) != 3 {
		return nil, false
	}
	if op, ok := constString(args[1]); !ok || op != "=" {
		return nil, false
	}
	if x, ok := constInt(args[2]); !ok || x != 0 {
		return nil, false
	}
	target, ok := stripValue(args[0]).(*ssa.Call)
	if !ok {
		return nil, false
	}
	tfn := calleeFunc(target.Common())
	if !isEtcdFunc(tfn, "CreateRevision") && !isEtcdFunc(tfn, "Version") {
		return nil, false
	}
	if len(target.Common().Args) != 1 {
		return nil, false
	}
	return target.Common().Args[0], true
}

// endsEtcdTxnLock reports whether cc ends the put-if-absent lock l: a
// Delete of its key or a Revoke of its lease (l nil: of any key or lease,
// as a release wrapper does).
func (e *engine) endsEtcdTxnLock(l *etcdTxnLock, cc *ssa.CallCommon) bool {
	fn := calleeFunc(cc)
	ps := params(cc)
	if len(ps) < 2 {
		return false
	}
	var mine ssa.Value
	switch {
	case isEtcdFunc(fn, "Delete"):
		if l != nil {
			mine = l.key
		}
	case isEtcdFunc(fn, "Revoke"):
		if l != nil {
			mine = l.lease
		}
	default:
		return false
	}
	return mine == nil || keyFingerprint(ps[1], 0) == keyFingerprint(mine, 0)
}

// etcdTxnSucceeded adds to fs the loads of resp.Succeeded from the
// response of call, an etcd put-if-absent lock: true means acquired.
func etcdTxnSucceeded(call *ssa.Call, fs failSet) {
	for _, ref := range *call.Referrers() {
		ex, ok := ref.(*ssa.Extract)
		if !ok || ex.Index != 0 || ex.Referrers() == nil {
			continue
		}
		for _, r := range *ex.Referrers() {
			fa, ok := r.(*ssa.FieldAddr)
			if !ok || fa.Referrers() == nil {
				continue
			}
			if fieldNameOf(fa.X.Type(), fa.Field) != "Succeeded" {
				continue
			}
			for _, l := range *fa.Referrers() {
				if load, ok := l.(*ssa.UnOp); ok && load.Op == token.MUL {
					fs.oks[load] = true
				}
			}
		}
	}
}
