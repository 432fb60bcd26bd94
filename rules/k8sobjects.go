package rules

import (
	"go/types"
	"strings"
)

const (
	// k8sTyped is the parent of client-go's generated typed clients
	// (kubernetes/typed/core/v1, .../coordination/v1, ...).
	k8sTyped   = "k8s.io/client-go/kubernetes/typed"
	k8sDynamic = "k8s.io/client-go/dynamic"
	k8sMeta    = "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sErrors  = "k8s.io/apimachinery/pkg/api/errors"
	k8sRetry   = "k8s.io/client-go/util/retry"
	k8sCoord   = "k8s.io/api/coordination/v1"
	k8sStore   = K8sStore
)

// k8sTypedRecv is the receiver every generated typed client interface
// (ConfigMapInterface, LeaseInterface, DeploymentInterface, ...) is keyed
// by: their Update, Create, Get, ... take the same arguments in the same
// places for every resource, so one key per method covers every resource
// (as go-redis's commands are keyed by name, see redisKey). The key is
// "(k8s.io/client-go/kubernetes/typed.ResourceInterface).Update".
const k8sTypedRecv = "(" + k8sTyped + ".ResourceInterface)."

// isK8sTypedClient reports whether the named type recv, declared in the
// package rules/ knows as pkg, is a typed client interface: an interface
// whose name ends in "Interface" in a package below
// k8s.io/client-go/kubernetes/typed. The fake clients (typed/.../fake) are
// concrete types and keep their own keys.
func isK8sTypedClient(pkg string, recv *types.Named) bool {
	return strings.HasPrefix(pkg, k8sTyped+"/") && strings.HasSuffix(recv.Obj().Name(), "Interface") && types.IsInterface(recv)
}

// k8sConflict is how the API server rejects an Update whose object's
// resourceVersion is no longer the stored one: 409 Conflict, told apart
// with apierrors.IsConflict. retry.RetryOnConflict (and retry.OnError)
// run their func argument again on it: a Get+Update inside one re-reads
// and writes again, so the rejection is retried (docs/design.md,
// "Kubernetes objects").
var k8sConflict = Outcome{Kind: RejectError, Name: "Conflict",
	Predicates: []string{k8sErrors + ".IsConflict"},
	Retriers:   map[string]int{k8sRetry + ".RetryOnConflict": 1, k8sRetry + ".OnError": 2}}

// K8sObjects is client-go's typed and dynamic clients as a store. An
// Update (or UpdateStatus) sends the whole object, and the API server
// compares its metadata.resourceVersion with the stored one when it is
// set: an object that was read (Get, a List's item, a DeepCopy of one) or
// whose ResourceVersion was assigned from a read makes it a
// compare-and-set, answered with a Conflict; an object built with an empty
// resourceVersion is written unconditionally (ObjectVersioned). Create
// only creates (AlreadyExists otherwise), server-side Apply is blind, and
// a Patch is blind unless its body carries a resourceVersion.
//
// A coordination.k8s.io Lease updated with its holder set to the caller is
// an acquire (K8sLeaseLock); resourceVersion itself is opaque by API
// convention, so a value that compares it for order is a weak token.
var K8sObjects = Lib{
	Name:  "client-go objects",
	Paths: []string{k8sDynamic, k8sTyped + "/core/v1", k8sTyped + "/coordination/v1", "k8s.io/client-go/kubernetes"},
	Writes: []Write{
		{Func: k8sTypedRecv + "Update", Kind: ObjectVersioned, Store: k8sStore, InputArg: 1, KeyArg: -1, Outcome: k8sConflict},
		{Func: k8sTypedRecv + "UpdateStatus", Kind: ObjectVersioned, Store: k8sStore, InputArg: 1, KeyArg: -1, Outcome: k8sConflict},
		{Func: "(" + k8sDynamic + ".ResourceInterface).Update", Kind: ObjectVersioned, Store: k8sStore, InputArg: 1, KeyArg: -1, Outcome: k8sConflict},
		{Func: "(" + k8sDynamic + ".ResourceInterface).UpdateStatus", Kind: ObjectVersioned, Store: k8sStore, InputArg: 1, KeyArg: -1, Outcome: k8sConflict},
		// A merge or JSON patch carries a precondition only when its
		// body names metadata.resourceVersion.
		{Func: k8sTypedRecv + "Patch", Kind: ObjectVersioned, Store: k8sStore, InputArg: 3, KeyArg: 1, Outcome: k8sConflict},
		{Func: "(" + k8sDynamic + ".ResourceInterface).Patch", Kind: ObjectVersioned, Store: k8sStore, InputArg: 3, KeyArg: 1, Outcome: k8sConflict},
		{Func: k8sTypedRecv + "Create", Kind: KVBlind, Store: k8sStore, KeyArg: -1, CreateOnly: true, Outcome: NoOutcome},
		{Func: "(" + k8sDynamic + ".ResourceInterface).Create", Kind: KVBlind, Store: k8sStore, KeyArg: -1, CreateOnly: true, Outcome: NoOutcome},
		{Func: k8sTypedRecv + "Apply", Kind: KVBlind, Store: k8sStore, KeyArg: -1, Outcome: NoOutcome},
		{Func: "(" + k8sDynamic + ".ResourceInterface).Apply", Kind: KVBlind, Store: k8sStore, KeyArg: 1, Outcome: NoOutcome},
	},
	Tokens: []Token{
		{Func: "(*" + k8sMeta + ".ObjectMeta).GetResourceVersion", Desc: "the object's resourceVersion", Weak: WeakRandom, Issuer: k8sStore,
			Why: "a resourceVersion is opaque by API convention: it may be compared for equality only, never for order"},
		{Field: k8sMeta + ".ObjectMeta.ResourceVersion", Desc: "the object's ResourceVersion", Weak: WeakRandom, Issuer: k8sStore,
			Why: "a resourceVersion is opaque by API convention: it may be compared for equality only, never for order"},
	},
	Reads: []string{k8sTypedRecv + "Get", "(" + k8sDynamic + ".ResourceInterface).Get"},
}

const crClient = "sigs.k8s.io/controller-runtime/pkg/client"

// ControllerRuntime is controller-runtime's client, the one operators use:
// its Update and Status().Update send the whole object as client-go's do
// (ObjectVersioned, the same Conflict); a Patch is built by MergeFrom or
// StrategicMergeFrom (blind) or MergeFromWithOptions with
// MergeFromWithOptimisticLock (a resourceVersion precondition); Get fills
// the object it is given, which then carries the stored resourceVersion
// (K8sObjectFills).
var ControllerRuntime = Lib{
	Name:  "controller-runtime client",
	Paths: []string{crClient},
	Writes: []Write{
		{Func: "(" + crClient + ".Writer).Update", Kind: ObjectVersioned, Store: k8sStore, InputArg: 1, KeyArg: -1, Outcome: k8sConflict},
		{Func: "(" + crClient + ".SubResourceWriter).Update", Kind: ObjectVersioned, Store: k8sStore, InputArg: 1, KeyArg: -1, Outcome: k8sConflict},
		{Func: "(" + crClient + ".Writer).Patch", Kind: ObjectVersioned, Store: k8sStore, InputArg: 2, KeyArg: -1, Outcome: k8sConflict},
		{Func: "(" + crClient + ".Writer).Create", Kind: KVBlind, Store: k8sStore, KeyArg: -1, CreateOnly: true, Outcome: NoOutcome},
	},
	Reads: []string{"(" + crClient + ".Reader).Get"},
}

// K8sObjectFills are the reads that fill the object passed at the given
// index (controller-runtime's Get(ctx, key, obj)): afterwards it carries
// the stored resourceVersion.
var K8sObjectFills = map[string]int{"(" + crClient + ".Reader).Get": 2}

// K8sPatchBuilders say what a controller-runtime Patch built by each
// function carries: MergeFrom and StrategicMergeFrom send no
// resourceVersion unless given K8sOptimisticLock among their options.
var K8sPatchBuilders = map[string]bool{
	crClient + ".MergeFrom":            true,
	crClient + ".MergeFromWithOptions": true,
	crClient + ".StrategicMergeFrom":   true,
}

// K8sOptimisticLock is the option that makes a merge patch carry the
// object's resourceVersion as a precondition.
const K8sOptimisticLock = crClient + ".MergeFromWithOptimisticLock"

// K8sStore is the store of Kubernetes object writes, as messages name it.
const K8sStore = "Kubernetes API"

// K8sObjectMetaType is the metadata struct whose ResourceVersion field an
// object write carries, K8sSetResourceVersion its setter (on ObjectMeta
// and on unstructured.Unstructured); K8sResourceVersionField names the
// field.
const (
	K8sObjectMetaType       = k8sMeta + ".ObjectMeta"
	K8sResourceVersionField = "ResourceVersion"
	K8sSetResourceVersion   = "SetResourceVersion"
)

// IsK8sObjectRead reports whether fn reads an object from the API server
// or an informer's cache, so that the object it returns carries the
// stored resourceVersion: Get of a typed or dynamic client, Get or List of
// a lister, List of a client (whose Items carry theirs).
func IsK8sObjectRead(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Name() {
	case "Get", "List":
	default:
		return false
	}
	p := LibPath(fn.Pkg().Path())
	return strings.HasPrefix(p, k8sTyped+"/") || p == k8sDynamic || strings.HasPrefix(p, "k8s.io/client-go/listers/")
}

// K8sLeaseLock describes a coordination.k8s.io Lease used as a lock
// directly (not through leaderelection): an Update or Create of an object
// of Type whose Spec.HolderIdentity (HolderField of HolderType) is
// assigned in the same function takes the lock, and the returned Lease
// carries the token, Spec.LeaseTransitions, which the holder increments
// on every change of holder (monotonic per Lease, as long as the Lease is
// not deleted and identities are not reused). Every other write of a
// Lease (a renewal, a release) is the lock's own bookkeeping.
var K8sLeaseLock = struct {
	Type, HolderType, HolderField string
	Acquire                       Acquire
}{
	Type: k8sCoord + ".Lease", HolderType: k8sCoord + ".LeaseSpec", HolderField: "HolderIdentity",
	Acquire: Acquire{Func: k8sTypedRecv + "Update", Success: ErrNil, Lock: "Kubernetes Lease", KeyArg: -1, LockResult: true,
		Token: ".Spec.LeaseTransitions"},
}
