// Package wire picks the broker. app imports wire and base, never rdb or
// memq: their types reach app through facts only.
package wire

import (
	"database/sql"

	"unfencedwrite/xiface/base"
	"unfencedwrite/xiface/memq"
	"unfencedwrite/xiface/mocks"
	"unfencedwrite/xiface/rdb"
)

func Broker(db *sql.DB, single, dry bool) base.Broker {
	switch {
	case dry:
		return &mocks.Broker{}
	case single:
		return memq.New(db)
	}
	return rdb.New(db)
}
