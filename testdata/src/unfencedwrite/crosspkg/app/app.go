package app

import (
	"context"
	"database/sql"

	"unfencedwrite/crosspkg/locks"
	"unfencedwrite/crosspkg/store"
)

func helperBad(ctx context.Context, svc *locks.Service, db *sql.DB) error {
	if _, err := svc.Acquire(ctx, "acct"); err != nil {
		return err
	}
	defer svc.Release(ctx, "acct")
	return store.SaveBalance(ctx, db, "a", 10) // want `storage write via store.SaveBalance under the lock acquired by Acquire is not fenced: SaveBalance does a SQL write to accounts with no fence`
}

func helperGood(ctx context.Context, svc *locks.Service, db *sql.DB) error {
	tok, err := svc.Acquire(ctx, "acct")
	if err != nil {
		return err
	}
	defer svc.Release(ctx, "acct")
	// ok: the token reaches the helper's fence parameter
	return store.SaveBalanceAt(ctx, db, "a", 10, tok)
}

func helperNoTokenBad(ctx context.Context, svc *locks.Service, db *sql.DB) error {
	if _, err := svc.Acquire(ctx, "acct"); err != nil {
		return err
	}
	defer svc.Release(ctx, "acct")
	return store.SaveBalanceAt(ctx, db, "a", 10, 7) // want `no fencing token reaches SaveBalanceAt's fence parameter`
}

func callbackBad(ctx context.Context, svc *locks.Service, db *sql.DB) error {
	return svc.WithLock(ctx, "acct", func(ctx context.Context, tok int64) error {
		_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = 0 WHERE id = $1", "a") // want `under the lock held by svc.WithLock is not fenced`
		return err
	})
}

func callbackGood(ctx context.Context, svc *locks.Service, db *sql.DB) error {
	return svc.WithLock(ctx, "acct", func(ctx context.Context, tok int64) error {
		// ok: compared with the token handed to the callback
		_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = 0, fence = $2 WHERE id = $1 AND fence < $2", "a", tok)
		return err
	})
}

func directiveWriteBad(ctx context.Context, svc *locks.Service) error {
	h, err := svc.TakeHandle(ctx, "topic")
	if err != nil {
		return err
	}
	defer svc.Release(ctx, "topic")
	_ = h
	seq := uint64(len("t"))
	return store.Publish(ctx, "t", nil, seq) // want `no fencing token reaches Publish's fence parameter`
}

func directiveWriteGood(ctx context.Context, svc *locks.Service) error {
	h, err := svc.TakeHandle(ctx, "topic")
	if err != nil {
		return err
	}
	defer svc.Release(ctx, "topic")
	// ok: the //fencelint:token field reaches the write's token parameter
	return store.Publish(ctx, "t", nil, h.Seq)
}
