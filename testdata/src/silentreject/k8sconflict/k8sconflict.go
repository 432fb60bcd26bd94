// Package k8sconflict exercises the outcome of a client-go Update that
// carries the resourceVersion it read: the API server answers a stale one
// with a Conflict (apierrors.IsConflict).
package k8sconflict

import (
	"context"
	"errors"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/util/retry"
)

var errStale = errors.New("a newer leader has written")

func lead(ctx context.Context, run func(ctx context.Context)) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{OnStartedLeading: run},
	})
}

func setOwner(cm *corev1.ConfigMap) { cm.Data = map[string]string{"owner": "me"} }

func discardedBad(ctx context.Context, cs kubernetes.Interface) {
	lead(ctx, func(ctx context.Context) {
		cms := cs.CoreV1().ConfigMaps("ops")
		cm, err := cms.Get(ctx, "state", metav1.GetOptions{})
		if err != nil {
			return
		}
		setOwner(cm)
		_, _ = cms.Update(ctx, cm, metav1.UpdateOptions{}) // want `the error of fenced write via cms.Update is discarded: a failed condition \(Conflict\) is how the fence rejects a stale holder`
	})
}

// claim takes the coordination.k8s.io Lease "jobs" for id.
func claim(ctx context.Context, cs kubernetes.Interface, id string) (*coordinationv1.Lease, error) {
	leases := cs.CoordinationV1().Leases("ops")
	lease, err := leases.Get(ctx, "jobs", metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	lease.Spec.HolderIdentity = &id
	return leases.Update(ctx, lease, metav1.UpdateOptions{})
}

func conflictAsSuccessBad(ctx context.Context, cs kubernetes.Interface, id string) error {
	if _, err := claim(ctx, cs, id); err != nil {
		return err
	}
	cms := cs.CoreV1().ConfigMaps("ops")
	cm, err := cms.Get(ctx, "state", metav1.GetOptions{})
	if err != nil {
		return err
	}
	setOwner(cm)
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{}) // want `fenced write via cms.Update treats Conflict as success: the fence rejected a stale holder; abort, do not carry on`
	if apierrors.IsConflict(err) {
		return nil
	}
	return err
}

func conflictAbortGood(ctx context.Context, cs kubernetes.Interface, id string) error {
	if _, err := claim(ctx, cs, id); err != nil {
		return err
	}
	cms := cs.CoreV1().ConfigMaps("ops")
	cm, err := cms.Get(ctx, "state", metav1.GetOptions{})
	if err != nil {
		return err
	}
	setOwner(cm)
	// ok: a Conflict aborts
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	if apierrors.IsConflict(err) {
		return errStale
	}
	return err
}

func retryOnConflictBad(ctx context.Context, cs kubernetes.Interface) error {
	var out error
	lead(ctx, func(ctx context.Context) {
		cms := cs.CoreV1().ConfigMaps("ops")
		out = retry.RetryOnConflict(retry.DefaultRetry, func() error {
			cm, err := cms.Get(ctx, "state", metav1.GetOptions{})
			if err != nil {
				return err
			}
			setOwner(cm)
			_, err = cms.Update(ctx, cm, metav1.UpdateOptions{}) // want `fenced write via cms.Update is re-issued after the fence rejected it \(Conflict\): a newer holder has written; abort, do not retry`
			return err
		})
	})
	return out
}

func retryOnErrorBad(ctx context.Context, cs kubernetes.Interface) error {
	var out error
	lead(ctx, func(ctx context.Context) {
		cms := cs.CoreV1().ConfigMaps("ops")
		out = retry.OnError(retry.DefaultBackoff, apierrors.IsConflict, func() error {
			cm, err := cms.Get(ctx, "state", metav1.GetOptions{})
			if err != nil {
				return err
			}
			setOwner(cm)
			_, err = cms.Update(ctx, cm, metav1.UpdateOptions{}) // want `fenced write via cms.Update is re-issued after the fence rejected it \(Conflict\)`
			return err
		})
	})
	return out
}

func retryOutsideLockGood(ctx context.Context, cs kubernetes.Interface) error {
	cms := cs.CoreV1().ConfigMaps("ops")
	// ok: no lock is held, so a Conflict is an ordinary optimistic-
	// concurrency retry, not a stale holder writing again
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cm, err := cms.Get(ctx, "state", metav1.GetOptions{})
		if err != nil {
			return err
		}
		setOwner(cm)
		_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
		return err
	})
}

func returnedGood(ctx context.Context, cs kubernetes.Interface) error {
	var out error
	lead(ctx, func(ctx context.Context) {
		out = func() error {
			cms := cs.CoreV1().ConfigMaps("ops")
			cm, err := cms.Get(ctx, "state", metav1.GetOptions{})
			if err != nil {
				return err
			}
			setOwner(cm)
			// ok: the Conflict goes back to the caller, no retrier
			_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
			return err
		}()
	})
	return out
}
