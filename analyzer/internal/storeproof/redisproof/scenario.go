package redisproof

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bsm/redislock"
	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/storeproof"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"
)

// AcquireWithFence is the runbook's acquire_with_fence.lua: the lock and
// its token in one script. KEYS[1] = lock key, KEYS[2] = fence counter;
// ARGV[1] = holder id, ARGV[2] = lease ms. Returns the token, or 0 if the
// lock is held.
const AcquireWithFence = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', tonumber(ARGV[2])) then
  return redis.call('INCR', KEYS[2])
end
return 0`

var acquireScript = redis.NewScript(AcquireWithFence)

// highFence is a stored fence above both tokens, tried only when B's
// script write does not land from an empty state.
const highFence = 1000

// Lock kinds the scenario plays.
const (
	lockFence     = "acquire_with_fence.lua"
	lockSetNX     = "SET NX"
	lockRedsync   = "redsync"
	lockRedislock = "redislock"
)

// deleting are the commands that remove what they name: B's tenure is
// represented by what it left (seed), A's write must remove it.
var deleting = map[string]func(ctx context.Context, c *redis.Client, key string, args []any) error{
	"Del": func(ctx context.Context, c *redis.Client, key string, _ []any) error {
		return c.Set(ctx, key, "left-by-B", 0).Err()
	},
	"Unlink": func(ctx context.Context, c *redis.Client, key string, _ []any) error {
		return c.Set(ctx, key, "left-by-B", 0).Err()
	},
	"GetDel": func(ctx context.Context, c *redis.Client, key string, _ []any) error {
		return c.Set(ctx, key, "left-by-B", 0).Err()
	},
	"HDel": func(ctx context.Context, c *redis.Client, key string, args []any) error {
		for _, f := range args {
			if err := c.HSet(ctx, key, f, "left-by-B").Err(); err != nil {
				return err
			}
		}
		return nil
	},
	"SRem": func(ctx context.Context, c *redis.Client, key string, args []any) error {
		return c.SAdd(ctx, key, args...).Err()
	},
	"ZRem": func(ctx context.Context, c *redis.Client, key string, args []any) error {
		for _, m := range args {
			if err := c.ZAdd(ctx, key, redis.Z{Score: 1, Member: m}).Err(); err != nil {
				return err
			}
		}
		return nil
	},
	"LPop": func(ctx context.Context, c *redis.Client, key string, _ []any) error {
		return c.RPush(ctx, key, "left-by-B").Err()
	},
	"RPop": func(ctx context.Context, c *redis.Client, key string, _ []any) error {
		return c.RPush(ctx, key, "left-by-B").Err()
	},
	"SPop": func(ctx context.Context, c *redis.Client, key string, _ []any) error {
		return c.SAdd(ctx, key, "left-by-B").Err()
	},
	"ZPopMin":          zsetLeftByB,
	"ZPopMax":          zsetLeftByB,
	"ZRemRangeByScore": zsetLeftByB,
	"ZRemRangeByRank":  zsetLeftByB,
}

// zsetLeftByB seeds a sorted set with a member inside any score or rank
// range the cases remove (score 1, rank 0).
func zsetLeftByB(ctx context.Context, c *redis.Client, key string, _ []any) error {
	return c.ZAdd(ctx, key, redis.Z{Score: 1, Member: "left-by-B"}).Err()
}

// needsKey are commands that change only a key that exists, with how to
// seed it.
var needsKey = map[string]func(ctx context.Context, c *redis.Client, key string) error{}

func init() {
	str := func(ctx context.Context, c *redis.Client, key string) error { return c.Set(ctx, key, "1", 0).Err() }
	list := func(ctx context.Context, c *redis.Client, key string) error { return c.RPush(ctx, key, "x", "y").Err() }
	for _, n := range []string{"Expire", "PExpire", "ExpireAt", "PExpireAt", "Rename", "SetXX", "GetSet", "GetEx"} {
		needsKey[n] = str
	}
	for _, n := range []string{"LSet", "LTrim", "LRem", "LPushX", "RPushX"} {
		needsKey[n] = list
	}
}

// multiKey are commands whose every (or first n) arguments are keys.
var multiKey = map[string]int{"Del": -1, "Unlink": -1, "Rename": 2}

// Case is one Redis write prepared for the scenario.
type Case struct {
	Pos            string
	Call           string
	Verdict        fence.Verdict
	Shape          *fence.RedisShape
	Lock           string // one of the lock kinds
	ExpectRejected bool
	NS             string // prefix of every key of the case
}

// NewCase prepares f; a non-empty skip says why it cannot be replayed.
func NewCase(f storeproof.Found, ns string) (*Case, string) {
	w := f.Write
	if !storeproof.Judged(w.Verdict) {
		return nil, "verdict " + w.Verdict.String() + " is not judged by the scenario"
	}
	sh := w.Redis
	if sh == nil {
		return nil, "the engine recorded no shape for this write"
	}
	c := &Case{Pos: f.Pos, Call: w.Call, Verdict: w.Verdict, Shape: sh, NS: ns,
		ExpectRejected: w.Verdict == fence.Fenced, Lock: lockFence}
	if w.Scope != nil {
		switch l := w.Scope.Lock; {
		case strings.Contains(l, "SET NX"):
			c.Lock = lockSetNX
		case strings.Contains(l, "redsync"):
			c.Lock = lockRedsync
		case strings.Contains(l, "redislock"):
			c.Lock = lockRedislock
		}
	}
	if sh.Script != "" {
		switch {
		case sh.Command == "FCall":
			return nil, "Redis functions (FCALL) are not replayed"
		case sh.KeysUnread:
			return nil, "the script's KEYS are built where the engine cannot read them"
		case sh.ScriptArgsUnread:
			return nil, "the script's ARGV are built where the engine cannot read them"
		}
		return c, ""
	}
	if sh.ArgsUnread {
		return nil, "the command's arguments are built where the engine cannot read them"
	}
	if v9Method(sh.Command) == "" {
		return nil, fmt.Sprintf("go-redis v9 has no command %s", sh.Command)
	}
	if strings.HasSuffix(sh.Command, "Del") || strings.HasSuffix(sh.Command, "Rem") || strings.HasSuffix(sh.Command, "Pop") || sh.Command == "Unlink" {
		if deleting[sh.Command] == nil {
			return nil, fmt.Sprintf("the deleting command %s is not replayed", sh.Command)
		}
	}
	return c, ""
}

// v9Method is the go-redis v9 method for a v9 or v8 command name (v8's
// SetEX is v9's SetEx), or "".
func v9Method(name string) string {
	t := reflect.TypeOf(&redis.Client{})
	if _, ok := t.MethodByName(name); ok {
		return name
	}
	for i := 0; i < t.NumMethod(); i++ {
		if m := t.Method(i).Name; strings.EqualFold(m, name) {
			return m
		}
	}
	return ""
}

// holder is one worker: its id, its lock and the token it was granted
// (0 for locks that give none).
type holder struct {
	name    string
	n       int // 1 for A, 2 for B: data values differ by holder
	token   int64
	release func()
}

func (c *Case) lockKey() string { return c.NS + "lock" }

// acquire takes the case's lock with ttl.
func (c *Case) acquire(ctx context.Context, rdb *redis.Client, name string, n int, ttl time.Duration) (*holder, error) {
	h := &holder{name: name, n: n, release: func() {}}
	switch c.Lock {
	case lockFence:
		tok, err := acquireScript.Run(ctx, rdb, []string{c.lockKey(), c.NS + "fence"}, name, ttl.Milliseconds()).Int64()
		if err != nil {
			return nil, err
		}
		if tok == 0 {
			return nil, errors.New("acquire_with_fence.lua: the lock is held")
		}
		h.token = tok
	case lockSetNX:
		ok, err := rdb.SetNX(ctx, c.lockKey(), name, ttl).Result()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errors.New("SET NX: the lock is held")
		}
	case lockRedsync:
		rs := redsync.New(goredis.NewPool(rdb))
		m := rs.NewMutex(c.lockKey(), redsync.WithExpiry(ttl), redsync.WithTries(1))
		if err := m.LockContext(ctx); err != nil {
			return nil, err
		}
	case lockRedislock:
		l, err := redislock.New(rdb).Obtain(ctx, c.lockKey(), ttl, nil)
		if err != nil {
			return nil, err
		}
		h.release = func() { _ = l.Release(context.Background()) }
	}
	return h, nil
}

// Outcome is what Redis did.
type Outcome struct {
	Lock                   string
	Baseline               int64 // the stored fence seeded in KEYS, 0: none
	TokenA, TokenB         int64
	BLanded, ALanded       bool
	Control, ControlLanded bool
	AReply, AErr           string
}

func (o *Outcome) String() string {
	s := o.Lock
	if o.TokenB != 0 {
		s += fmt.Sprintf(" (tokens: A %d, B %d)", o.TokenA, o.TokenB)
	}
	if o.Baseline != 0 {
		s += fmt.Sprintf("; KEYS seeded with %d", o.Baseline)
	}
	s += fmt.Sprintf("; B's write changed the data: %v; stale A's write changed it: %v (reply %s)", o.BLanded, o.ALanded, o.AReply)
	if o.Control {
		s += fmt.Sprintf("; control (a newer holder C, same state) changed it: %v", o.ControlLanded)
	}
	return s
}

// Agrees reports whether Redis's behaviour matches the verdict.
func (o *Outcome) Agrees(expectRejected bool) bool {
	if expectRejected {
		return !o.ALanded
	}
	return o.ALanded || (o.Control && !o.ControlLanded)
}

// Run plays the scenario: A acquires (TTL 200ms) and is paused until
// the lock expires; B acquires (TTL 30s) and writes; A writes.
func (c *Case) Run(ctx context.Context, rdb *redis.Client) (*Outcome, error) {
	out := &Outcome{Lock: c.Lock}
	a, err := c.acquire(ctx, rdb, "A", 1, 200*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("A acquiring: %w", err)
	}
	if err := waitGone(ctx, rdb, c.lockKey()); err != nil {
		return nil, err
	}
	b, err := c.acquire(ctx, rdb, "B", 2, 30*time.Second)
	if err != nil {
		return nil, fmt.Errorf("B acquiring after A's lock expired: %w", err)
	}
	defer b.release()
	out.TokenA, out.TokenB = a.token, b.token
	if c.Lock == lockFence && a.token >= b.token {
		return nil, fmt.Errorf("acquire_with_fence.lua gave A %d and B %d", a.token, b.token)
	}
	if seed := deleting[c.Shape.Command]; seed != nil && c.Shape.Script == "" {
		// B's own delete is not replayed: the data holds what B's
		// tenure left, for A's delete to remove.
		keys, args := c.commandKeys(b)
		for _, k := range keys {
			if err := seed(ctx, rdb, k, args); err != nil {
				return nil, err
			}
		}
		out.BLanded = true
	} else {
		landed, _, err := c.writeAndDiff(ctx, rdb, b)
		if err != nil {
			return nil, fmt.Errorf("B's write: %w", err)
		}
		if seed := needsKey[c.Shape.Command]; !landed && seed != nil && c.Shape.Script == "" {
			// A command that changes only an existing key (EXPIRE, SET
			// XX, LSET): the key holds what an earlier tenure left.
			keys, _ := c.commandKeys(b)
			for _, k := range keys {
				if err := seed(ctx, rdb, k); err != nil {
					return nil, err
				}
			}
			if landed, _, err = c.writeAndDiff(ctx, rdb, b); err != nil {
				return nil, fmt.Errorf("B's write: %w", err)
			}
		}
		if !landed && c.Shape.Script != "" {
			// A script that refuses B from an empty state may compare the
			// wrong way (it admits only tokens below the stored fence):
			// start again from a stored fence above both tokens, as
			// pgproof does.
			for j, k := range c.Shape.Keys {
				if err := rdb.Set(ctx, c.key(k, j), highFence, 0).Err(); err != nil {
					return nil, err
				}
			}
			out.Baseline = highFence
			if landed, _, err = c.writeAndDiff(ctx, rdb, b); err != nil {
				return nil, fmt.Errorf("B's write: %w", err)
			}
		}
		out.BLanded = landed
	}
	if !out.BLanded {
		return out, errors.New("the current holder B's write changes nothing in this state, so A's proves nothing: " + out.String())
	}
	landed, reply, err := c.writeAndDiff(ctx, rdb, a)
	if err != nil {
		return nil, fmt.Errorf("A's write: %w", err)
	}
	out.ALanded, out.AReply = landed, reply
	if !landed && !c.ExpectRejected {
		// Control: B releases, a newer holder C acquires (the next token)
		// and writes in the same state. If C is refused too, what refused
		// A is not the lock.
		out.Control = true
		b.release()
		if err := rdb.Del(ctx, c.lockKey()).Err(); err != nil {
			return nil, err
		}
		h, err := c.acquire(ctx, rdb, "C", 3, 30*time.Second)
		if err != nil {
			return nil, fmt.Errorf("control C acquiring: %w", err)
		}
		defer h.release()
		if out.ControlLanded, _, err = c.writeAndDiff(ctx, rdb, h); err != nil {
			return nil, fmt.Errorf("control write: %w", err)
		}
	}
	return out, nil
}

func waitGone(ctx context.Context, rdb *redis.Client, key string) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		n, err := rdb.Exists(ctx, key).Result()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("A's lock %s did not expire in 10s", key)
}

// key maps a key operand: a constant under the case's prefix, or a fixed
// key of the case (the same for A and B).
func (c *Case) key(a fence.Arg, j int) string {
	if a.Kind == "string" {
		return c.NS + a.Const
	}
	return fmt.Sprintf("%skey%d", c.NS, j)
}

// data is a value A or B writes: constants as written, the token as
// granted, anything else a value of the holder's own.
func (h *holder) data(a fence.Arg, j int) any {
	switch {
	case a.Token != "":
		return h.token
	case a.Kind == "string":
		return a.Const
	case a.Kind == "int":
		n, _ := strconv.ParseInt(a.Const, 10, 64)
		return n
	case a.Kind != "":
		return a.Const
	}
	return int64(h.n*1000 + j)
}

// commandKeys returns a plain command's keys and its other arguments.
func (c *Case) commandKeys(h *holder) (keys []string, rest []any) {
	nkeys := 1
	if n, ok := multiKey[c.Shape.Command]; ok {
		nkeys = n
	}
	for j, a := range c.Shape.Args {
		if nkeys < 0 || j < nkeys {
			keys = append(keys, c.key(a, j))
			continue
		}
		if deleting[c.Shape.Command] != nil && a.Token == "" && a.Kind == "" {
			rest = append(rest, "shared-member") // what to delete: the same for both
			continue
		}
		rest = append(rest, h.data(a, j))
	}
	return keys, rest
}

// writeAndDiff plays the write as h and reports whether it landed:
// Redis counted a change, or the case's data (every key of the case but
// the lock's own) differs.
func (c *Case) writeAndDiff(ctx context.Context, rdb *redis.Client, h *holder) (bool, string, error) {
	before, err := c.snapshot(ctx, rdb)
	if err != nil {
		return false, "", err
	}
	d0, err := dirty(ctx, rdb)
	if err != nil {
		return false, "", err
	}
	reply, err := c.write(ctx, rdb, h)
	if err != nil {
		return false, "", err
	}
	d1, err := dirty(ctx, rdb)
	if err != nil {
		return false, "", err
	}
	after, err := c.snapshot(ctx, rdb)
	if err != nil {
		return false, "", err
	}
	return d1 > d0 || !maps2Equal(before, after), reply, nil
}

// dirty is Redis's count of changes to the dataset
// (rdb_changes_since_last_save; it only grows, as nothing is saved). A
// write that stores what was already there still counts, so a write of
// the same constant shows. Cases run one at a time, so the count is the
// write's own.
func dirty(ctx context.Context, rdb *redis.Client) (int64, error) {
	info, err := rdb.Info(ctx, "persistence").Result()
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "rdb_changes_since_last_save:"); ok {
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, errors.New("INFO persistence has no rdb_changes_since_last_save")
}

func maps2Equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// snapshot is every key of the case but the lock and its fence counter,
// serialised with DUMP, and its TTL to the nearest 50s.
func (c *Case) snapshot(ctx context.Context, rdb *redis.Client) (map[string]string, error) {
	keys, err := rdb.Keys(ctx, c.NS+"*").Result()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, k := range keys {
		if k == c.lockKey() || k == c.NS+"fence" {
			continue
		}
		d, err := rdb.Dump(ctx, k).Result()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ttl, err := rdb.PTTL(ctx, k).Result()
		if err != nil {
			return nil, err
		}
		out[k] = fmt.Sprintf("%x ttl=%d", d, (ttl+25*time.Second)/(50*time.Second))
	}
	return out, nil
}

// write plays the write as h and returns its reply.
func (c *Case) write(ctx context.Context, rdb *redis.Client, h *holder) (string, error) {
	sh := c.Shape
	if sh.Script != "" {
		keys := make([]string, len(sh.Keys))
		for j, k := range sh.Keys {
			keys[j] = c.key(k, j)
		}
		args := make([]any, len(sh.ScriptArgs))
		for j, a := range sh.ScriptArgs {
			if slices.Contains(sh.Compared, j+1) && a.Token == "" && a.Kind == "" {
				args[j] = "7" // compared, not from the lock: the same for both
				continue
			}
			args[j] = h.data(a, j)
		}
		var cmd *redis.Cmd
		switch sh.Command {
		case "Eval":
			cmd = rdb.Eval(ctx, sh.Script, keys, args...)
		case "EvalSha":
			sha, err := rdb.ScriptLoad(ctx, sh.Script).Result()
			if err != nil {
				return "", err
			}
			cmd = rdb.EvalSha(ctx, sha, keys, args...)
		default: // (*Script).Run, Eval, EvalSha
			cmd = redis.NewScript(sh.Script).Run(ctx, rdb, keys, args...)
		}
		v, err := cmd.Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return "", err
		}
		return fmt.Sprint(v), nil
	}
	keys, rest := c.commandKeys(h)
	m := reflect.ValueOf(rdb).MethodByName(v9Method(sh.Command))
	mt := m.Type()
	in := []reflect.Value{reflect.ValueOf(ctx)}
	vals := make([]any, 0, len(keys)+len(rest))
	for _, k := range keys {
		vals = append(vals, k)
	}
	vals = append(vals, rest...)
	for i, v := range vals {
		pi := i + 1
		var pt reflect.Type
		if mt.IsVariadic() && pi >= mt.NumIn()-1 {
			pt = mt.In(mt.NumIn() - 1).Elem()
		} else if pi < mt.NumIn() {
			pt = mt.In(pi)
		} else {
			return "", fmt.Errorf("%s takes %d arguments", sh.Command, mt.NumIn())
		}
		rv, err := convert(v, pt, h)
		if err != nil {
			return "", fmt.Errorf("%s argument %d: %w", sh.Command, pi, err)
		}
		in = append(in, rv)
	}
	if need := mt.NumIn(); len(in) < need && !(mt.IsVariadic() && len(in) == need-1) {
		// reflect would panic: a shape read from another client's call
		return "", fmt.Errorf("%s takes %d arguments, the write's shape gives %d", sh.Command, need, len(in))
	}
	res := m.Call(in)
	cmd, ok := res[0].Interface().(redis.Cmder)
	if !ok {
		return "", fmt.Errorf("%s returned %s", sh.Command, res[0].Type())
	}
	if err := cmd.Err(); err != nil && !errors.Is(err, redis.Nil) {
		return "", err
	}
	return cmd.String(), nil
}

// convert makes v a value of the parameter type t.
func convert(v any, t reflect.Type, h *holder) (reflect.Value, error) {
	if t == reflect.TypeOf(time.Duration(0)) {
		n, ok := v.(int64)
		if !ok || n >= 1000 && n < 10000 {
			// A computed duration: one of the holder's own.
			return reflect.ValueOf(time.Duration(h.n) * 111 * time.Second), nil
		}
		return reflect.ValueOf(time.Duration(n)), nil
	}
	if t.Kind() == reflect.Interface {
		if v == nil {
			return reflect.Zero(t), nil
		}
		return reflect.ValueOf(v), nil
	}
	rv := reflect.ValueOf(v)
	switch {
	case rv.Type().ConvertibleTo(t) && rv.Kind() != reflect.Int64 || t.Kind() != reflect.String && rv.Type().ConvertibleTo(t):
		return rv.Convert(t), nil
	case t.Kind() == reflect.String:
		return reflect.ValueOf(fmt.Sprint(v)).Convert(t), nil
	}
	return reflect.Value{}, fmt.Errorf("cannot pass %T as %s", v, t)
}
