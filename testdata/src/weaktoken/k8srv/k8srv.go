// Package k8srv: a Kubernetes object's resourceVersion is opaque by API
// convention; used as a fence that another store compares for order, it
// is a weak token. A Lease's LeaseTransitions is the token to use.
package k8srv

import (
	"context"
	"database/sql"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

func claim(ctx context.Context, cs kubernetes.Interface, id string) (*coordinationv1.Lease, error) {
	leases := cs.CoordinationV1().Leases("ops")
	lease, err := leases.Get(ctx, "jobs", metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	lease.Spec.HolderIdentity = &id
	return leases.Update(ctx, lease, metav1.UpdateOptions{})
}

func resourceVersionFenceBad(ctx context.Context, cs kubernetes.Interface, db *sql.DB, id string) error {
	lease, err := claim(ctx, cs, id)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET owner = $1, fence = $2 WHERE id = 1 AND fence < $2", id, lease.ResourceVersion) // want `lease.ResourceVersion is not a monotonic fencing token: a resourceVersion is opaque by API convention: it may be compared for equality only, never for order`
	return err
}

func resourceVersionGetterBad(ctx context.Context, cs kubernetes.Interface, db *sql.DB, id string) error {
	lease, err := claim(ctx, cs, id)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET owner = $1, fence = $2 WHERE id = 1 AND fence < $2", id, lease.GetResourceVersion()) // want `lease.GetResourceVersion\(\) is not a monotonic fencing token: a resourceVersion is opaque`
	return err
}

func transitionsFenceGood(ctx context.Context, cs kubernetes.Interface, db *sql.DB, id string) error {
	lease, err := claim(ctx, cs, id)
	if err != nil {
		return err
	}
	// ok: LeaseTransitions grows with every change of holder
	_, err = db.ExecContext(ctx, "UPDATE jobs SET owner = $1, fence = $2 WHERE id = 1 AND fence < $2", id, *lease.Spec.LeaseTransitions)
	return err
}
