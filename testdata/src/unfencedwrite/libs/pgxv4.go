package libs

import (
	"context"

	pgxv4 "github.com/jackc/pgx/v4"
	pgxpoolv4 "github.com/jackc/pgx/v4/pgxpool"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// pgx v4: the same methods as v5.

func pgxV4PoolBad(ctx context.Context, s *concurrency.Session, pool *pgxpoolv4.Pool, id string) error {
	m := concurrency.NewMutex(s, "/locks/acct")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	_, err := pool.Exec(ctx, "DELETE FROM search_resources WHERE cluster = $1", id) // want `SQL write via pool.Exec to search_resources under the etcd mutex is not fenced`
	return err
}

func pgxV4PoolGood(ctx context.Context, s *concurrency.Session, pool *pgxpoolv4.Pool, id string) error {
	m := concurrency.NewMutex(s, "/locks/acct")
	if err := m.Lock(ctx); err != nil {
		return err
	}
	defer m.Unlock(ctx)
	// ok: fenced with the mutex revision
	_, err := pool.Exec(ctx, "UPDATE search_resources SET fence = $2 WHERE cluster = $1 AND fence < $2", id, m.Header().Revision)
	return err
}

func pgxV4TxUnitGood(ctx context.Context, m *concurrency.Mutex, conn *pgxv4.Conn, id string) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence < $2", id, m.Header().Revision)
	if err != nil || tag.RowsAffected() == 0 {
		return err
	}
	// ok: the transaction is fenced by the statement above
	if _, err := tx.Exec(ctx, "DELETE FROM drafts WHERE doc_id = $1", id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func pgxV4BatchBad(ctx context.Context, m *concurrency.Mutex, conn *pgxv4.Conn, id string) error {
	b := &pgxv4.Batch{}
	b.Queue("UPDATE docs SET body = 'x' WHERE id = $1", id) // want `SQL write via b.Queue to docs under the concurrency.Mutex m is not fenced`
	return conn.SendBatch(ctx, b).Close()
}
