package rules

import (
	"bytes"
	"go/types"
	"strings"
	"unicode"
)

// The heuristics below recognise in-house lock APIs without directives.
// They are deliberately narrow; anything broader goes through
// //fencelint: directives.

// leaseSuffixes are the type-name endings of lease-shaped structs.
var leaseSuffixes = []string{"Lease", "Lock", "Grant", "Sequencer"}

// tokenFieldNames are the integer fields that make a lease type carry a token.
var tokenFieldNames = map[string]bool{
	"Token": true, "Fence": true, "FencingToken": true, "FenceToken": true,
	"Sequence": true, "Sequencer": true, "Revision": true, "Epoch": true,
	"Generation": true,
}

// expiryFieldNames are the fields of a lease that carries only an expiry.
var expiryFieldNames = map[string]bool{
	"ExpiresAt": true, "Expiry": true, "Deadline": true, "Until": true,
	"Expires": true, "ExpireAt": true, "ExpiresAtTime": true,
}

// tokenParamNames are parameter names that carry a fencing token.
var tokenParamNames = map[string]bool{
	"token": true, "fence": true, "fencingtoken": true, "fencetoken": true,
	"fencing_token": true, "fence_token": true, "epoch": true,
	"generation": true, "revision": true, "tok": true, "fencetok": true,
}

// LeaseInfo describes a lease-shaped struct type.
type LeaseInfo struct {
	Named *types.Named
	// Token is the token field, nil for an expiry-only lease.
	Token *types.Var
}

// LeaseOf reports whether t (or *t) is a lease-shaped struct: named with a
// lease suffix, with an integer token field, or with an expiry field and no
// token field at all. Types from known libraries are not leases here.
func LeaseOf(t types.Type) (LeaseInfo, bool) {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil || IsKnownPath(n.Obj().Pkg().Path()) {
		return LeaseInfo{}, false
	}
	if !HasLeaseSuffix(n.Obj().Name()) {
		return LeaseInfo{}, false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return LeaseInfo{}, false
	}
	var expiry bool
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if IsTokenFieldName(f.Name()) && IsIntegerLike(f.Type()) {
			return LeaseInfo{Named: n, Token: f}, true
		}
		if IsExpiryField(f) {
			expiry = true
		}
	}
	if expiry {
		return LeaseInfo{Named: n}, true
	}
	return LeaseInfo{}, false
}

// IsExpiryField reports whether a struct field holds a lease's expiry:
// one of expiryFieldNames in any case (ExpiresAt, expireAt), or a time
// (time.Time, or an integer such as Unix milliseconds) whose name says it
// is one (validUntil, leaseExpiry, expirationTime, lockDeadline).
func IsExpiryField(f *types.Var) bool {
	if expiryFieldNames[exportedName(f.Name())] {
		return true
	}
	if !MayBeExpiryFieldName(f.Name()) {
		return false
	}
	t := f.Type()
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" {
		return n.Obj().Name() == "Time"
	}
	return IsIntegerLike(t)
}

// MayBeExpiryFieldName reports whether IsExpiryField can accept a field
// of this name, whatever its type: the drivers' lexical relevance test
// asks it about the fields of a lease-suffixed struct before types exist.
func MayBeExpiryFieldName(name string) bool {
	if expiryFieldNames[exportedName(name)] {
		return true
	}
	lower := strings.ToLower(name)
	return strings.Contains(lower, "expir") || strings.HasSuffix(lower, "until") || strings.HasSuffix(lower, "deadline")
}

// HasLeaseSuffix reports whether a type name ends like a lease-shaped
// struct's (LeaseOf accepts no other names).
func HasLeaseSuffix(name string) bool {
	for _, s := range leaseSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// MayNameLease reports whether src contains a lease suffix at all: the go
// vet driver's cheap test before it scans a file's type declarations.
func MayNameLease(src []byte) bool {
	for _, s := range leaseSuffixes {
		if bytes.Contains(src, []byte(s)) {
			return true
		}
	}
	return false
}

// IsTokenParamName reports whether a parameter name says it is a fencing token.
func IsTokenParamName(name string) bool {
	if len(name) > len("fencing_token") {
		return false // longer than every entry: skip lower-casing it
	}
	return tokenParamNames[strings.ToLower(name)]
}

// IsFenceParamName reports whether a token parameter's name says fence
// and nothing else (fence, fencingToken, fence_token): token, tok, epoch,
// generation and revision name data too, and make a parameter a token
// only when a write compares it.
func IsFenceParamName(name string) bool {
	return IsTokenParamName(name) && strings.Contains(strings.ToLower(name), "fenc")
}

// IsTokenFieldName reports whether a struct field (or method) name says it
// is a token; unexported spellings (token, fencingToken) count too.
func IsTokenFieldName(name string) bool { return tokenFieldNames[exportedName(name)] }

// IsTokenTypeName reports whether a named integer type's name says it is a
// fencing token (type FencingToken int64).
func IsTokenTypeName(name string) bool {
	switch exportedName(name) {
	case "Token", "FencingToken", "FenceToken", "Fence", "Epoch", "Generation", "Sequencer":
		return true
	}
	return false
}

func exportedName(name string) string {
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// IsIntegerLike reports whether t is an integer, a pointer to one, or a
// named integer type: the shapes a fencing token takes in Go.
func IsIntegerLike(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// IsReleaseName reports whether a method or function name releases a lease
// of an in-house lock API.
func IsReleaseName(name string) bool {
	switch name {
	case "Release", "Unlock", "Close", "Resign", "Revoke", "Drop":
		return true
	}
	return false
}

// IsRenewName reports whether a method name extends a lease.
func IsRenewName(name string) bool {
	switch name {
	case "Renew", "Refresh", "Extend", "KeepAlive", "Heartbeat":
		return true
	}
	return false
}

// ClientCheckMethods are methods whose result is the client's own view of
// its lease: checks on them are not fences.
var ClientCheckMethods = map[string]bool{
	"Valid": true, "IsValid": true, "Expired": true, "IsExpired": true,
	"IsLeader": true, "IsHeld": true, "Held": true, "StillHeld": true,
	"AmILeader": true, "AmLeader": true, "IsLeading": true,
	"IsOwner": false, // etcd's IsOwner is a Cmp evaluated by etcd, not a check
	"Until":   true, "TTL": true, "Alive": true, "IsAlive": true,
}

// writeVerbs begin the names of methods that write: an interface method
// named so (Put, SaveDoc) is taken to write, since its body is unknown.
var writeVerbs = []string{"Put", "Set", "Save", "Write", "Update", "Delete", "Store", "Commit", "Insert", "Upsert", "Apply", "CAS", "Compare", "Publish", "Append", "Remove", "Create", "Replace", "Patch"}

// IsWriteMethodName reports whether a method name says it writes.
func IsWriteMethodName(name string) bool {
	for _, v := range writeVerbs {
		if strings.HasPrefix(name, v) {
			return true
		}
	}
	return false
}

// portWriteVerbs begin the names of the methods of an application's
// storage port (a repository or store interface) that write. Narrower
// than writeVerbs: Set, Apply, Commit, Compare and Publish name setters,
// transactions and messages as often as writes.
var portWriteVerbs = []string{"Save", "Update", "Delete", "Insert", "Upsert", "Create", "Put", "Store", "Remove", "Replace", "Patch", "Persist"}

// IsPortWriteMethod reports whether a method of an application
// interface whose implementation is not visible is taken to write
// storage: its name begins with a write verb as a word (SaveOrder,
// UpdateBalance, Put; not Settle or Storefront), and it takes a
// context.Context first, as I/O does.
func IsPortWriteMethod(name string, sig *types.Signature) bool {
	if sig.Params().Len() == 0 || !isContext(sig.Params().At(0).Type()) {
		return false
	}
	for _, v := range portWriteVerbs {
		rest, ok := strings.CutPrefix(name, v)
		if ok && (rest == "" || unicode.IsUpper(rune(rest[0])) || unicode.IsDigit(rune(rest[0]))) {
			return true
		}
	}
	return false
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// IsTokenishParamName reports whether a parameter (or tested value) is
// named like a fencing token: the contract's names, any name containing
// "fenc", and lease/lock/write-prefixed ones (leaseToken, lockEpoch,
// writeFence, leaseTok). A name alone never makes a parameter a token:
// the engine also wants it to reach a write (see fence/optdefects.go).
func IsTokenishParamName(name string) bool {
	if IsTokenParamName(name) || IsTokenFieldName(name) {
		return true
	}
	l := strings.ToLower(name)
	if strings.Contains(l, "fenc") {
		return true
	}
	for _, p := range []string{"lease", "lock", "write"} {
		if rest, ok := strings.CutPrefix(l, p); ok && rest != "" && IsTokenParamName(rest) {
			return true
		}
	}
	return false
}

// IsVersionName reports whether a value is named like a store's version
// or index (a consul ModifyIndex, a row version), which a zero-token
// branch tests like a token.
func IsVersionName(name string) bool {
	l := strings.ToLower(name)
	for _, s := range []string{"index", "version", "rev", "seq"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// IsConstructorName: a client constructor, whose options configure the
// client rather than one write.
func IsConstructorName(name string) bool {
	for _, p := range []string{"New", "Open", "Dial", "Connect", "Must"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// requestSuffixes end the names of request structs, whose token field is
// sent with a write.
var requestSuffixes = []string{"Request", "Req", "Input", "Command", "Cmd", "Params", "Args", "Write", "Update"}

// IsRequestTypeName reports whether a struct type is named like a request.
func IsRequestTypeName(name string) bool {
	for _, s := range requestSuffixes {
		if strings.HasSuffix(name, s) && name != s {
			return true
		}
	}
	return false
}

// presenceFlags are the bool fields of a nullable wrapper (sql.NullInt64's
// Valid, an Optional's Set).
var presenceFlags = map[string]bool{
	"Valid": true, "Set": true, "IsSet": true, "Present": true, "Ok": true, "OK": true,
	"HasValue": true, "Defined": true, "Null": true, "IsNull": true,
}

// IsPresenceFlagName reports whether a bool field says a value is set.
func IsPresenceFlagName(name string) bool { return presenceFlags[name] }

// optionalTypes are generic wrappers of one type argument that may hold
// no value.
var optionalTypes = map[string]bool{
	"Optional": true, "Option": true, "Maybe": true, "Nullable": true, "Opt": true, "Null": true,
}

// IsOptionalTypeName reports whether a generic type is an optional wrapper.
func IsOptionalTypeName(name string) bool { return optionalTypes[name] }

// ownershipFlags are bool fields that hold the client's belief that it
// holds the lock; a check on one is a client-side check, not a fence.
var ownershipFlags = map[string]bool{
	"held": true, "isheld": true, "isleader": true, "leader": true, "amleader": true,
	"owner": true, "isowner": true, "locked": true, "islocked": true, "holding": true,
	"haslock": true, "hold": true, "valid": true, "active": true,
}

// leadershipChecks are the method names, and the bool fields (lower
// case), by which code asks whether this process is the leader right now:
// a write that runs only where the answer was yes runs under that
// leadership, a lease held elsewhere (fence/leadercheck.go). Narrower than
// ownershipFlags: "leader", "active" or "valid" alone name too many other
// things to open a scope by themselves.
var (
	leadershipCheckMethods = map[string]bool{"IsLeader": true, "AmILeader": true, "AmLeader": true, "IsLeading": true}
	leadershipFlags        = map[string]bool{"isleader": true, "amleader": true, "amileader": true, "isleading": true}
)

// IsLeadershipCheckMethod reports whether a method name asks "am I the
// leader?".
func IsLeadershipCheckMethod(name string) bool { return leadershipCheckMethods[name] }

// IsLeadershipFlag reports whether a bool field (or an atomic.Bool)
// records that this process is the leader.
func IsLeadershipFlag(name string) bool { return leadershipFlags[strings.ToLower(name)] }

// IsOwnershipFlagName reports whether a bool field is an ownership flag.
func IsOwnershipFlagName(name string) bool { return ownershipFlags[strings.ToLower(name)] }

// testDoublePrefixes and testDoubleSuffixes name the test doubles that sit
// next to a real implementation (a no-op locker, a mock store, a fake
// client). They do not vote on what a call through the interface does:
// one of them would otherwise turn the real implementation's write into
// "implementations disagree" (issue 18). Matched case-insensitively on the
// type name's start and end, and on a package's name.
var (
	testDoublePrefixes = []string{"mock", "fake", "stub", "dummy", "noop", "nop", "null", "test"}
	testDoubleSuffixes = []string{"mock", "mocks", "fake", "fakes", "stub", "stubs", "test", "testing", "testutil", "noop"}
)

// IsTestDoubleName reports whether a type or package name says it is a test
// double: mockStore, FakeClient, noopLocker, LockNoop, NopStore, storeMock; packages
// storetest, mocks, fakes, testutil.
func IsTestDoubleName(name string) bool {
	lower := strings.ToLower(name)
	for _, p := range testDoublePrefixes {
		if strings.HasPrefix(lower, p) && (len(lower) == len(p) || wordBoundary(name, len(p))) {
			return true
		}
	}
	for _, s := range testDoubleSuffixes {
		if strings.HasSuffix(lower, s) && (len(lower) == len(s) || wordBoundary(name, len(name)-len(s)) || !hasUpper(name)) {
			return true
		}
	}
	return false
}

// wordBoundary: name changes word at byte i (camel case, an underscore or a
// digit), so "nopStore" splits after "nop" but "Notification" does not
// after "no".
func wordBoundary(name string, i int) bool {
	if i <= 0 || i >= len(name) {
		return true
	}
	c := name[i]
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

// IsLeaseConstructorName: a function that builds a lease value (NewLease,
// MakeLease) rather than asking a lock service for one. The heuristic
// still takes its result for a held lease, except in a _test.go file,
// where such a call builds a fixture.
func IsLeaseConstructorName(name string) bool {
	for _, p := range []string{"New", "Make"} {
		if len(name) > len(p) && strings.HasPrefix(name, p) && !isLowerStart(name[len(p):]) {
			return true
		}
	}
	return false
}

func isLowerStart(s string) bool { return s != "" && s[0] >= 'a' && s[0] <= 'z' }

// SQL lease tables (issue 13 item 6): an application's own table used as
// a lock. The engine (fence/leasetable.go) decides from a statement's
// structure whether it claims, renews or releases a row; these name tests
// say which columns play which part. They are deliberately narrow: a
// statement must name a holder and an expiry column to be a claim at all.

// leaseHolderWords are the substrings of a holder (owner) column's name.
var leaseHolderWords = []string{"holder", "owner", "lessee", "locked_by", "lockedby", "claimed_by", "acquired_by", "leader"}

// leaseHolderNames are whole holder column names without such a word:
// the identity of the process that took the row.
var leaseHolderNames = map[string]bool{
	"worker": true, "worker_id": true, "workerid": true, "instance_id": true, "instanceid": true,
	"node_id": true, "nodeid": true, "client_id": true, "clientid": true, "locker": true, "locker_id": true,
	"host": true, "hostname": true, "process_id": true, "pid": true, "consumer_id": true,
}

// IsLeaseHolderColumn reports whether a SQL column (lower-cased, unqualified)
// names the holder of a lease-table row: holder, owner, owner_id, locked_by,
// leader_id, worker_id, ...
func IsLeaseHolderColumn(c string) bool {
	c = strings.ToLower(c)
	if leaseHolderNames[c] {
		return true
	}
	for _, w := range leaseHolderWords {
		if strings.Contains(c, w) {
			return true
		}
	}
	return false
}

// IsLeaseExpiryColumn reports whether a SQL column names when a lease-table
// row's claim lapses, or when its holder last proved alive: expires_at,
// expiry, lease_until, locked_until, deadline, heartbeat_at, locked_at.
func IsLeaseExpiryColumn(c string) bool {
	c = strings.ToLower(c)
	switch {
	case strings.Contains(c, "expir"), strings.HasSuffix(c, "until"), strings.Contains(c, "deadline"),
		strings.Contains(c, "heartbeat"), c == "locked_at", c == "lockedat", c == "lease_time", c == "ttl_at":
		return true
	}
	return false
}

// timeColumnPrefixes and timeColumnSuffixes mark a column that holds when
// something happened.
var (
	timeColumnPrefixes = []string{"created", "updated", "modified", "deleted", "inserted", "expire", "expiry", "last_", "started", "finished", "completed"}
	timeColumnSuffixes = []string{"_at", "_time", "_ts", "_date", "_on", "timestamp"}
)

// IsTimeColumn reports whether a SQL column (unqualified) names a moment,
// created_epoch, updated_at, expires_ts, last_seen, and not a fence
// (a name with fence or token in it never is one): "DELETE ... WHERE
// created_epoch < $1" with an epoch parameter is retention, not a fence.
func IsTimeColumn(c string) bool {
	c = strings.ToLower(c)
	if strings.Contains(c, "fence") || strings.Contains(c, "token") {
		return false
	}
	for _, p := range timeColumnPrefixes {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	for _, s := range timeColumnSuffixes {
		if strings.HasSuffix(c, s) {
			return true
		}
	}
	return false
}

// IsRowKeyColumn reports whether a SQL column (unqualified) names the
// row rather than a version of it: id, job_id, uuid, pk, account_no,
// order_number, sku_code, user_name. A token compared for equality with
// one selects a row (or none) and fences nothing.
func IsRowKeyColumn(c string) bool {
	c = strings.ToLower(c)
	switch c {
	case "id", "uuid", "pk", "key", "name":
		return true
	}
	for _, suffix := range []string{"_id", "_uuid", "_key", "_pk", "_no", "_number", "_num", "_code", "_name"} {
		if strings.HasSuffix(c, suffix) {
			return true
		}
	}
	return false
}

// lockTableWords begin the words of the name of a table used as a lock.
var lockTableWords = []string{"lock", "lease", "leader", "mutex", "election", "semaphore"}

// IsLockTableName reports whether a SQL table name (schema allowed) says
// the table holds locks: locks, distributed_locks, river_leader, leases,
// job_lease. A claim by INSERT alone (a row that exists while held) needs
// such a name; the UPDATE and upsert claims are recognised by structure.
func IsLockTableName(t string) bool {
	t = strings.ToLower(t)
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		t = t[i+1:]
	}
	// Words split on '_': "blocks" and "clock_skew" are not locks.
	for _, word := range strings.Split(t, "_") {
		for _, w := range lockTableWords {
			if strings.HasPrefix(word, w) {
				return true
			}
		}
	}
	return false
}

// acquireVerbs start the names of functions that take a lock whatever
// follows (acquireLease, TryLockShard, obtainMutex); "lock" starts one only
// as the whole word or before With/Context (lock, Lock, lockWithFile):
// lockPath, lockFile and lockInfo name the lock's data.
var acquireVerbs = []string{"acquire", "tryacquire", "trylock", "obtain"}

// IsAcquireName reports whether a function or method name says it takes a
// lock.
func IsAcquireName(name string) bool {
	lower := strings.ToLower(name)
	for _, p := range acquireVerbs {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	if !strings.HasPrefix(lower, "lock") {
		return false
	}
	rest := name[len("lock"):]
	return rest == "" || strings.HasPrefix(rest, "With") || strings.HasPrefix(rest, "Context") || strings.HasPrefix(rest, "Ctx")
}

// IsLockTypeName reports whether a type's name says its values are locks:
// RedisLock, Mutex, DistLocker, LeaseLock ("Block" and "Clock" are not).
func IsLockTypeName(name string) bool {
	lower := strings.ToLower(name)
	if strings.Contains(lower, "mutex") {
		return true
	}
	for i := strings.Index(lower, "lock"); i >= 0; {
		if i == 0 || (lower[i-1] != 'b' && lower[i-1] != 'c') {
			return true
		}
		j := strings.Index(lower[i+1:], "lock")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// IsReleaseFuncName reports whether a function's name says it releases a
// lock: a release name (Unlock, Release...) or one that starts with
// unlock or release (unlockWithFile, releaseLease).
func IsReleaseFuncName(name string) bool {
	if IsReleaseName(name) {
		return true
	}
	// Without lower-casing a copy: the engine asks this of every call.
	return hasPrefixFold(name, "unlock") || hasPrefixFold(name, "release")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// IsDeleteMethodName reports whether a store method deletes (S3
// DeleteObject, DynamoDB DeleteItem, GCS Delete).
func IsDeleteMethodName(name string) bool { return strings.HasPrefix(name, "Delete") }

// IsDestroyName reports whether a method name says it removes a whole
// resource (Delete, DeleteState, Destroy, Remove, Purge).
func IsDestroyName(name string) bool {
	for _, p := range []string{"Delete", "Destroy", "Remove", "Purge"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
