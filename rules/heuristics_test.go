package rules

import (
	"go/token"
	"go/types"
	"testing"
)

// TestNameHeuristics pins the name heuristics the engine's optional-token
// and guard checks use: each says yes to the names it is meant for and no
// to look-alikes.
func TestNameHeuristics(t *testing.T) {
	for _, c := range []struct {
		what string
		f    func(string) bool
		yes  []string
		no   []string
	}{
		{"IsTokenishParamName", IsTokenishParamName,
			[]string{"token", "tok", "fence", "fencingToken", "epoch", "leaseToken", "leaseTok", "lockEpoch", "writeFence", "Fence", "fenceValue"},
			[]string{"count", "limit", "offset", "authToken", "tokens", "took", "stock"}},
		{"IsVersionName", IsVersionName,
			[]string{"index", "ModifyIndex", "version", "rev", "seq"},
			[]string{"count", "n", "offset"}},
		{"IsConstructorName", IsConstructorName,
			[]string{"NewClient", "Open", "DialContext", "MustConnect"},
			[]string{"Put", "SaveDoc", "Renew"}},
		{"IsRequestTypeName", IsRequestTypeName,
			[]string{"WriteRequest", "PutReq", "SaveInput", "MoveCommand", "UpdateArgs", "DocUpdate"},
			[]string{"Request", "Stats", "Lease"}},
		{"IsPresenceFlagName", IsPresenceFlagName,
			[]string{"Valid", "Set", "HasValue"},
			[]string{"Value", "valid", "Int64"}},
		{"IsOptionalTypeName", IsOptionalTypeName,
			[]string{"Optional", "Maybe", "Nullable"},
			[]string{"Result", "List"}},
		{"IsOwnershipFlagName", IsOwnershipFlagName,
			[]string{"isLeader", "held", "Locked", "haslock"},
			[]string{"ready", "closed", "count"}},
		{"IsLeaseHolderColumn", IsLeaseHolderColumn,
			[]string{"holder", "owner", "owner_id", "locked_by", "leader_id", "worker_id", "lock_holder", "LockedBy"},
			[]string{"name", "id", "expires_at", "token", "state", "payload", "updated_by"}},
		{"IsLeaseExpiryColumn", IsLeaseExpiryColumn,
			[]string{"expires_at", "expiry", "expiration", "lease_until", "locked_until", "deadline", "heartbeat_at", "locked_at"},
			[]string{"created_at", "updated_at", "name", "holder", "token"}},
		{"IsTimeColumn", IsTimeColumn,
			[]string{"created_epoch", "updated_at", "expires_ts", "last_seen", "event_time", "CreatedAt", "modified_timestamp"},
			[]string{"fence", "epoch", "fence_at", "token_ts", "generation", "revision", "range_id"}},
		{"IsRowKeyColumn", IsRowKeyColumn,
			[]string{"id", "job_id", "account_uuid", "pk", "user_key", "account_no", "order_number"},
			[]string{"fence", "range_id_gen", "version", "owner", "holder"}},
		{"IsLockTableName", IsLockTableName,
			[]string{"locks", "distributed_locks", "river_leader", "public.leases", "job_lease", "leader_election"},
			[]string{"jobs", "accounts", "settings", "blocks_index", "clock_skew"}},
		{"IsWriteMethodName", IsWriteMethodName,
			[]string{"Put", "SaveDoc", "UpdateRow", "Delete", "CAS", "Publish"},
			[]string{"Get", "List", "Describe", "String"}},
	} {
		for _, s := range c.yes {
			if !c.f(s) {
				t.Errorf("%s(%q) = false, want true", c.what, s)
			}
		}
		for _, s := range c.no {
			if c.f(s) {
				t.Errorf("%s(%q) = true, want false", c.what, s)
			}
		}
	}
}

func TestIsLeaseConstructorName(t *testing.T) {
	for name, want := range map[string]bool{
		"NewLease": true, "NewLeaseWithClock": true, "MakeLease": true, "New": false,
		"Newest": false, "Acquire": false, "AcquireLease": false, "TryLock": false, "Renew": false,
	} {
		if got := IsLeaseConstructorName(name); got != want {
			t.Errorf("IsLeaseConstructorName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestIsAcquireName(t *testing.T) {
	for name, want := range map[string]bool{
		"Lock": true, "lock": true, "lockWithFile": true, "LockContext": true, "TryLock": true,
		"acquireItemLock": true, "AcquireLease": true, "obtain": true,
		"lockPath": false, "lockFile": false, "lockInfo": false, "getLockInfo": false,
		"Unlock": false, "Locker": false, "putLockInfo": false, "Put": false,
	} {
		if got := IsAcquireName(name); got != want {
			t.Errorf("IsAcquireName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestIsReleaseFuncName(t *testing.T) {
	for name, want := range map[string]bool{
		"Unlock": true, "unlockWithFile": true, "releaseLease": true, "Release": true,
		"Delete": false, "lock": false, "Put": false,
	} {
		if got := IsReleaseFuncName(name); got != want {
			t.Errorf("IsReleaseFuncName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestIsPortWriteMethod(t *testing.T) {
	ctxPkg := types.NewPackage("context", "context")
	ctxType := types.NewNamed(types.NewTypeName(token.NoPos, ctxPkg, "Context", nil), types.NewInterfaceType(nil, nil), nil)
	withCtx := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewVar(token.NoPos, nil, "ctx", ctxType), types.NewVar(token.NoPos, nil, "id", types.Typ[types.String])),
		types.NewTuple(types.NewVar(token.NoPos, nil, "", types.Universe.Lookup("error").Type())), false)
	noCtx := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewVar(token.NoPos, nil, "id", types.Typ[types.String])), nil, false)
	for _, name := range []string{"Save", "SaveOrder", "UpdateBalance", "Delete", "Insert2", "Put", "Persist"} {
		if !IsPortWriteMethod(name, withCtx) {
			t.Errorf("IsPortWriteMethod(%q, ctx first) = false, want true", name)
		}
		if IsPortWriteMethod(name, noCtx) {
			t.Errorf("IsPortWriteMethod(%q, no ctx) = true, want false", name)
		}
	}
	for _, name := range []string{"Get", "Storefront", "Settle", "SetName", "Updater", "Publish", "Debit"} {
		if IsPortWriteMethod(name, withCtx) {
			t.Errorf("IsPortWriteMethod(%q, ctx first) = true, want false", name)
		}
	}
}
