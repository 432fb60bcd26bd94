// Package dirproblems: directives that do nothing where they stand are
// reported where they stand (issue 18), each next to a twin that works.
package dirproblems

import "context"

// want +1 `//fencelint:write is not attached to a declaration, so it does nothing: write it in the doc comment directly above the function, method, interface method or field, with no blank line between`
//fencelint:write

func DetachedBad(ctx context.Context, key string) error { return nil }

// ok: attached
//
//fencelint:write
func AttachedGood(ctx context.Context, key string) error { return nil }

// want +1 `//fencelint:write token=sqe does nothing: PublishBad has no parameter sqe \(its parameters: ctx, topic, seq\)`
//fencelint:write token=sqe
func PublishBad(ctx context.Context, topic string, seq uint64) error { return nil }

// ok: names the parameter
//
//fencelint:write token=seq
func PublishGood(ctx context.Context, topic string, seq uint64) error { return nil }

type Handle struct {
	Name string
	// want +1 `//fencelint:token on field Owner of type string does nothing: a fencing token is an integer that grows with every grant`
	Owner string //fencelint:token
	Seq   uint64 //fencelint:token
}

// want +1 `//fencelint:acquire does nothing on a type declaration: it goes on a function, a method, an interface method, or a func-typed struct field or package variable$`
//fencelint:acquire
type Locker struct{}

type Row struct {
	// want +1 `//fencelint:write on field Data of type \[\]byte does nothing: on a field it goes only where the field holds a function \(a func type\)`
	//fencelint:write
	Data []byte
}

// want +1 `//fencelint:token on Label does nothing: its first result must be the integer token \(or a lease holding one\)`
//fencelint:token
func (h Handle) Label() string { return h.Name }

// ok: returns the token
//
//fencelint:token
func (h Handle) Token() uint64 { return h.Seq }
