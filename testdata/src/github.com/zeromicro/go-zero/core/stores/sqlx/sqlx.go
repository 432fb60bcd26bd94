// Package sqlx is a stub of github.com/zeromicro/go-zero/core/stores/sqlx
// v1.10.3: its connection and session interfaces
// (fencetest.TestStubsMatchRealModules checks the signatures).
package sqlx

import (
	"context"
	"database/sql"
)

type (
	Session interface {
		Exec(query string, args ...any) (sql.Result, error)
		ExecCtx(ctx context.Context, query string, args ...any) (sql.Result, error)
		QueryRow(v any, query string, args ...any) error
		QueryRowCtx(ctx context.Context, v any, query string, args ...any) error
	}

	SqlConn interface {
		Session
		Transact(fn func(Session) error) error
		TransactCtx(ctx context.Context, fn func(context.Context, Session) error) error
	}
)
