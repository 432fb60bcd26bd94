package libs

import (
	"context"

	redisv8 "github.com/go-redis/redis/v8"
)

// go-redis v8's Script.Eval and Script.EvalSha: the script's source is
// that of its NewScript.

var v8BlindSet = redisv8.NewScript(`redis.call('SET', KEYS[1], ARGV[1]) return 1`)

func v8ScriptEvalBad(ctx context.Context, rdb *redisv8.Client, lease Lease, v string) error {
	if err := v8BlindSet.Eval(ctx, rdb, []string{"data"}, v).Err(); err != nil { // want `Redis write via v8BlindSet.Eval under the Lease held in parameter lease is not fenced: the script compares no token passed in ARGV`
		return err
	}
	return v8BlindSet.EvalSha(ctx, rdb, []string{"data"}, v).Err() // want `Redis write via v8BlindSet.EvalSha under the Lease held in parameter lease is not fenced: the script compares no token passed in ARGV`
}

func v8ScriptEvalGood(ctx context.Context, rdb *redisv8.Client, lease Lease, v string) error {
	// ok: the script compares the token passed in ARGV[2]
	if err := v8FencedSet.Eval(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Err(); err != nil {
		return err
	}
	// ok: the same script by its SHA
	return v8FencedSet.EvalSha(ctx, rdb, []string{"data", "data:fence"}, v, lease.Token).Err()
}
