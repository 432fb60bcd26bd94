// Package k8slease: a coordination.k8s.io Lease taken directly; checking
// its RenewTime against the local clock before a write is a client-side
// expiry check, not a fence.
package k8slease

import (
	"context"
	"database/sql"
	"errors"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

var errExpired = errors.New("lease expired")

func claim(ctx context.Context, cs kubernetes.Interface, id string) (*coordinationv1.Lease, error) {
	leases := cs.CoordinationV1().Leases("ops")
	lease, err := leases.Get(ctx, "jobs", metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	now := metav1.NowMicro()
	lease.Spec.HolderIdentity = &id
	lease.Spec.RenewTime = &now
	return leases.Update(ctx, lease, metav1.UpdateOptions{})
}

func renewTimeCheckBad(ctx context.Context, cs kubernetes.Interface, db *sql.DB, id string) error {
	lease, err := claim(ctx, cs, id)
	if err != nil {
		return err
	}
	ttl := time.Duration(*lease.Spec.LeaseDurationSeconds) * time.Second
	if lease.Spec.RenewTime.Add(ttl).Before(time.Now()) { // want `client-side expiry check lease.Spec.RenewTime.Add\(ttl\).Before\(time.Now\(\)\) guards the SQL write via db.ExecContext to jobs`
		return errExpired
	}
	_, err = db.ExecContext(ctx, "UPDATE jobs SET owner = $1 WHERE id = 1", id)
	return err
}

func transitionsInWriteGood(ctx context.Context, cs kubernetes.Interface, db *sql.DB, id string) error {
	lease, err := claim(ctx, cs, id)
	if err != nil {
		return err
	}
	// ok: the store compares the Lease's LeaseTransitions itself
	_, err = db.ExecContext(ctx, "UPDATE jobs SET owner = $1, fence = $2 WHERE id = 1 AND fence < $2", id, *lease.Spec.LeaseTransitions)
	return err
}
