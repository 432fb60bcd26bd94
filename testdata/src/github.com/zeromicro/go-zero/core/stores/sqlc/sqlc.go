// Package sqlc is a stub of github.com/zeromicro/go-zero/core/stores/sqlc
// v1.10.3: the cached connection's writes
// (fencetest.TestStubsMatchRealModules checks the signatures).
package sqlc

import (
	"context"
	"database/sql"

	"github.com/zeromicro/go-zero/core/stores/sqlx"
)

type (
	ExecFn    func(conn sqlx.SqlConn) (sql.Result, error)
	ExecCtxFn func(ctx context.Context, conn sqlx.SqlConn) (sql.Result, error)

	CachedConn struct{}
)

func (cc CachedConn) Exec(exec ExecFn, keys ...string) (sql.Result, error) { panic("stub") }
func (cc CachedConn) ExecCtx(ctx context.Context, exec ExecCtxFn, keys ...string) (sql.Result, error) {
	panic("stub")
}
func (cc CachedConn) ExecNoCache(q string, args ...any) (sql.Result, error) { panic("stub") }
func (cc CachedConn) ExecNoCacheCtx(ctx context.Context, q string, args ...any) (sql.Result, error) {
	panic("stub")
}
