package libs

import (
	"context"
	"database/sql"

	pgxv4 "github.com/jackc/pgx/v4"
	pgxpoolv4 "github.com/jackc/pgx/v4/pgxpool"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Every database/sql and pgx method rules/ lists as a write, without a
// fence under an etcd mutex. Query and QueryRow are writes because their
// SQL is (UPDATE ... RETURNING).

const bumpReturning = "UPDATE docs SET body = $1 WHERE id = $2 RETURNING version"

func sqlDBBad(ctx context.Context, m *concurrency.Mutex, db *sql.DB, body, id string) {
	db.Exec("UPDATE docs SET body = $1 WHERE id = $2", body, id) // want `SQL write via db.Exec to docs under the concurrency.Mutex m is not fenced`
	db.Query(bumpReturning, body, id)                            // want `SQL write via db.Query to docs under the concurrency.Mutex m is not fenced`
	db.QueryRow(bumpReturning, body, id)                         // want `SQL write via db.QueryRow to docs under the concurrency.Mutex m is not fenced`
	db.QueryContext(ctx, bumpReturning, body, id)                // want `SQL write via db.QueryContext to docs under the concurrency.Mutex m is not fenced`
}

func sqlDBGood(ctx context.Context, m *concurrency.Mutex, db *sql.DB, body, id string) {
	rev := m.Header().Revision
	// ok: fenced with the mutex revision
	db.Exec("UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3", body, id, rev)
	// ok: as above, with RETURNING
	db.QueryRow("UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3 RETURNING version", body, id, rev)
}

func sqlTxBad(ctx context.Context, m *concurrency.Mutex, db *sql.DB, body, id string) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	tx.Exec("UPDATE docs SET body = $1 WHERE id = $2", body, id) // want `SQL write via tx.Exec to docs under the concurrency.Mutex m is not fenced`
	tx.Query(bumpReturning, body, id)                            // want `SQL write via tx.Query to docs under the concurrency.Mutex m is not fenced`
	tx.QueryRow(bumpReturning, body, id)                         // want `SQL write via tx.QueryRow to docs under the concurrency.Mutex m is not fenced`
	tx.QueryContext(ctx, bumpReturning, body, id)                // want `SQL write via tx.QueryContext to docs under the concurrency.Mutex m is not fenced`
	return tx.Commit()
}

func sqlConnBad(ctx context.Context, m *concurrency.Mutex, db *sql.DB, body, id string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.QueryContext(ctx, bumpReturning, body, id)    // want `SQL write via conn.QueryContext to docs under the concurrency.Mutex m is not fenced`
	conn.QueryRowContext(ctx, bumpReturning, body, id) // want `SQL write via conn.QueryRowContext to docs under the concurrency.Mutex m is not fenced`
	return nil
}

func sqlStmtBad(ctx context.Context, m *concurrency.Mutex, db *sql.DB, body, id string) error {
	st, err := db.Prepare(bumpReturning)
	if err != nil {
		return err
	}
	defer st.Close()
	st.Exec(body, id)                 // want `SQL write via st.Exec to docs under the concurrency.Mutex m is not fenced`
	st.Query(body, id)                // want `SQL write via st.Query to docs under the concurrency.Mutex m is not fenced`
	st.QueryRow(body, id)             // want `SQL write via st.QueryRow to docs under the concurrency.Mutex m is not fenced`
	st.QueryContext(ctx, body, id)    // want `SQL write via st.QueryContext to docs under the concurrency.Mutex m is not fenced`
	st.QueryRowContext(ctx, body, id) // want `SQL write via st.QueryRowContext to docs under the concurrency.Mutex m is not fenced`
	return nil
}

func sqlStmtGood(ctx context.Context, m *concurrency.Mutex, db *sql.DB, body, id string) error {
	st, err := db.PrepareContext(ctx, "UPDATE docs SET body = $1, fence = $3 WHERE id = $2 AND fence < $3 RETURNING version")
	if err != nil {
		return err
	}
	defer st.Close()
	// ok: the prepared SQL compares the fence with the bound revision
	st.QueryRowContext(ctx, body, id, m.Header().Revision)
	return nil
}

func pgxV5Bad(ctx context.Context, m *concurrency.Mutex, conn *pgx.Conn, pool *pgxpool.Pool, body, id string) error {
	conn.Query(ctx, bumpReturning, body, id)    // want `SQL write via conn.Query to docs under the concurrency.Mutex m is not fenced`
	pool.Query(ctx, bumpReturning, body, id)    // want `SQL write via pool.Query to docs under the concurrency.Mutex m is not fenced`
	pool.QueryRow(ctx, bumpReturning, body, id) // want `SQL write via pool.QueryRow to docs under the concurrency.Mutex m is not fenced`
	pc, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer pc.Release()
	pc.Exec(ctx, "UPDATE docs SET body = $1 WHERE id = $2", body, id) // want `SQL write via pc.Exec to docs under the concurrency.Mutex m is not fenced`
	pc.Query(ctx, bumpReturning, body, id)                            // want `SQL write via pc.Query to docs under the concurrency.Mutex m is not fenced`
	pc.QueryRow(ctx, bumpReturning, body, id)                         // want `SQL write via pc.QueryRow to docs under the concurrency.Mutex m is not fenced`
	return nil
}

func pgxV5TxBad(ctx context.Context, m *concurrency.Mutex, pool *pgxpool.Pool, body, id string) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tx.Query(ctx, bumpReturning, body, id)    // want `SQL write via tx.Query to docs under the concurrency.Mutex m is not fenced`
	tx.QueryRow(ctx, bumpReturning, body, id) // want `SQL write via tx.QueryRow to docs under the concurrency.Mutex m is not fenced`
	ptx := tx.(*pgxpool.Tx)
	ptx.Exec(ctx, "UPDATE docs SET body = $1 WHERE id = $2", body, id) // want `SQL write via ptx.Exec to docs under the concurrency.Mutex m is not fenced`
	ptx.Query(ctx, bumpReturning, body, id)                            // want `SQL write via ptx.Query to docs under the concurrency.Mutex m is not fenced`
	ptx.QueryRow(ctx, bumpReturning, body, id)                         // want `SQL write via ptx.QueryRow to docs under the concurrency.Mutex m is not fenced`
	return tx.Commit(ctx)
}

func pgxV5PoolTxGood(ctx context.Context, m *concurrency.Mutex, pool *pgxpool.Pool, body, id string) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	ptx := tx.(*pgxpool.Tx)
	tag, err := ptx.Exec(ctx, "UPDATE docs SET fence = $2 WHERE id = $1 AND fence < $2", id, m.Header().Revision)
	if err != nil || tag.RowsAffected() == 0 {
		return err
	}
	// ok: the transaction is fenced by the statement above
	ptx.Exec(ctx, "UPDATE docs SET body = $1 WHERE id = $2", body, id)
	return tx.Commit(ctx)
}

func pgxV4Bad(ctx context.Context, m *concurrency.Mutex, conn *pgxv4.Conn, pool *pgxpoolv4.Pool, body, id string) error {
	conn.Exec(ctx, "UPDATE docs SET body = $1 WHERE id = $2", body, id) // want `SQL write via conn.Exec to docs under the concurrency.Mutex m is not fenced`
	conn.Query(ctx, bumpReturning, body, id)                            // want `SQL write via conn.Query to docs under the concurrency.Mutex m is not fenced`
	conn.QueryRow(ctx, bumpReturning, body, id)                         // want `SQL write via conn.QueryRow to docs under the concurrency.Mutex m is not fenced`
	pool.Query(ctx, bumpReturning, body, id)                            // want `SQL write via pool.Query to docs under the concurrency.Mutex m is not fenced`
	pool.QueryRow(ctx, bumpReturning, body, id)                         // want `SQL write via pool.QueryRow to docs under the concurrency.Mutex m is not fenced`
	pc, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer pc.Release()
	pc.Exec(ctx, "UPDATE docs SET body = $1 WHERE id = $2", body, id) // want `SQL write via pc.Exec to docs under the concurrency.Mutex m is not fenced`
	pc.Query(ctx, bumpReturning, body, id)                            // want `SQL write via pc.Query to docs under the concurrency.Mutex m is not fenced`
	pc.QueryRow(ctx, bumpReturning, body, id)                         // want `SQL write via pc.QueryRow to docs under the concurrency.Mutex m is not fenced`
	return nil
}

func pgxV4TxBad(ctx context.Context, m *concurrency.Mutex, pool *pgxpoolv4.Pool, body, id string) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tx.Query(ctx, bumpReturning, body, id)    // want `SQL write via tx.Query to docs under the concurrency.Mutex m is not fenced`
	tx.QueryRow(ctx, bumpReturning, body, id) // want `SQL write via tx.QueryRow to docs under the concurrency.Mutex m is not fenced`
	ptx := tx.(*pgxpoolv4.Tx)
	ptx.Exec(ctx, "UPDATE docs SET body = $1 WHERE id = $2", body, id) // want `SQL write via ptx.Exec to docs under the concurrency.Mutex m is not fenced`
	ptx.Query(ctx, bumpReturning, body, id)                            // want `SQL write via ptx.Query to docs under the concurrency.Mutex m is not fenced`
	ptx.QueryRow(ctx, bumpReturning, body, id)                         // want `SQL write via ptx.QueryRow to docs under the concurrency.Mutex m is not fenced`
	return tx.Commit(ctx)
}
