package basic

import (
	"context"

	redisv8 "github.com/go-redis/redis/v8"
)

// V8Locker takes its token from a go-redis v8 script.
type V8Locker struct{ rdb *redisv8.Client }

func (l *V8Locker) AcquireIncrBad(ctx context.Context, res string) (*Lease, error) {
	tok, err := l.rdb.Eval(ctx, acquireLua, []string{res, res + ":fence"}, "me", 30000).Int64() // want `l.rdb.Eval's INCR result is not a monotonic fencing token`
	if err != nil || tok == 0 {
		return nil, err
	}
	return &Lease{Resource: res, Token: tok}, nil
}

func (l *V8Locker) AcquireScriptGood(ctx context.Context, res string, epoch int64) (*Lease, error) {
	if err := l.rdb.Eval(ctx, setLua, []string{res}, "me", 30000).Err(); err != nil {
		return nil, err
	}
	// ok: the epoch comes from the caller, not from the script
	return &Lease{Resource: res, Token: epoch}, nil
}
