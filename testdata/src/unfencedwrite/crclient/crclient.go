// Package crclient exercises controller-runtime's client as a Kubernetes
// object store under client-go leader election (an operator's
// OnStartedLeading work): Update and Status().Update are a
// compare-and-set when the object carries the resourceVersion that Get
// filled in; MergeFrom patches are blind unless built with
// MergeFromWithOptimisticLock.
package crclient

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/leaderelection"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func lead(ctx context.Context, run func(ctx context.Context)) {
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Callbacks: leaderelection.LeaderCallbacks{OnStartedLeading: run},
	})
}

func freshUpdateBad(ctx context.Context, c client.Client) {
	lead(ctx, func(ctx context.Context) {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "state", Namespace: "ops"}, Data: map[string]string{"owner": "me"}}
		_ = c.Update(ctx, cm) // want `Kubernetes API write via c.Update under the lock held by lead is not fenced: its object carries no resourceVersion`
	})
}

func getUpdateGood(ctx context.Context, c client.Client, key client.ObjectKey) {
	lead(ctx, func(ctx context.Context) {
		cm := &corev1.ConfigMap{}
		if err := c.Get(ctx, key, cm); err != nil {
			return
		}
		cm.Data = map[string]string{"owner": "me"}
		// ok: Get filled in the resourceVersion: a compare-and-set
		if err := c.Update(ctx, cm); err != nil {
			return
		}
		// ok: the status update carries it too
		if err := c.Status().Update(ctx, cm); err != nil {
			return
		}
	})
}

func mergePatchBad(ctx context.Context, c client.Client, key client.ObjectKey) {
	lead(ctx, func(ctx context.Context) {
		cm := &corev1.ConfigMap{}
		if err := c.Get(ctx, key, cm); err != nil {
			return
		}
		orig := cm.DeepCopy()
		cm.Data = map[string]string{"owner": "me"}
		_ = c.Patch(ctx, cm, client.MergeFrom(orig)) // want `Kubernetes API write via c.Patch under the lock held by lead is not fenced: its merge patch carries no resourceVersion precondition \(MergeFromWithOptimisticLock\)`
	})
}

func optimisticPatchGood(ctx context.Context, c client.Client, key client.ObjectKey) {
	lead(ctx, func(ctx context.Context) {
		cm := &corev1.ConfigMap{}
		if err := c.Get(ctx, key, cm); err != nil {
			return
		}
		orig := cm.DeepCopy()
		cm.Data = map[string]string{"owner": "me"}
		// ok: the patch carries the resourceVersion as a precondition
		if err := c.Patch(ctx, cm, client.MergeFromWithOptions(orig, client.MergeFromWithOptimisticLock{})); err != nil {
			return
		}
	})
}

func strategicPatchBad(ctx context.Context, c client.Client, cm *corev1.ConfigMap) {
	lead(ctx, func(ctx context.Context) {
		_ = c.Patch(ctx, cm, client.StrategicMergeFrom(cm.DeepCopy())) // want `Kubernetes API write via c.Patch under the lock held by lead is not fenced: its merge patch carries no resourceVersion precondition`
	})
}

func createBad(ctx context.Context, c client.Client) {
	lead(ctx, func(ctx context.Context) {
		_ = c.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "run-1", Namespace: "ops"}}) // want `Kubernetes API write via c.Create under the lock held by lead is not fenced: a plain Create is not conditioned on the lock`
	})
}
