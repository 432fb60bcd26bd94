package etcdproof

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fencelint/fencelint/analyzer/internal/fence"
	"github.com/fencelint/fencelint/analyzer/internal/storeproof"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// sharedValue is the value of every compared operand that the lock does
// not hand out (a parameter, a constant key's stored value): the same for
// A and B.
const sharedValue = "proof-value"

// Case is one etcd write prepared for the frozen-worker scenario.
type Case struct {
	Pos     string
	Call    string
	Verdict fence.Verdict
	Shape   *fence.EtcdShape
	// Election: the scenario's lock is an Election (a compare uses the
	// election's Rev(), or the scope is an election); otherwise a Mutex.
	Election bool
	// ExpectRejected: the engine says fenced, so A's write must not land.
	ExpectRejected bool
	// NS prefixes every key of the case, so that cases can run in
	// parallel on one server.
	NS string
}

// NewCase prepares f; a non-empty skip says why it cannot be replayed.
func NewCase(f storeproof.Found, ns string) (c *Case, skip string) {
	w := f.Write
	if !storeproof.Judged(w.Verdict) {
		return nil, "verdict " + w.Verdict.String() + " is not judged by the scenario"
	}
	if w.Etcd == nil {
		return nil, "the engine recorded no shape for this write"
	}
	sh := w.Etcd
	c = &Case{Pos: f.Pos, Call: w.Call, Verdict: w.Verdict, Shape: sh, NS: ns,
		ExpectRejected: w.Verdict == fence.Fenced}
	if w.Scope != nil && strings.Contains(w.Scope.Lock, "election") {
		c.Election = true
	}
	switch sh.Method {
	case "Put", "Delete":
		if sh.Key.Token != "" {
			return nil, "the key is built from the token"
		}
		if sh.OptionsUnread {
			return nil, "its OpOptions are built where the engine cannot read them"
		}
		for _, o := range sh.Options {
			if o.Name != "WithLease" || o.Arg.Source != "Lease" {
				return nil, fmt.Sprintf("the option %s(...) is not replayed", o.Name)
			}
		}
		return c, ""
	case "Commit":
	default:
		return nil, fmt.Sprintf("method %q is not replayed", sh.Method)
	}
	if sh.IfUnread {
		return nil, "an If compare is built where the engine cannot read it"
	}
	owner := false
	for _, cmp := range sh.If {
		if cmp.IsOwner {
			owner = true
			continue
		}
		if cmp.Key.Token != "" && !cmp.Key.LockKey {
			return nil, "a compared key is built from the token"
		}
		switch cmp.Target {
		case "Value", "CreateRevision", "ModRevision", "Version", "LeaseValue":
		default:
			return nil, fmt.Sprintf("compare target %q is not replayed", cmp.Target)
		}
		switch cmp.Op {
		case "=", "!=", "<", ">":
		default:
			return nil, fmt.Sprintf("compare operator %q is not etcd's", cmp.Op)
		}
		if cmp.Value.Source == "Rev" {
			c.Election = true
		}
	}
	if owner && c.Election {
		return nil, "m.IsOwner() under an election"
	}
	return c, ""
}

// holder is one worker with its session and lock.
type holder struct {
	name string
	cli  *clientv3.Client
	sess *concurrency.Session
	mu   *concurrency.Mutex
	el   *concurrency.Election
	// other is a session of the holder's own besides the lock's.
	other *concurrency.Session
}

// otherSession is a second session of the holder, not the lock's: it
// keeps its lease alive through the scenario.
func (h *holder) otherSession(ctx context.Context) (*concurrency.Session, error) {
	if h.other == nil {
		s, err := concurrency.NewSession(h.cli, concurrency.WithTTL(30), concurrency.WithContext(ctx))
		if err != nil {
			return nil, err
		}
		h.other = s
	}
	return h.other, nil
}

func (h *holder) key() string {
	if h.el != nil {
		return h.el.Key()
	}
	return h.mu.Key()
}

func (h *holder) headerRev() int64 {
	if h.el != nil {
		return h.el.Header().Revision
	}
	return h.mu.Header().Revision
}

// token is the value the holder's grant gives for a token operand.
func (h *holder) token(a fence.Arg) int64 {
	switch {
	case a.Source == "Rev" && h.el != nil:
		return h.el.Rev()
	case a.Source == "Header().Revision":
		return h.headerRev()
	case h.el != nil:
		return h.el.Rev()
	}
	return h.headerRev()
}

// acquire takes the case's lock for a new session of ttl seconds.
func (c *Case) acquire(ctx context.Context, name string, cli *clientv3.Client, ttl int) (*holder, error) {
	sess, err := concurrency.NewSession(cli, concurrency.WithTTL(ttl))
	if err != nil {
		return nil, fmt.Errorf("%s's session: %w", name, err)
	}
	h := &holder{name: name, cli: cli, sess: sess}
	if c.Election {
		h.el = concurrency.NewElection(sess, c.NS+"election")
		err = h.el.Campaign(ctx, sharedValue)
	} else {
		h.mu = concurrency.NewMutex(sess, c.NS+"lock")
		err = h.mu.Lock(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("%s acquiring: %w", name, err)
	}
	return h, nil
}

// Outcome is what etcd did in the scenario.
type Outcome struct {
	BOK, AOK bool // whether B's and then A's write landed
	// Control: A's write did not land although it should; B's write
	// replayed again in the same state, ControlOK whether it landed (if
	// not, what refused A's write is not the lock).
	Control, ControlOK bool
	Lock               string // "Mutex" or "Election", with the keys
	Detail             string
}

func (o *Outcome) String() string {
	s := fmt.Sprintf("%s; B's write landed: %v; stale A's write landed: %v", o.Lock, o.BOK, o.AOK)
	if o.Control {
		s += fmt.Sprintf("; control (B again, same state) landed: %v", o.ControlOK)
	}
	if o.Detail != "" {
		s += "; " + o.Detail
	}
	return s
}

// Agrees reports whether etcd's behaviour matches the engine's verdict.
func (o *Outcome) Agrees(expectRejected bool) bool {
	if expectRejected {
		return !o.AOK
	}
	return o.AOK || (o.Control && !o.ControlOK)
}

// Run plays the scenario on a fresh pair of clients of endpoint.
func (c *Case) Run(ctx context.Context, cliA, cliB *clientv3.Client) (*Outcome, error) {
	out := &Outcome{Lock: "Mutex"}
	if c.Election {
		out.Lock = "Election"
	}
	// 1. A acquires, 2. A is paused: its session stops refreshing the
	// lease, which expires; etcd deletes A's lock key with it.
	a, err := c.acquire(ctx, "A", cliA, 1)
	if err != nil {
		return nil, err
	}
	a.sess.Orphan()
	if err := waitGone(ctx, cliB, a.key()); err != nil {
		return nil, fmt.Errorf("A's lease did not expire: %w", err)
	}
	// 3. B acquires and writes.
	b, err := c.acquire(ctx, "B", cliB, 30)
	if err != nil {
		return nil, err
	}
	defer b.sess.Close()
	out.Lock += fmt.Sprintf(" (A's key %s expired, B holds %s)", a.key(), b.key())
	shared, err := c.choose(ctx, cliB, b)
	if err != nil {
		return nil, err
	}
	if c.Shape.Method == "Delete" {
		// B's own Delete is not replayed (it would leave nothing for A
		// to delete): the key holds what B's tenure wrote.
		if _, err := cliB.Put(ctx, c.key(c.Shape.Key, b, "data"), "written-by-B"); err != nil {
			return nil, err
		}
		out.BOK = true
	} else if out.BOK, err = c.write(ctx, b, shared); err != nil {
		return nil, fmt.Errorf("B's write: %w", err)
	}
	if !out.BOK {
		return out, errors.New("the current holder B's write does not land in this state, so A's proves nothing: " + out.String())
	}
	// 4. A, back from its pause, writes with what its grant gave it.
	if out.AOK, err = c.write(ctx, a, shared); err != nil {
		return nil, fmt.Errorf("A's write: %w", err)
	}
	if !out.AOK && !c.ExpectRejected && c.Shape.Method == "Commit" {
		out.Control = true
		if out.ControlOK, err = c.write(ctx, b, shared); err != nil {
			return nil, fmt.Errorf("control write: %w", err)
		}
	}
	return out, nil
}

// waitGone polls until key is deleted, for at most 20 seconds.
func waitGone(ctx context.Context, cli *clientv3.Client, key string) error {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := cli.Get(ctx, key)
		if err != nil {
			return err
		}
		if resp.Count == 0 {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("key %s still there after 20s", key)
}

// key maps a key operand to a key of the case: the holder's lock key, a
// constant under the case's prefix, or a fixed key of the case for one
// built at run time (the same for A and B).
func (c *Case) key(a fence.Arg, h *holder, fallback string) string {
	switch {
	case a.LockKey || a.Source == "Key":
		return h.key()
	case a.Kind == "string":
		return c.NS + strings.TrimPrefix(a.Const, "/")
	}
	return c.NS + fallback
}

// choose fixes, at B's turn, the compared values the lock does not hand
// out, so that B's compares hold: the key's current value or revision, or
// a value seeded into a key that does not exist yet (what an earlier
// tenure left). A uses the same values.
func (c *Case) choose(ctx context.Context, cli *clientv3.Client, b *holder) (map[int]any, error) {
	shared := map[int]any{}
	for i, cmp := range c.Shape.If {
		if cmp.Value.Kind != "" && !cmp.IsOwner && !cmp.Key.LockKey && cmp.Key.Source != "Key" {
			// A constant compared with a key of the case's own: seed the
			// key, if missing, so that the compare can hold for B.
			if err := c.seedConst(ctx, cli, cmp, i, b); err != nil {
				return nil, err
			}
			continue
		}
		if cmp.IsOwner || cmp.Value.Token != "" || cmp.Value.Kind != "" || cmp.Value.LockKey || cmp.Value.Source != "" {
			continue
		}
		k := c.key(cmp.Key, b, fmt.Sprintf("key%d", i))
		resp, err := cli.Get(ctx, k)
		if err != nil {
			return nil, err
		}
		var kv *kvState
		if len(resp.Kvs) > 0 {
			x := resp.Kvs[0]
			kv = &kvState{string(x.Value), x.CreateRevision, x.ModRevision, x.Version, x.Lease}
		}
		if cmp.Target == "Value" {
			if kv == nil {
				if cmp.Key.LockKey || cmp.Key.Source == "Key" {
					return nil, fmt.Errorf("B's lock key %s is missing", k)
				}
				if _, err := cli.Put(ctx, k, sharedValue); err != nil {
					return nil, err
				}
				kv = &kvState{value: sharedValue}
			}
			switch cmp.Op {
			case "=":
				shared[i] = kv.value
			case "!=":
				shared[i] = kv.value + "-other"
			case "<":
				shared[i] = kv.value + "~"
			case ">":
				shared[i] = ""
			}
			continue
		}
		var cur int64
		if kv != nil {
			switch cmp.Target {
			case "CreateRevision":
				cur = kv.create
			case "ModRevision":
				cur = kv.mod
			case "Version":
				cur = kv.ver
			case "LeaseValue":
				cur = kv.lse
			}
		}
		switch cmp.Op {
		case "=":
			shared[i] = cur
		case "!=", "<":
			shared[i] = cur + 1
		case ">":
			shared[i] = cur - 1
		}
	}
	return shared, nil
}

// seedConst puts a missing key compared with a constant: the constant
// itself for Value = c, a value of the case's otherwise (a revision or
// version compare that needs the key to exist). CreateRevision/Version
// = 0 and < compares hold for a missing key and are left alone.
func (c *Case) seedConst(ctx context.Context, cli *clientv3.Client, cmp fence.EtcdCmp, i int, b *holder) error {
	k := c.key(cmp.Key, b, fmt.Sprintf("key%d", i))
	resp, err := cli.Get(ctx, k)
	if err != nil || resp.Count > 0 {
		return err
	}
	val := sharedValue
	switch {
	case cmp.Target == "Value" && cmp.Op == "=" && cmp.Value.Kind == "string":
		val = cmp.Value.Const
	case cmp.Target != "Value" && (cmp.Op == "<" || cmp.Op == "=" && cmp.Value.Const == "0"):
		return nil
	}
	_, err = cli.Put(ctx, k, val)
	return err
}

// kvState is a key's value and revisions.
type kvState struct {
	value                 string
	create, mod, ver, lse int64
}

// write plays the case's write as holder h and reports whether it landed.
func (c *Case) write(ctx context.Context, h *holder, shared map[int]any) (bool, error) {
	mine := "written-by-" + h.name
	switch c.Shape.Method {
	case "Put":
		k := c.key(c.Shape.Key, h, "data")
		var opts []clientv3.OpOption
		for _, o := range c.Shape.Options {
			// WithLease(s.Lease()): the lock session's lease, or that of
			// another session of the holder, which stays alive.
			lease := h.sess.Lease()
			if !o.LockLease {
				other, err := h.otherSession(ctx)
				if err != nil {
					return false, err
				}
				lease = other.Lease()
			}
			opts = append(opts, clientv3.WithLease(lease))
		}
		if _, err := h.cli.Put(ctx, k, mine, opts...); err != nil {
			if len(opts) > 0 && errors.Is(err, rpctypes.ErrLeaseNotFound) {
				return false, nil // refused: the lease is gone
			}
			return false, err
		}
		resp, err := h.cli.Get(ctx, k)
		if err != nil {
			return false, err
		}
		return len(resp.Kvs) == 1 && string(resp.Kvs[0].Value) == mine, nil
	case "Delete":
		k := c.key(c.Shape.Key, h, "data")
		resp, err := h.cli.Delete(ctx, k)
		if err != nil {
			return false, err
		}
		return resp.Deleted > 0, nil
	}
	var cmps []clientv3.Cmp
	for i, cmp := range c.Shape.If {
		if cmp.IsOwner {
			cmps = append(cmps, h.mu.IsOwner())
			continue
		}
		k := c.key(cmp.Key, h, fmt.Sprintf("key%d", i))
		var target clientv3.Cmp
		switch cmp.Target {
		case "Value":
			target = clientv3.Value(k)
		case "CreateRevision":
			target = clientv3.CreateRevision(k)
		case "ModRevision":
			target = clientv3.ModRevision(k)
		case "Version":
			target = clientv3.Version(k)
		case "LeaseValue":
			target = clientv3.LeaseValue(k)
		}
		v, err := c.value(cmp, i, h, shared)
		if err != nil {
			return false, err
		}
		cmps = append(cmps, clientv3.Compare(target, cmp.Op, v))
	}
	var ops []clientv3.Op
	for j, op := range c.Shape.Then {
		k := c.key(op.Key, h, fmt.Sprintf("data%d", j))
		switch op.Verb {
		case "Put":
			val := mine
			switch {
			case op.Value.Token != "":
				val = strconv.FormatInt(h.token(op.Value), 10)
			case op.Value.Kind == "string":
				val = op.Value.Const + "-" + mine
			}
			ops = append(ops, clientv3.OpPut(k, val))
		case "Delete":
			ops = append(ops, clientv3.OpDelete(k))
		case "Get":
			ops = append(ops, clientv3.OpGet(k))
		}
	}
	if len(ops) == 0 || c.Shape.ThenUnread {
		ops = append(ops, clientv3.OpPut(c.NS+"data", mine))
	}
	resp, err := h.cli.Txn(ctx).If(cmps...).Then(ops...).Commit()
	if err != nil {
		return false, err
	}
	return resp.Succeeded, nil
}

// value is a compare's operand for holder h, of the type etcd's Compare
// wants for the target (string for Value, int64 otherwise).
func (c *Case) value(cmp fence.EtcdCmp, i int, h *holder, shared map[int]any) (any, error) {
	str := cmp.Target == "Value"
	a := cmp.Value
	var v any
	switch {
	case a.LockKey || a.Source == "Key":
		v = h.key()
	case a.Source == "Lease":
		v = int64(h.sess.Lease()) // the holder's session lease
	case a.Token != "" || a.Source == "Rev" || a.Source == "Header().Revision":
		v = h.token(a)
	case a.Kind == "string":
		v = a.Const
	case a.Kind == "int":
		n, err := strconv.ParseInt(a.Const, 10, 64)
		if err != nil {
			return nil, err
		}
		v = n
	case a.Kind != "":
		return nil, fmt.Errorf("constant of kind %s", a.Kind)
	default:
		s, ok := shared[i]
		if !ok {
			return nil, fmt.Errorf("no value chosen for compare %d", i)
		}
		v = s
	}
	switch x := v.(type) {
	case int64:
		if str {
			return strconv.FormatInt(x, 10), nil
		}
		if cmp.Target == "LeaseValue" {
			return clientv3.LeaseID(x), nil
		}
		return x, nil
	case string:
		if !str {
			n, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s compared with the string %q", cmp.Target, x)
			}
			return n, nil
		}
		return x, nil
	}
	return v, nil
}
