package fence

import (
	"go/types"
	"reflect"
	"sort"

	"github.com/fencelint/fencelint/rules"
)

// Interface mirrors (issue 13, item 2).
//
// Applications reach their stores through interfaces of their own: sqlc's
// DBTX (Exec/Query/QueryRow over pgx, ExecContext/QueryContext/
// QueryRowContext/PrepareContext over database/sql), a wrapper over
// go-redis's Cmdable. A call through such an interface is judged like a
// call of the store it mirrors when all of these hold:
//
//   - the interface is the application's own (ownInterface), not generic;
//   - a modelled store type T, declared in a package the interface's own
//     package imports (its signatures name that package's types:
//     pgconn.CommandTag, sql.Result, *redis.StatusCmd), implements the
//     interface, so every method of the interface is a method of T with
//     an identical signature, and T's method of the same name is a write
//     rules/ knows;
//   - every such T agrees on the rule (its kind, store and argument
//     positions: pgx's Conn, Tx and pgxpool's Pool do);
//   - no implementation the package can see contradicts it: each of the
//     application's own implementations (test doubles excepted, as for
//     interface calls), in this package or described by another package's
//     ImplsFact, is itself a write for that method.
//
// The write is then read from the call's own arguments (the constant SQL,
// the script and its ARGV), as for the store, and its message names the
// interface and the store: "q.db.Exec (DBTX, as *pgx.Conn)".
type mirror struct {
	rule   *rules.Write
	method *types.Func // the store's method
	name   string      // "DBTX, as *pgx.Conn"
}

// writeOf is rules.WriteOf, extended to application interfaces that
// mirror a modelled store.
func (e *engine) writeOf(fn *types.Func) (*rules.Write, bool) {
	if w, ok := rules.WriteOf(fn); ok {
		return w, true
	}
	if mr := e.mirrorOf(fn); mr != nil {
		return mr.rule, true
	}
	return nil, false
}

// mirrorOf returns the store interface method m mirrors, or nil.
func (e *engine) mirrorOf(m *types.Func) *mirror {
	if m == nil {
		return nil
	}
	mr, ok := e.mirrors[m]
	if !ok {
		mr = e.findMirror(m)
		if e.mirrors == nil {
			e.mirrors = map[*types.Func]*mirror{}
		}
		e.mirrors[m] = mr // types only: the same for the whole pass
	}
	if mr == nil || !e.mirrorUncontested(m) {
		return nil // the facts it rests on grow while the package is analysed
	}
	return mr
}

func (e *engine) findMirror(m *types.Func) *mirror {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || m.Pkg() == nil {
		return nil
	}
	recv := sig.Recv().Type()
	named, ok := recv.(*types.Named)
	if !ok || isGeneric(recv) {
		return nil
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 || !e.ownInterface(m.Pkg()) || isStd(m.Pkg().Path()) {
		return nil
	}
	var found []*mirror
	for _, pkg := range m.Pkg().Imports() {
		if !rules.IsKnownPath(pkg.Path()) {
			continue
		}
		scope := pkg.Scope()
		for _, name := range scope.Names() { // sorted: the first match names the store
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() || tn.IsAlias() {
				continue
			}
			t, ok := tn.Type().(*types.Named)
			if !ok || t.TypeParams().Len() > 0 {
				continue
			}
			cands := []types.Type{t}
			if !types.IsInterface(t) {
				cands = append(cands, types.NewPointer(t))
			}
			for _, impl := range cands {
				if !types.Implements(impl, iface) {
					continue
				}
				sel := types.NewMethodSet(impl).Lookup(m.Pkg(), m.Name())
				if sel == nil {
					continue
				}
				sm, ok := sel.Obj().(*types.Func)
				if !ok {
					continue
				}
				w, ok := rules.WriteOf(sm)
				if !ok {
					continue
				}
				q := func(p *types.Package) string { return p.Name() }
				found = append(found, &mirror{rule: w, method: sm, name: named.Obj().Name() + ", as " + types.TypeString(impl, q)})
				break
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	for _, o := range found[1:] {
		if !sameRule(found[0].rule, o.rule) {
			return nil // the stores it could be disagree on what the call does
		}
	}
	// Prefer a store that is not a transaction for the name: DBTX is
	// "DBTX, as *pgx.Conn", not "as pgx.Tx".
	sort.SliceStable(found, func(i, j int) bool {
		return !rules.IsTxType(found[i].method.Type().(*types.Signature).Recv().Type()) &&
			rules.IsTxType(found[j].method.Type().(*types.Signature).Recv().Type())
	})
	return found[0]
}

// sameRule: two write rules judge a call alike (they differ only in the
// function they are written for).
func sameRule(a, b *rules.Write) bool {
	x, y := *a, *b
	x.Func, y.Func = "", ""
	return reflect.DeepEqual(x, y)
}

// mirrorUncontested: no application implementation of m in view does
// something other than write. A wrapper that logs and delegates is itself
// a write; a no-op or an in-memory alternative (not a test double) makes
// the call mean more than the store, so the mirror does not hold.
func (e *engine) mirrorUncontested(m *types.Func) bool {
	impls, ok := e.implementations(m)
	if !ok {
		return true
	}
	for _, cm := range impls {
		if isInterfaceMethod(cm) {
			continue // an embedded interface: it is the store's own
		}
		if _, ok := rules.WriteOf(cm); ok {
			continue
		}
		if cm.Pkg() == e.pass.Pkg && e.local[cm] == nil && e.regionsFound {
			if sf := e.prog.FuncValue(cm); sf != nil && hasBody(sf) {
				e.summary(sf)
			}
		}
		f := e.calleeFact(cm)
		if f == nil || !f.Write {
			return false
		}
	}
	// Implementations in the project's other packages, from their
	// ImplsFacts (impls.go).
	if iface := ifaceOf(m); iface != nil {
		for _, im := range e.factImplsOf(m, iface, true) {
			if im.Dynamic {
				continue
			}
			if im.Fact == nil || !im.Fact.Write {
				return false
			}
		}
	}
	return true
}

// mirrorName: "DBTX, as *pgx.Conn" when fn is an interface method judged
// as the store it mirrors, "" otherwise.
func (e *engine) mirrorName(fn *types.Func) string {
	if _, ok := rules.WriteOf(fn); ok {
		return ""
	}
	if mr := e.mirrorOf(fn); mr != nil {
		return mr.name
	}
	return ""
}
