package rules

import (
	"go/types"
	"strings"
)

// funcKey is a rule table key that costs no allocation to compute: the
// parts of types.Func.FullName (package path, receiver type name, pointer
// receiver, method or function name). Building FullName strings for every
// call of a lock-heavy package was 12% of the engine's time (profiled, see
// docs/performance.md); tables are still written as FullName strings and
// parsed once at init by parseKey.
type funcKey struct {
	pkg  string
	recv string
	ptr  bool
	name string
}

// keyOf returns fn's key; it matches parseKey(Key(fn)).
func keyOf(fn *types.Func) funcKey {
	fn = fn.Origin()
	if k, ok := redisKey(fn); ok {
		return k
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		if fn.Pkg() == nil {
			return funcKey{name: fn.Name()}
		}
		return funcKey{pkg: LibPath(fn.Pkg().Path()), name: fn.Name()}
	}
	t, ptr := sig.Recv().Type(), false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		pkg := LibPath(n.Obj().Pkg().Path())
		if isK8sTypedClient(pkg, n) {
			return funcKey{pkg: k8sTyped, recv: "ResourceInterface", name: fn.Name()}
		}
		return funcKey{pkg: pkg, recv: n.Obj().Name(), ptr: ptr, name: fn.Name()}
	}
	// An unnamed receiver ("(interface).M" from export data): rare enough
	// to key by the full string.
	return funcKey{name: fn.FullName()}
}

// parseKey splits a FullName-style key: "pkg/path.Func",
// "(*pkg/path.Type).Method", "(pkg/path.Type[T]).Method", and go-redis's
// "github.com/redis/go-redis/v9.cmd.Name". Anything else is kept whole in
// name, as keyOf does for receivers it cannot split.
func parseKey(s string) funcKey {
	if name, ok := strings.CutPrefix(s, redisCmd); ok {
		return funcKey{pkg: goRedis, recv: "cmd", name: name}
	}
	if strings.HasPrefix(s, "(") {
		end := strings.Index(s, ").")
		if end < 0 {
			return funcKey{name: s}
		}
		recv, name := s[1:end], s[end+2:]
		ptr := strings.HasPrefix(recv, "*")
		recv = strings.TrimPrefix(recv, "*")
		if i := strings.IndexByte(recv, '['); i >= 0 {
			recv = recv[:i] // type parameters of a generic receiver
		}
		dot := strings.LastIndexByte(recv, '.')
		if dot <= 0 || strings.LastIndexByte(recv, '/') > dot {
			return funcKey{name: s}
		}
		return funcKey{pkg: recv[:dot], recv: recv[dot+1:], ptr: ptr, name: name}
	}
	dot := strings.LastIndexByte(s, '.')
	if dot <= 0 || strings.LastIndexByte(s, '/') > dot {
		return funcKey{name: s}
	}
	return funcKey{pkg: s[:dot], name: s[dot+1:]}
}

// String is the FullName-style spelling of k.
func (k funcKey) String() string {
	switch {
	case k.pkg == "":
		return k.name
	case k.recv == "cmd" && k.pkg == goRedis:
		return redisCmd + k.name
	case k.recv == "":
		return k.pkg + "." + k.name
	case k.ptr:
		return "(*" + k.pkg + "." + k.recv + ")." + k.name
	}
	return "(" + k.pkg + "." + k.recv + ")." + k.name
}
