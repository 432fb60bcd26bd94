package rules

import (
	"bytes"
	"go/types"
	"strings"
)

// The heuristics below recognise in-house lock APIs without directives.
// They are deliberately narrow; anything broader goes through
// //fencelint: directives.

// leaseSuffixes are the type-name endings of lease-shaped structs.
var leaseSuffixes = []string{"Lease", "Lock", "Grant", "Sequencer"}

// tokenFieldNames are the integer fields that make a lease type carry a token.
var tokenFieldNames = map[string]bool{
	"Token": true, "Fence": true, "FencingToken": true, "FenceToken": true,
	"Sequence": true, "Sequencer": true, "Revision": true, "Epoch": true,
	"Generation": true,
}

// expiryFieldNames are the fields of a lease that carries only an expiry.
var expiryFieldNames = map[string]bool{
	"ExpiresAt": true, "Expiry": true, "Deadline": true, "Until": true,
	"Expires": true, "ExpireAt": true, "ExpiresAtTime": true,
}

// tokenParamNames are parameter names that carry a fencing token.
var tokenParamNames = map[string]bool{
	"token": true, "fence": true, "fencingtoken": true, "fencetoken": true,
	"fencing_token": true, "fence_token": true, "epoch": true,
	"generation": true, "revision": true, "tok": true, "fencetok": true,
}

// LeaseInfo describes a lease-shaped struct type.
type LeaseInfo struct {
	Named *types.Named
	// Token is the token field, nil for an expiry-only lease.
	Token *types.Var
}

// LeaseOf reports whether t (or *t) is a lease-shaped struct: named with a
// lease suffix, with an integer token field, or with an expiry field and no
// token field at all. Types from known libraries are not leases here.
func LeaseOf(t types.Type) (LeaseInfo, bool) {
	n := namedOf(t)
	if n == nil || n.Obj().Pkg() == nil || IsKnownPath(n.Obj().Pkg().Path()) {
		return LeaseInfo{}, false
	}
	if !HasLeaseSuffix(n.Obj().Name()) {
		return LeaseInfo{}, false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return LeaseInfo{}, false
	}
	var expiry bool
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if IsTokenFieldName(f.Name()) && IsIntegerLike(f.Type()) {
			return LeaseInfo{Named: n, Token: f}, true
		}
		if expiryFieldNames[exportedName(f.Name())] {
			expiry = true
		}
	}
	if expiry {
		return LeaseInfo{Named: n}, true
	}
	return LeaseInfo{}, false
}

// HasLeaseSuffix reports whether a type name ends like a lease-shaped
// struct's (LeaseOf accepts no other names).
func HasLeaseSuffix(name string) bool {
	for _, s := range leaseSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// MayNameLease reports whether src contains a lease suffix at all: the go
// vet driver's cheap test before it scans a file's type declarations.
func MayNameLease(src []byte) bool {
	for _, s := range leaseSuffixes {
		if bytes.Contains(src, []byte(s)) {
			return true
		}
	}
	return false
}

// IsTokenParamName reports whether a parameter name says it is a fencing token.
func IsTokenParamName(name string) bool {
	if len(name) > len("fencing_token") {
		return false // longer than every entry: skip lower-casing it
	}
	return tokenParamNames[strings.ToLower(name)]
}

// IsTokenFieldName reports whether a struct field (or method) name says it
// is a token; unexported spellings (token, fencingToken) count too.
func IsTokenFieldName(name string) bool { return tokenFieldNames[exportedName(name)] }

// IsTokenTypeName reports whether a named integer type's name says it is a
// fencing token (type FencingToken int64).
func IsTokenTypeName(name string) bool {
	switch exportedName(name) {
	case "Token", "FencingToken", "FenceToken", "Fence", "Epoch", "Generation", "Sequencer":
		return true
	}
	return false
}

func exportedName(name string) string {
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// IsIntegerLike reports whether t is an integer, a pointer to one, or a
// named integer type: the shapes a fencing token takes in Go.
func IsIntegerLike(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// IsReleaseName reports whether a method or function name releases a lease
// of an in-house lock API.
func IsReleaseName(name string) bool {
	switch name {
	case "Release", "Unlock", "Close", "Resign", "Revoke", "Drop":
		return true
	}
	return false
}

// IsRenewName reports whether a method name extends a lease.
func IsRenewName(name string) bool {
	switch name {
	case "Renew", "Refresh", "Extend", "KeepAlive", "Heartbeat":
		return true
	}
	return false
}

// ClientCheckMethods are methods whose result is the client's own view of
// its lease: checks on them are not fences.
var ClientCheckMethods = map[string]bool{
	"Valid": true, "IsValid": true, "Expired": true, "IsExpired": true,
	"IsLeader": true, "IsHeld": true, "Held": true, "StillHeld": true,
	"IsOwner": false, // etcd's IsOwner is a Cmp evaluated by etcd, not a check
	"Until":   true, "TTL": true, "Alive": true, "IsAlive": true,
}
