// Package k8sobjects exercises client-go's typed and dynamic clients as a
// store (an Update carrying the resourceVersion it read is a
// compare-and-set) and a coordination.k8s.io Lease used as a lock directly.
package k8sobjects

import (
	"context"
	"database/sql"
	"errors"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	applycorev1 "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
)

var errHeld = errors.New("lease held by another holder")

// ---- writes under client-go leader election ----

func leaderFreshUpdateBad(ctx context.Context, cs kubernetes.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "state", Namespace: "ops"}, Data: map[string]string{"owner": "me"}}
				_, _ = cs.CoreV1().ConfigMaps("ops").Update(ctx, cm, metav1.UpdateOptions{}) // want `Kubernetes API write via cs.CoreV1\(\).ConfigMaps\("ops"\).Update under the leader election \(OnStartedLeading\) is not fenced: its object carries no resourceVersion, so the API server writes it unconditionally`
			},
		},
	})
}

func leaderReadUpdateGood(ctx context.Context, cs kubernetes.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				cms := cs.CoreV1().ConfigMaps("ops")
				cm, err := cms.Get(ctx, "state", metav1.GetOptions{})
				if err != nil {
					return
				}
				cm = cm.DeepCopy()
				cm.Data = map[string]string{"owner": "me"}
				// ok: a compare-and-set on the resourceVersion read: a newer
				// leader's write in between is answered with a Conflict
				if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
					return
				}
			},
		},
	})
}

func leaderCopiedVersionGood(ctx context.Context, cs kubernetes.Interface, desired *corev1.ConfigMap) error {
	var err error
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				cms := cs.CoreV1().ConfigMaps("ops")
				cur, gerr := cms.Get(ctx, "state", metav1.GetOptions{})
				if gerr != nil {
					err = gerr
					return
				}
				obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "state", Namespace: "ops", ResourceVersion: cur.ResourceVersion}, Data: desired.Data}
				// ok: the resourceVersion read makes it a compare-and-set
				_, err = cms.Update(ctx, obj, metav1.UpdateOptions{})
			},
		},
	})
	return err
}

func leaderClearedVersionBad(ctx context.Context, cs kubernetes.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				cms := cs.CoreV1().ConfigMaps("ops")
				cm, err := cms.Get(ctx, "state", metav1.GetOptions{})
				if err != nil {
					return
				}
				cm.ResourceVersion = ""                            // "force" the update
				_, _ = cms.Update(ctx, cm, metav1.UpdateOptions{}) // want `Kubernetes API write via cms.Update under the leader election \(OnStartedLeading\) is not fenced: its object carries no resourceVersion`
			},
		},
	})
}

func leaderDynamicBad(ctx context.Context, dc dynamic.Interface, res dynamic.NamespaceableResourceInterface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "state"}}}
				_, _ = res.Namespace("ops").Update(ctx, u, metav1.UpdateOptions{}) // want `Kubernetes API write via res.Namespace\("ops"\).Update under the leader election \(OnStartedLeading\) is not fenced: its object carries no resourceVersion`
			},
		},
	})
}

func leaderDynamicGood(ctx context.Context, res dynamic.NamespaceableResourceInterface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				u, err := res.Namespace("ops").Get(ctx, "state", metav1.GetOptions{})
				if err != nil {
					return
				}
				// ok: the object read carries its resourceVersion
				if _, err := res.Namespace("ops").UpdateStatus(ctx, u, metav1.UpdateOptions{}); err != nil {
					return
				}
			},
		},
	})
}

func leaderPatchBad(ctx context.Context, cs kubernetes.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				_, _ = cs.CoreV1().ConfigMaps("ops").Patch(ctx, "state", types.MergePatchType, []byte(`{"data":{"owner":"me"}}`), metav1.PatchOptions{}) // want `Kubernetes API write via cs.CoreV1\(\).ConfigMaps\("ops"\).Patch to state under the leader election \(OnStartedLeading\) is not fenced: its patch names no resourceVersion`
			},
		},
	})
}

func leaderPatchGood(ctx context.Context, cs kubernetes.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				// ok: the patch carries a resourceVersion precondition
				_, _ = cs.CoreV1().ConfigMaps("ops").Patch(ctx, "state", types.MergePatchType, []byte(`{"metadata":{"resourceVersion":"42"},"data":{"owner":"me"}}`), metav1.PatchOptions{})
			},
		},
	})
}

// ---- a coordination.k8s.io Lease taken directly ----

// acquire takes the Lease for id: it is free or expired, so id becomes
// its holder and LeaseTransitions counts the change of holder.
func acquire(ctx context.Context, cs kubernetes.Interface, id string) (*coordinationv1.Lease, error) {
	leases := cs.CoordinationV1().Leases("ops")
	lease, err := leases.Get(ctx, "jobs", metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	if lease.Spec.HolderIdentity != nil && *lease.Spec.HolderIdentity != id {
		return nil, errHeld
	}
	n := int32(1)
	if lease.Spec.LeaseTransitions != nil {
		n = *lease.Spec.LeaseTransitions + 1
	}
	lease.Spec.HolderIdentity = &id
	lease.Spec.LeaseTransitions = &n
	return leases.Update(ctx, lease, metav1.UpdateOptions{})
}

func leaseWriteBad(ctx context.Context, cs kubernetes.Interface, db *sql.DB, id string) error {
	if _, err := acquire(ctx, cs, id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE jobs SET owner = $1 WHERE id = 1", id) // want `SQL write via db.ExecContext to jobs under the Kubernetes Lease is not fenced: its WHERE does not compare a fence column with the token`
	return err
}

func leaseWriteGood(ctx context.Context, cs kubernetes.Interface, db *sql.DB, id string) error {
	lease, err := acquire(ctx, cs, id)
	if err != nil {
		return err
	}
	// ok: the Lease's LeaseTransitions is compared by the write
	_, err = db.ExecContext(ctx, "UPDATE jobs SET owner = $1, fence = $2 WHERE id = 1 AND fence < $2", id, *lease.Spec.LeaseTransitions)
	return err
}

func leaseInlineBad(ctx context.Context, cs kubernetes.Interface, db *sql.DB, id string) error {
	leases := cs.CoordinationV1().Leases("ops")
	lease, err := leases.Get(ctx, "jobs", metav1.GetOptions{})
	if err != nil {
		return err
	}
	lease.Spec.HolderIdentity = &id
	lease, err = leases.Update(ctx, lease, metav1.UpdateOptions{})
	if err != nil {
		// ok: not acquired
		_, _ = db.ExecContext(ctx, "UPDATE jobs SET state = 'waiting' WHERE id = 1")
		return err
	}
	// ok: renewing the Lease is the lock's own bookkeeping
	lease, err = leases.Update(ctx, lease, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET state = 'running' WHERE id = 1") // want `SQL write via db.ExecContext to jobs under the Kubernetes Lease is not fenced`
	return err
}

func leaseReadOnlyGood(ctx context.Context, cs kubernetes.Interface, db *sql.DB) error {
	leases := cs.CoordinationV1().Leases("ops")
	lease, err := leases.Get(ctx, "jobs", metav1.GetOptions{})
	if err != nil {
		return err
	}
	// ok: an Update of a Lease whose holder is not taken here is no acquire
	if _, err := leases.Update(ctx, lease, metav1.UpdateOptions{}); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET state = 'seen' WHERE id = 1")
	return err
}

// ---- creates and server-side apply ----

func leaderCreateBad(ctx context.Context, cs kubernetes.Interface, res dynamic.NamespaceableResourceInterface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "run-1", Namespace: "ops"}}
				_, _ = cs.CoreV1().ConfigMaps("ops").Create(ctx, cm, metav1.CreateOptions{}) // want `Kubernetes API write via cs.CoreV1\(\).ConfigMaps\("ops"\).Create under the leader election \(OnStartedLeading\) is not fenced: a plain Create is not conditioned on the lock`
				u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "run-1"}}}
				_, _ = res.Namespace("ops").Create(ctx, u, metav1.CreateOptions{}) // want `Kubernetes API write via res.Namespace\("ops"\).Create under the leader election \(OnStartedLeading\) is not fenced: a plain Create is not conditioned on the lock`
			},
		},
	})
}

func leaderApplyBad(ctx context.Context, cs kubernetes.Interface, res dynamic.NamespaceableResourceInterface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				_, _ = cs.CoreV1().ConfigMaps("ops").Apply(ctx, applycorev1.ConfigMap("state", "ops"), metav1.ApplyOptions{FieldManager: "ctl", Force: true}) // want `Kubernetes API write via cs.CoreV1\(\).ConfigMaps\("ops"\).Apply under the leader election \(OnStartedLeading\) is not fenced: it is unconditional`
				u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "state"}}}
				_, _ = res.Namespace("ops").Apply(ctx, "state", u, metav1.ApplyOptions{FieldManager: "ctl", Force: true}) // want `Kubernetes API write via res.Namespace\("ops"\).Apply to state under the leader election \(OnStartedLeading\) is not fenced: it is unconditional`
			},
		},
	})
}

func leaderDynamicPatchBad(ctx context.Context, res dynamic.NamespaceableResourceInterface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				_, _ = res.Namespace("ops").Patch(ctx, "state", types.MergePatchType, []byte(`{"spec":{"paused":true}}`), metav1.PatchOptions{}) // want `Kubernetes API write via res.Namespace\("ops"\).Patch to state under the leader election \(OnStartedLeading\) is not fenced: its patch names no resourceVersion`
			},
		},
	})
}

func leaderBuiltPatchUnknown(ctx context.Context, res dynamic.NamespaceableResourceInterface, body []byte) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				// ok: a body built elsewhere may carry a resourceVersion: unknown
				_, _ = res.Namespace("ops").Patch(ctx, "state", types.MergePatchType, body, metav1.PatchOptions{})
			},
		},
	})
}

// ---- UpdateStatus of a typed client ----

func leaderStatusFreshBad(ctx context.Context, cs kubernetes.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "vip", Namespace: "ops"}}
				_, _ = cs.CoreV1().Services("ops").UpdateStatus(ctx, svc, metav1.UpdateOptions{}) // want `Kubernetes API write via cs.CoreV1\(\).Services\("ops"\).UpdateStatus under the leader election \(OnStartedLeading\) is not fenced: its object carries no resourceVersion`
			},
		},
	})
}

func leaderStatusReadGood(ctx context.Context, cs kubernetes.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				svc, err := cs.CoreV1().Services("ops").Get(ctx, "vip", metav1.GetOptions{})
				if err != nil {
					return
				}
				cp := svc.DeepCopy()
				// ok: the status update carries the resourceVersion read
				if _, err := cs.CoreV1().Services("ops").UpdateStatus(ctx, cp, metav1.UpdateOptions{}); err != nil {
					return
				}
			},
		},
	})
}

// ---- objects whose resourceVersion comes from elsewhere ----

func leaderCopiedMetaGood(ctx context.Context, cs kubernetes.Interface) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				cms := cs.CoreV1().ConfigMaps("ops")
				cur, err := cms.Get(ctx, "state", metav1.GetOptions{})
				if err != nil {
					return
				}
				// ok: the metadata read, resourceVersion included, is copied
				obj := &corev1.ConfigMap{ObjectMeta: cur.ObjectMeta, Data: map[string]string{"owner": "me"}}
				_, _ = cms.Update(ctx, obj, metav1.UpdateOptions{})
			},
		},
	})
}

func leaderDecodedUnknown(ctx context.Context, cs kubernetes.Interface, fill func(*corev1.ConfigMap)) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				obj := &corev1.ConfigMap{}
				fill(obj) // may set the resourceVersion: unknown
				// ok: not judged
				_, _ = cs.CoreV1().ConfigMaps("ops").Update(ctx, obj, metav1.UpdateOptions{})
			},
		},
	})
}

// ---- patch bodies built by concatenation ----

func leaderLabelPatchBad(ctx context.Context, cs kubernetes.Interface, pod, key, val string) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				patch := []byte(`{"metadata":{"labels":{"` + key + `":"` + val + `"}}}`)
				_, _ = cs.CoreV1().ConfigMaps("ops").Patch(ctx, pod, types.MergePatchType, patch, metav1.PatchOptions{}) // want `Kubernetes API write via cs.CoreV1\(\).ConfigMaps\("ops"\).Patch under the leader election \(OnStartedLeading\) is not fenced: its patch names no resourceVersion`
			},
		},
	})
}

func leaderSplicedPatchUnknown(ctx context.Context, cs kubernetes.Interface, pod, fields string) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				// ok: the spliced-in fields may carry a resourceVersion: unknown
				_, _ = cs.CoreV1().ConfigMaps("ops").Patch(ctx, pod, types.MergePatchType, []byte(`{"metadata":{`+fields+`}}`), metav1.PatchOptions{})
			},
		},
	})
}
