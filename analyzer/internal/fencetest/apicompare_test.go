package fencetest

import (
	"fmt"
	"go/types"
	"slices"
	"strings"
)

// An apiDiff collects the differences between stub and real packages, one
// message each, without duplicates.
type apiDiff struct {
	msgs []string
	seen map[string]bool
}

func (d *apiDiff) add(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if d.seen == nil {
		d.seen = make(map[string]bool)
	}
	if !d.seen[msg] {
		d.seen[msg] = true
		d.msgs = append(d.msgs, msg)
	}
}

// typeString prints t with packages qualified by their full path, so the
// same string means the same declaration in stub and real universes.
func typeString(t types.Type) string { return types.TypeString(t, nil) }

func kindOf(obj types.Object) string {
	switch obj := obj.(type) {
	case *types.Const:
		return "const"
	case *types.Var:
		return "var"
	case *types.Func:
		return "func"
	case *types.TypeName:
		if obj.IsAlias() {
			return "type alias"
		}
		return "type"
	}
	return fmt.Sprintf("%T", obj)
}

// compareAPI checks that every package-level object that stub declares,
// exported or not, exists in real with the same kind and type: funcs and
// vars by type string, consts by type and value, named types by underlying
// kind, the stub's struct fields and embedded interfaces, underlying type
// (other kinds) and method sets of T and *T (promoted methods included,
// compared by types.Func.FullName and signature).
func compareAPI(d *apiDiff, stub, real *types.Package) {
	if stub.Name() != real.Name() {
		d.add("%s: package name %s, real %s", stub.Path(), stub.Name(), real.Name())
	}
	for _, name := range stub.Scope().Names() {
		so := stub.Scope().Lookup(name)
		ro := real.Scope().Lookup(name)
		id := stub.Path() + "." + name
		if ro == nil {
			d.add("%s: %s not declared in the real package", id, kindOf(so))
			continue
		}
		if kindOf(so) != kindOf(ro) {
			d.add("%s: stub declares a %s, the real package a %s", id, kindOf(so), kindOf(ro))
			continue
		}
		switch so := so.(type) {
		case *types.Const:
			ro := ro.(*types.Const)
			if s, r := typeString(so.Type()), typeString(ro.Type()); s != r {
				d.add("%s: const of type %s, real %s", id, s, r)
			}
			if s, r := so.Val().ExactString(), ro.Val().ExactString(); s != r {
				d.add("%s: const value %s, real %s", id, s, r)
			}
		case *types.Func, *types.Var:
			if s, r := typeString(so.Type()), typeString(ro.Type()); s != r {
				d.add("%s: %s\n\tstub: %s\n\treal: %s", id, kindOf(so), s, r)
			}
		case *types.TypeName:
			compareTypeName(d, id, so, ro.(*types.TypeName))
		}
	}
}

func compareTypeName(d *apiDiff, id string, s, r *types.TypeName) {
	if s.IsAlias() {
		if sr, rr := typeString(aliasRHS(s.Type())), typeString(aliasRHS(r.Type())); sr != rr {
			d.add("%s: alias of %s, real %s", id, sr, rr)
		}
		return
	}
	sn, ok1 := s.Type().(*types.Named)
	rn, ok2 := r.Type().(*types.Named)
	if !ok1 || !ok2 {
		d.add("%s: not a named type (%T, real %T)", id, s.Type(), r.Type())
		return
	}
	if st, rt := typeParamsString(sn.TypeParams()), typeParamsString(rn.TypeParams()); st != rt {
		d.add("%s: type parameters %s, real %s", id, st, rt)
	}
	su, ru := sn.Underlying(), rn.Underlying()
	if sk, rk := underKind(su), underKind(ru); sk != rk {
		d.add("%s: underlying %s, real %s", id, sk, rk)
		return
	}
	switch su := su.(type) {
	case *types.Struct:
		ru := ru.(*types.Struct)
		for sf := range su.Fields() {
			rf := fieldOf(ru, sf)
			switch {
			case rf == nil:
				d.add("%s: field %s not in the real struct", id, sf.Name())
			case typeString(sf.Type()) != typeString(rf.Type()):
				d.add("%s: field %s of type %s, real %s", id, sf.Name(), typeString(sf.Type()), typeString(rf.Type()))
			case sf.Embedded() != rf.Embedded():
				d.add("%s: field %s embedded=%t, real embedded=%t", id, sf.Name(), sf.Embedded(), rf.Embedded())
			case sf.Pkg().Path() != rf.Pkg().Path():
				d.add("%s: field %s declared in package %s, real in %s", id, sf.Name(), sf.Pkg().Path(), rf.Pkg().Path())
			}
		}
	case *types.Interface:
		ru := ru.(*types.Interface)
		var real []string
		for et := range ru.EmbeddedTypes() {
			real = append(real, typeString(et))
		}
		for et := range su.EmbeddedTypes() {
			if !slices.Contains(real, typeString(et)) {
				d.add("%s: embeds %s, the real interface does not (it embeds %s)", id, typeString(et), strings.Join(real, ", "))
			}
		}
	default:
		if st, rt := typeString(su), typeString(ru); st != rt {
			d.add("%s: underlying type %s, real %s", id, st, rt)
		}
	}
	compareMethodSets(d, sn, rn)
	if !types.IsInterface(sn) {
		compareMethodSets(d, types.NewPointer(sn), types.NewPointer(rn))
	}
}

// compareMethodSets checks that every method in the method set of st is in
// the method set of rt, declared by the same type (FullName) with the same
// signature. FullName is what fencelint's rules key on: it tells a method
// promoted from an embedded cmdable or KV from one declared on the type.
func compareMethodSets(d *apiDiff, st, rt types.Type) {
	rms := types.NewMethodSet(rt)
	real := make(map[string]*types.Func)
	for sel := range rms.Methods() {
		real[funcKey(sel.Obj())] = sel.Obj().(*types.Func)
	}
	for sel := range types.NewMethodSet(st).Methods() {
		sf := sel.Obj().(*types.Func)
		rf := real[funcKey(sf)]
		if rf == nil {
			d.add("%s: method %s not in the method set of the real type", typeString(st), sf.Name())
			continue
		}
		if s, r := sf.Origin().FullName(), rf.Origin().FullName(); s != r {
			d.add("%s: method %s resolves to %s, real %s", typeString(st), sf.Name(), s, r)
		}
		if s, r := typeString(sf.Type()), typeString(rf.Type()); s != r {
			d.add("%s: method %s\n\tstub: %s\n\treal: %s", typeString(st), sf.FullName(), s, r)
		}
	}
}

// compareImplements checks that the stubs keep the real assignability
// between their named types and interfaces (and error): a stub concrete
// type that lacks a method of an interface it implements in reality makes
// test cases fail to compile, and one that gains an implementation makes
// them accept code that would not compile against the real library.
// Interfaces that the stubs declare without methods (placeholders for
// types a signature merely mentions) are exempt from the second check.
func compareImplements(d *apiDiff, stubs, reals map[string]*types.Package) {
	type pair struct{ stub, real *types.Named }
	var concrete, ifaces []pair
	for path, sp := range stubs {
		rp := reals[path]
		if rp == nil {
			continue
		}
		for _, name := range sp.Scope().Names() {
			so, ok1 := sp.Scope().Lookup(name).(*types.TypeName)
			ro, ok2 := rp.Scope().Lookup(name).(*types.TypeName)
			if !ok1 || !ok2 || so.IsAlias() || ro.IsAlias() {
				continue
			}
			sn, ok1 := so.Type().(*types.Named)
			rn, ok2 := ro.Type().(*types.Named)
			if !ok1 || !ok2 || sn.TypeParams() != nil || rn.TypeParams() != nil {
				continue
			}
			if types.IsInterface(sn) != types.IsInterface(rn) {
				continue // reported by compareAPI
			}
			if types.IsInterface(sn) {
				ifaces = append(ifaces, pair{sn, rn})
			}
			// Interfaces too: an interface value is assignable to the
			// interfaces whose methods it has.
			concrete = append(concrete, pair{sn, rn})
		}
	}
	errType := types.Universe.Lookup("error").Type()
	ifaces = append(ifaces, pair{errType.(*types.Named), errType.(*types.Named)})
	for _, c := range concrete {
		for _, i := range ifaces {
			si := i.stub.Underlying().(*types.Interface)
			ri := i.real.Underlying().(*types.Interface)
			if c == i {
				continue
			}
			for _, ptr := range []bool{false, true} {
				if ptr && types.IsInterface(c.stub) {
					break
				}
				var st, rt types.Type = c.stub, c.real
				if ptr {
					st, rt = types.NewPointer(st), types.NewPointer(rt)
				}
				sImpl, rImpl := types.Implements(st, si), types.Implements(rt, ri)
				if rImpl && !sImpl {
					m, _ := types.MissingMethod(st, si, true)
					d.add("%s implements %s in the real module but not in the stubs: add %s", typeString(st), typeString(i.stub), m.Name())
					break
				}
				if sImpl && !rImpl && si.NumMethods() > 0 {
					d.add("%s implements %s in the stubs but not in the real module", typeString(st), typeString(i.stub))
					break
				}
			}
		}
	}
}

func funcKey(obj types.Object) string {
	if obj.Exported() {
		return obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// fieldOf returns the field of s with the name (and, if unexported, the
// package) of f.
func fieldOf(s *types.Struct, f *types.Var) *types.Var {
	for rf := range s.Fields() {
		if rf.Name() == f.Name() && (rf.Exported() || rf.Pkg().Path() == f.Pkg().Path()) {
			return rf
		}
	}
	return nil
}

func aliasRHS(t types.Type) types.Type {
	if a, ok := t.(*types.Alias); ok {
		return a.Rhs()
	}
	return t
}

func underKind(t types.Type) string {
	switch t.(type) {
	case *types.Struct:
		return "struct"
	case *types.Interface:
		return "interface"
	case *types.Signature:
		return "func"
	case *types.Basic:
		return "basic"
	case *types.Pointer:
		return "pointer"
	case *types.Slice:
		return "slice"
	case *types.Array:
		return "array"
	case *types.Map:
		return "map"
	case *types.Chan:
		return "chan"
	}
	return fmt.Sprintf("%T", t)
}

func typeParamsString(tps *types.TypeParamList) string {
	if tps.Len() == 0 {
		return ""
	}
	var parts []string
	for tp := range tps.TypeParams() {
		parts = append(parts, tp.Obj().Name()+" "+typeString(tp.Constraint()))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
