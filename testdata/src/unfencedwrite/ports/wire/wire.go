// Package wire builds the adapters; svc sees them through the ports only.
package wire

import (
	"database/sql"

	"go.etcd.io/etcd/client/v3/concurrency"
	"unfencedwrite/ports/etcdlock"
	"unfencedwrite/ports/port"
	"unfencedwrite/ports/store"
)

func Locker(s *concurrency.Session) port.Locker { return &etcdlock.Locker{Sess: s} }

func Accounts(db *sql.DB) port.AccountStore { return &store.Accounts{DB: db} }
