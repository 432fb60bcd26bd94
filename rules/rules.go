// Package rules is fencelint's knowledge of real lock, lease and storage APIs.
//
// It holds tables and pure lookups on go/types objects, and imports nothing
// from go/analysis: the engine in analyzer/internal/fence decides what the
// tables mean for one package. Functions are keyed by types.Func.FullName()
// of fn.Origin(), e.g. "(*go.etcd.io/etcd/client/v3/concurrency.Mutex).Lock";
// fields by "pkgpath.Type.Field". Matching is by object, never by selector
// text, so `Exec` on a *sql.DB is a write and `Exec` on anything else is not.
package rules

import (
	"go/types"
	"strings"
	"sync"
)

// Success says how an acquire call reports that the lock was taken.
type Success int

const (
	// ErrNil: the last result is an error; nil means acquired.
	ErrNil Success = iota
	// Returns: the call blocks until acquired (or panics); no result to test.
	Returns
	// BoolCmdTrue: a go-redis *BoolCmd whose Val()/Result() bool is true.
	BoolCmdTrue
	// StatusCmdOK: a go-redis *StatusCmd whose Err() is nil (SetArgs Mode NX).
	StatusCmdOK
	// ChanNonNil: (<-chan struct{}, error); acquired when err is nil and
	// the channel is not nil (consul's Lock returns (nil, nil) when stopped).
	ChanNonNil
)

// Acquire describes one call that takes a lock or a lease.
type Acquire struct {
	Func    string
	Success Success
	// Lock is a short human name of the lock service for messages.
	Lock string
	// NoToken is set when the lock service hands out no fencing token:
	// a write in the scope has nothing to fence with.
	NoToken bool
	// KeyArg is the index of the lock key argument for key-value locks
	// (go-redis SetNX): writes to the same key are the lock's own
	// bookkeeping, not protected writes. -1 when not applicable.
	KeyArg int
	// StoreKeyArg is the index of the key a library lock stores itself
	// under when the acquire takes it (redislock.Obtain's key) but its
	// release does not: a write to that key inside the scope touches the
	// lock itself (a test stealing it), not data the lock protects. It
	// does not take part in matching releases, unlike KeyArg. 0 when
	// none (argument 0 of these acquires is always a context).
	StoreKeyArg int
	// LockIsReceiver: the lock object is the receiver (m.Lock()); releases
	// on the same receiver end the scope.
	LockIsReceiver bool
	// LockResult: the lock object is result 0 (redislock.Obtain).
	LockResult bool
	// Token is the accessor of the token on the lock object, for messages
	// (".Header().Revision" names m.Header().Revision); "" when the
	// message names none.
	Token string
}

// Token describes a value that is a fencing token (or claims to be one).
type Token struct {
	// Func is a function or method whose result is the token; Field is a
	// struct field "pkgpath.Type.Field" holding it. One of them is set.
	Func, Field string
	// Desc names the token in messages, e.g. "the mutex's Header().Revision".
	Desc string
	// Weak says how the value fails to be strictly monotonic across
	// grants (NotWeak: it does not); Why says why in one clause. Issuer is
	// the Store of the service that hands the value out ("etcd", "Redis"):
	// that service can still check it atomically itself, so it is weak
	// only when another store compares it.
	Weak   Weakness
	Why    string
	Issuer string
}

// Weakness is how a token fails to be monotonic across grants.
type Weakness int

const (
	NotWeak     Weakness = iota
	WeakRandom           // random or opaque bytes, UUIDs
	WeakClock            // a wall-clock reading
	WeakLeaseID          // an etcd lease ID: member id plus a counter
	WeakCounter          // a counter that can regress after a failover (Redis INCR)
)

// WriteKind says where a write's condition lives.
type WriteKind int

const (
	// SQLWrite: constant SQL text at QueryArg, bind arguments from ArgsFrom.
	SQLWrite WriteKind = iota + 1
	// SQLStmtWrite: a prepared statement; the SQL is the Prepare argument
	// that made the receiver; bind arguments from ArgsFrom.
	SQLStmtWrite
	// DynamoWrite: an aws-sdk-go-v2 DynamoDB input struct at InputArg.
	DynamoWrite
	// DynamoTransact: TransactWriteItemsInput at InputArg.
	DynamoTransact
	// S3Write: an aws-sdk-go-v2 S3 input struct at InputArg.
	S3Write
	// KVBlind: an unconditional key-value write (etcd Put, Redis SET,
	// consul KV.Put, ZooKeeper Delete with version -1): never fenced by
	// itself. KeyArg is its key argument.
	KVBlind
	// EtcdTxnCommit: Txn(...).If(...).Then(...).Commit().
	EtcdTxnCommit
	// RedisScript: Eval/EvalSha (script at QueryArg, args from ArgsFrom)
	// or (*Script).Run (script from NewScript, args from ArgsFrom).
	RedisScript
	// ZKVersioned: ZooKeeper Set/Delete whose version argument (VersionArg)
	// makes it a compare-and-set unless it is the constant -1.
	ZKVersioned
	// ZKMulti: ZooKeeper Multi; fenced when it carries a CheckVersionRequest.
	ZKMulti
	// Conditional: a compare-and-set the store itself evaluates (consul
	// CAS/Acquire): treated as fenced.
	Conditional
	// ConsulTxn: consul KV.Txn, fenced when one of its operations checks
	// the session or an index (ConsulCheckVerbs) and blind otherwise.
	ConsulTxn
	// GormChain: a gorm finisher (Update, Updates, UpdateColumn(s),
	// Delete) whose condition is the Where/Or/Not fragments of its chain;
	// InputArg is the value argument of Update/UpdateColumn (-1 if none).
	GormChain
	// GormSave: gorm's Save, which re-issues a rejected UPDATE as an
	// upsert without the WHERE: never fenced.
	GormSave
	// GormCreate: gorm's Create, a plain INSERT.
	GormCreate
	// GCSWrite: a Cloud Storage write; its object handle's If conditions
	// and object name are the fence (see GCS).
	GCSWrite
	// AzureWrite: an Azure Blob write; the AccessConditions of the options
	// at InputArg, or the token in the blob name (KeyArg, or the name the
	// client was made for), are the fence (see AzureBlob).
	AzureWrite
	// RedigoDo: a command sent by name, redigo's Conn.Do(name, args...):
	// the constant command name at QueryArg says what it is (a blind
	// write, EVAL of a script, SET NX, a read), its arguments are the
	// variadic at ArgsFrom. When QueryArg equals ArgsFrom the name is the
	// variadic's first element (go-redis's Do(ctx, "SET", key, ...)).
	RedigoDo
	// RedigoScript: (*redigo.Script).Do(c, keysAndArgs...): the script
	// and its key count come from redis.NewScript; keys and ARGV are the
	// variadic at ArgsFrom.
	RedigoScript
	// CQLQuery: a gocql query run (Exec, ScanCAS, MapScanCAS): its CQL
	// and values are those of the Session.Query that made the receiver
	// (CQLQueries), through the chain of Query methods that return the
	// query; a Bind on the way (CQLBinds) replaces the values. The write's
	// condition is the statement's IF clause (a lightweight transaction).
	CQLQuery
	// CQLBatch: a gocql batch executed (Session.ExecuteBatch and its CAS
	// forms, the batch at InputArg): the statements queued on it with
	// Batch.Query (CQLBatchQueries) or Entries are applied together, so
	// the batch is fenced when one of them has an IF that compares the
	// token (Cassandra applies a conditional batch all or nothing).
	CQLBatch
	// MongoWrite: a MongoDB collection write whose filter document is at
	// InputArg (-1: the filter is the _id alone, UpdateByID) and whose
	// update or replacement document is at UpdateArg (-1: a delete). The
	// filter is the condition; the update's $set (or the replacement)
	// records the token.
	MongoWrite
	// MongoBulk: Collection.BulkWrite, its write models at InputArg, each
	// judged as a MongoWrite; they are applied one by one, not together,
	// so every model needs its own fence.
	MongoBulk
	// ObjectVersioned: a Kubernetes object write (client-go Update,
	// UpdateStatus, Patch). The object at InputArg is a compare-and-set
	// when it carries the resourceVersion that was read (an object from a
	// Get or a List, its DeepCopy, or ResourceVersion assigned from a
	// read), and unconditional when it was built with none; for a Patch,
	// InputArg is the patch body, conditional when it names
	// metadata.resourceVersion.
	ObjectVersioned
)

// WriteKinds is every WriteKind, for the contract tests: each must have a
// reader in the engine and a Mechanism.
var WriteKinds = []WriteKind{
	SQLWrite, SQLStmtWrite, DynamoWrite, DynamoTransact, S3Write, KVBlind, EtcdTxnCommit,
	RedisScript, ZKVersioned, ZKMulti, Conditional, ConsulTxn, GormChain, GormSave, GormCreate,
	GCSWrite, AzureWrite, RedigoDo, RedigoScript, CQLQuery, CQLBatch, MongoWrite, MongoBulk, ObjectVersioned,
}

// Mechanism is the family of a WriteKind: where the store takes the
// condition it evaluates.
type Mechanism int

const (
	_ Mechanism = iota
	// MechText: statement or script text and its bound arguments (SQL,
	// a Redis script).
	MechText
	// MechInput: an input or options struct's condition fields and their
	// values (DynamoDB ConditionExpression, S3 IfMatch, Azure
	// AccessConditions, consul Txn verbs).
	MechInput
	// MechHandle: preconditions carried by the handle or builder the call
	// is made on (an etcd Txn's If, a GCS object handle's If, a gorm
	// chain's Where).
	MechHandle
	// MechVersion: a compare-and-set on a version or index the store
	// keeps (ZooKeeper's version, a Multi's check, consul CAS).
	MechVersion
	// MechBlind: unconditional by construction.
	MechBlind
)

// Mechanism returns the family of k; 0 for an unknown kind.
func (k WriteKind) Mechanism() Mechanism {
	switch k {
	case SQLWrite, SQLStmtWrite, RedisScript, RedigoDo, RedigoScript, CQLQuery, CQLBatch:
		return MechText
	case DynamoWrite, DynamoTransact, S3Write, ConsulTxn, AzureWrite, MongoWrite, MongoBulk:
		return MechInput
	case EtcdTxnCommit, GCSWrite, GormChain:
		return MechHandle
	case ZKVersioned, ZKMulti, Conditional, ObjectVersioned:
		return MechVersion
	case KVBlind, GormSave, GormCreate:
		return MechBlind
	}
	return 0
}

// Write describes one storage write call.
type Write struct {
	Func       string
	Kind       WriteKind
	Store      string // "SQL", "DynamoDB", "S3", "etcd", "Redis", ...
	QueryArg   int
	ArgsFrom   int
	InputArg   int
	KeyArg     int
	VersionArg int
	// UpdateArg is, for MongoWrite, the update or replacement document
	// (-1 for a delete, which records nothing).
	UpdateArg int
	// CheckType is the "pkgpath.Type" key of the operation that makes a
	// ZKMulti batch a compare-and-set (zk.CheckVersionRequest).
	CheckType string
	// Outcome is how the store reports that the write's condition
	// rejected it (outcome.go); every Write declares one.
	Outcome Outcome
	// CreateOnly: a blind write that only creates what does not exist yet
	// (ZooKeeper Create). It is not fenced, but it cannot overwrite a
	// newer holder's data.
	CreateOnly bool
	// RecipeFlag, when not 0, is a bit of the integer argument
	// RecipeFlagArg that makes the call a lock recipe's own bookkeeping
	// rather than a protected write (ZooKeeper Create with FlagSequence
	// makes the lock's queue node).
	RecipeFlagArg int
	RecipeFlag    int64
	// LockFlag, when not 0, is a bit of the same argument that makes the
	// created object live only as long as the creator's session (ZooKeeper
	// FlagEphemeral): such a create, without RecipeFlag, in a function
	// named like an acquire takes a lock (the engine's create-if-absent
	// locks).
	LockFlag int64
}

// Lib groups one library's knowledge.
type Lib struct {
	Name     string
	Paths    []string // import paths that make a package relevant
	Acquires []Acquire
	Releases []string // functions that release a lock taken by Acquires
	Renews   []string // functions that extend a lease: bookkeeping, not writes
	Tokens   []Token
	Writes   []Write
	// LockTypes are "pkgpath.Type" names of lock objects: a function taking
	// one as a parameter runs under that lock.
	LockTypes []string
	// LockTokens maps a LockTypes key to the accessor of the token that
	// lock object carries, for messages: ".Header().Revision". A lock type
	// not listed hands out no token.
	LockTokens map[string]string
	// TxTypes are "pkgpath.Type" keys of transaction and batch types: the
	// statements issued on one value commit or fail together.
	TxTypes []string
	// SessionTypes are "pkgpath.Type" keys of types that hold one database
	// session (a transaction or a pinned connection), as opposed to a
	// pool: a session-level lock taken on one covers the statements issued
	// on the same value.
	SessionTypes []string
	// Callbacks are "pkgpath.Type.Field" func-typed fields whose function
	// runs under the lock (client-go's OnStartedLeading).
	Callbacks []string
	// Reads are functions that only read; listed so readers of this table
	// know they were considered.
	Reads []string
}

// Libs is every library fencelint knows, one per file of this package.
var Libs = []*Lib{
	&EtcdConcurrency, &EtcdKV, &GoRedis, &Redsync, &RedisLock, &DynamoLock, &ZooKeeper, &SamuelZooKeeper,
	&Consul, &LeaderElection, &K8sObjects, &ControllerRuntime, &Gocron, &DatabaseSQL, &Sqlx, &Pgx, &PgxV4, &DynamoDB, &S3,
	&S3Manager, &Gorm, &GCS, &AzureBlob, &Redigo, &Gocql, &MongoDB, &Hazelcast, &GoZero, &UUID, &CryptoRand, &MathRand, &Time,
}

var (
	acquireByFunc = map[funcKey]*Acquire{}
	releaseByFunc = map[funcKey]bool{}
	renewByFunc   = map[funcKey]bool{}
	tokenByFunc   = map[funcKey]*Token{}
	tokenByField  = map[string]*Token{}
	writeByFunc   = map[funcKey]*Write{}
	lockTypes     = map[string]bool{}
	lockTokens    = map[string]string{}
	txTypes       = map[string]bool{}
	sessionTypes  = map[string]bool{}
	// typeNames holds the type name (the part after the last '.') of
	// every key of lockTypes, lockTokens, txTypes and sessionTypes, so
	// that a type none of them names is ruled out without building its
	// "pkgpath.Type" key (tableKey).
	typeNames = map[string]bool{}
	// fieldNames holds the field name (the part after the last '.') of
	// every key of tokenByField and callbacks, so that a field none of
	// them names is ruled out without building its "pkgpath.Type.Field"
	// key (TokenOfField and IsCallbackField are asked about every field
	// read).
	fieldNames = map[string]bool{}
	callbacks  = map[string]bool{}
	// funcNames holds the function or method name of every key of the
	// func tables (acquireByFunc, ..., writeByFunc), so that a call of
	// any other name is looked up without computing its funcKey.
	funcNames  = map[string]bool{}
	knownPaths = map[string]bool{}
)

// knownPaths is filled at start-up: the go vet driver asks IsKnownPath
// about every unit's imports. The other tables are built on the first
// lookup (indexed): go vet starts fencelint once per unit, and most units
// are answered from their import lists without one.
func init() {
	for _, lib := range Libs {
		addPaths(lib)
	}
}

var indexOnce sync.Once

// indexed builds the lookup tables from Libs on first use.
func indexed() {
	indexOnce.Do(func() {
		for _, lib := range Libs {
			index(lib)
		}
	})
}

// Register adds lib to Libs and to the lookup tables, as if it were one
// more file of this package. It is for tests that declare a library of
// their own (analyzer/newlib_test.go) and for programs that embed the
// analyzers with knowledge of an in-house store. Call it before any
// analysis starts (from init or TestMain): the tables are read without
// locks.
func Register(lib *Lib) {
	indexed()
	Libs = append(Libs, lib)
	addPaths(lib)
	index(lib)
}

func addPaths(lib *Lib) {
	for _, p := range lib.Paths {
		knownPaths[p] = true
	}
}

// index adds lib's entries to the lookup tables other than knownPaths.
func index(lib *Lib) {
	for i := range lib.Acquires {
		acquireByFunc[tableFuncKey(lib.Acquires[i].Func)] = &lib.Acquires[i]
	}
	for _, f := range lib.Releases {
		releaseByFunc[tableFuncKey(f)] = true
	}
	for _, f := range lib.Renews {
		renewByFunc[tableFuncKey(f)] = true
	}
	for i := range lib.Tokens {
		t := &lib.Tokens[i]
		if t.Func != "" {
			tokenByFunc[tableFuncKey(t.Func)] = t
		}
		if t.Field != "" {
			tokenByField[t.Field] = t
			fieldNames[typeNameOfKey(t.Field)] = true
		}
	}
	for i := range lib.Writes {
		writeByFunc[tableFuncKey(lib.Writes[i].Func)] = &lib.Writes[i]
	}
	for _, t := range lib.LockTypes {
		lockTypes[t] = true
	}
	for t, tok := range lib.LockTokens {
		lockTokens[t] = tok
	}
	for _, t := range lib.TxTypes {
		txTypes[t] = true
	}
	for _, t := range lib.SessionTypes {
		sessionTypes[t] = true
	}
	for _, c := range lib.Callbacks {
		callbacks[c] = true
		fieldNames[typeNameOfKey(c)] = true
	}
	for _, keys := range [][]string{lib.LockTypes, lib.TxTypes, lib.SessionTypes} {
		for _, k := range keys {
			typeNames[typeNameOfKey(k)] = true
		}
	}
	for k := range lib.LockTokens {
		typeNames[typeNameOfKey(k)] = true
	}
}

// typeNameOfKey returns the type name of a "pkgpath.Type" key.
func typeNameOfKey(k string) string { return k[strings.LastIndexByte(k, '.')+1:] }

// Key returns the table key of fn: the full name of its generic origin.
// Methods promoted from interfaces embedded in go-redis's Cmdable family
// are keyed by package path and name (see redisKey).
func Key(fn *types.Func) string {
	if fn == nil {
		return ""
	}
	return keyOf(fn).String()
}

// lookupKey is keyOf for the table lookups, which accept a nil fn.
func lookupKey(fn *types.Func) funcKey {
	indexed()
	if fn == nil || !funcNames[fn.Name()] {
		return funcKey{} // in no table: most calls are ruled out by name alone
	}
	return keyOf(fn)
}

// tableFuncKey parses a table's FullName-style key and records its
// function or method name in funcNames.
func tableFuncKey(s string) funcKey {
	k := parseKey(s)
	funcNames[k.name[strings.LastIndexByte(k.name, '.')+1:]] = true
	return k
}

// IsKnownPath reports whether importing path can make a package relevant.
// Every typed client package of client-go (one per API group and version)
// counts, as the typed clients are declared once (K8sObjects).
func IsKnownPath(path string) bool {
	path = LibPath(path)
	return knownPaths[path] || strings.HasPrefix(path, k8sTyped+"/")
}

// libraryModules are the modules whose behaviour rules/ describes: their
// own packages are never analysed for facts (their Unlock deletes a key,
// which must not make Unlock a "write helper"). The applications that live
// in the same module (appDirs) are analysed like any other code.
var libraryModules = []string{
	"database/sql", "go.etcd.io/etcd", "github.com/coreos/etcd", "github.com/redis/go-redis", "github.com/go-redis/redis",
	"github.com/go-redsync/redsync", "github.com/bsm/redislock", "cirello.io/dynamolock",
	"github.com/go-zookeeper/zk", "github.com/samuel/go-zookeeper", "github.com/hashicorp/consul",
	"k8s.io/client-go", "k8s.io/api", "k8s.io/apimachinery", "sigs.k8s.io/controller-runtime", "github.com/go-co-op/gocron",
	"github.com/jackc/pgx", "github.com/jackc/pgconn", "github.com/aws/aws-sdk-go-v2", "github.com/aws/smithy-go",
	"github.com/google/uuid", "github.com/jmoiron/sqlx", "github.com/gomodule/redigo",
	"cloud.google.com/go/storage", "github.com/Azure/azure-sdk-for-go",
	"github.com/gocql/gocql", "go.mongodb.org/mongo-driver", hazelcast, "github.com/zeromicro/go-zero",
	goRetry, "github.com/cenkalti/backoff", "github.com/avast/retry-go",
}

// wholeModules are library modules none of whose packages is analysed,
// applications included: gorm and the libraries built on it (gorm.io/gen's
// DO, plugins) start their chains from a *gorm.DB that already carries the
// caller's conditions, so judging them would turn every caller's fenced
// write into an "unfenced" fact.
var wholeModules = []string{"gorm.io"}

// appDirs are the directories of a library's module that hold programs
// built on the library rather than the library itself: etcd's contrib/lock,
// etcdctl and tools/benchmark, redsync's examples. Their code takes locks
// and writes like any application, so it is analysed (issue 13: skipping
// the whole module hid every lock user inside it).
var appDirs = map[string]bool{
	"contrib": true, "example": true, "examples": true, "_examples": true,
	"cmd": true, "tools": true, "etcdctl": true, "etcdutl": true,
}

// IsLibraryPackage reports whether path is the code of a library rules/
// knows (its behaviour comes from the tables, not from analysing it), as
// opposed to an application that merely lives in the library's module.
func IsLibraryPackage(path string) bool {
	path = LibPath(path)
	for _, m := range wholeModules {
		if hasPathPrefix(path, m) {
			return true
		}
	}
	for _, m := range libraryModules {
		if !hasPathPrefix(path, m) {
			continue
		}
		for _, elem := range strings.Split(strings.TrimPrefix(path, m), "/") {
			if appDirs[elem] {
				return false
			}
		}
		return true
	}
	return false
}

// AcquireOf returns the acquire rule for fn.
func AcquireOf(fn *types.Func) (*Acquire, bool) {
	a, ok := acquireByFunc[lookupKey(fn)]
	return a, ok
}

// IsRelease reports whether fn releases a lock.
func IsRelease(fn *types.Func) bool { return releaseByFunc[lookupKey(fn)] }

// IsKeyRelease reports whether fn releases a lock by deleting its key (a
// go-redis command, go-zero's Del): it releases a SET NX lock on that key
// only, never a lock of another library, and is a key-value write
// otherwise.
func IsKeyRelease(fn *types.Func) bool {
	if !IsRelease(fn) {
		return false
	}
	if IsRedisCommand(fn) {
		return true
	}
	w, ok := WriteOf(fn)
	return ok && w.Kind == KVBlind
}

// IsRenew reports whether fn extends a lease (lock bookkeeping).
func IsRenew(fn *types.Func) bool { return renewByFunc[lookupKey(fn)] }

// TokenOfFunc returns the token rule for a call of fn.
func TokenOfFunc(fn *types.Func) (*Token, bool) {
	t, ok := tokenByFunc[lookupKey(fn)]
	return t, ok
}

// TokenOfField returns the token rule for reading field f of struct type owner.
func TokenOfField(owner types.Type, f *types.Var) (*Token, bool) {
	indexed()
	if !fieldNames[f.Name()] {
		return nil, false
	}
	n := namedOf(owner)
	if n == nil || n.Obj().Pkg() == nil {
		return nil, false
	}
	t, ok := tokenByField[LibPath(n.Obj().Pkg().Path())+"."+n.Obj().Name()+"."+f.Name()]
	return t, ok
}

// WriteOf returns the write rule for fn.
func WriteOf(fn *types.Func) (*Write, bool) {
	w, ok := writeByFunc[lookupKey(fn)]
	return w, ok
}

// TypeKey returns the "pkgpath.Type" key of t (or *t, through aliases),
// "" when t is not a named type of a package.
func TypeKey(t types.Type) string {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil {
		return ""
	}
	return LibPath(n.Obj().Pkg().Path()) + "." + n.Obj().Name()
}

// tableKey is TypeKey(t) for a lookup in lockTypes, lockTokens, txTypes
// or sessionTypes: "" (no entry) without allocating when t's name is not
// a type name of any of them, which is nearly every type asked about.
func tableKey(t types.Type) string {
	indexed()
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil || !typeNames[n.Obj().Name()] {
		return ""
	}
	return LibPath(n.Obj().Pkg().Path()) + "." + n.Obj().Name()
}

// HasTypeKey reports whether t (or *t) is the named type key.
func HasTypeKey(t types.Type, key string) bool {
	return key != "" && TypeKey(t) == key
}

// IsLockType reports whether t (or *t) is a known lock object type.
func IsLockType(t types.Type) bool { return lockTypes[tableKey(t)] }

// LockTypeToken returns the accessor of the token a lock object of type t
// (or *t) carries, and whether it carries one.
func LockTypeToken(t types.Type) (string, bool) {
	tok, ok := lockTokens[tableKey(t)]
	return tok, ok
}

// IsTxType reports whether t (or *t) is a transaction or batch type
// (TxTypes).
func IsTxType(t types.Type) bool { return txTypes[tableKey(t)] }

// IsSessionType reports whether t (or *t) holds one database session
// (SessionTypes).
func IsSessionType(t types.Type) bool { return sessionTypes[tableKey(t)] }

// IsCallbackField reports whether f of owner is a func field run under a lock.
func IsCallbackField(owner types.Type, f *types.Var) bool {
	indexed()
	if !fieldNames[f.Name()] {
		return false
	}
	n := namedOf(owner)
	if n == nil || n.Obj().Pkg() == nil {
		return false
	}
	return callbacks[LibPath(n.Obj().Pkg().Path())+"."+n.Obj().Name()+"."+f.Name()]
}

// namedOf strips pointers and aliases down to a named type.
func namedOf(t types.Type) *types.Named {
	for i := 0; i < 3 && t != nil; i++ {
		t = types.Unalias(t)
		switch u := t.(type) {
		case *types.Named:
			return u
		case *types.Pointer:
			t = u.Elem()
		default:
			return nil
		}
	}
	return nil
}

// funcs builds FullName keys from a receiver prefix and method names:
// methods("(*database/sql.DB)", "Exec", "ExecContext").
func methods(recv string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = recv + "." + n
	}
	return out
}

// hasPathPrefix reports whether path is prefix or below it (without
// building prefix+"/": it is asked for every library module per call).
func hasPathPrefix(path, prefix string) bool {
	return strings.HasPrefix(path, prefix) && (len(path) == len(prefix) || path[len(prefix)] == '/')
}
