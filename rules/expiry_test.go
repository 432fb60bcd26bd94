package rules

import (
	"go/token"
	"go/types"
	"testing"
)

// TestIsExpiryField: lease expiry fields by name, exported or not, and
// time-typed fields named like an expiry; look-alikes of other types are not.
func TestIsExpiryField(t *testing.T) {
	timePkg := types.NewPackage("time", "time")
	timeT := types.NewNamed(types.NewTypeName(token.NoPos, timePkg, "Time", nil), types.NewStruct(nil, nil), nil)
	durT := types.NewNamed(types.NewTypeName(token.NoPos, timePkg, "Duration", nil), types.Typ[types.Int64], nil)
	v := func(name string, t types.Type) *types.Var { return types.NewField(token.NoPos, nil, name, t, false) }
	for _, c := range []struct {
		f    *types.Var
		want bool
	}{
		{v("ExpiresAt", timeT), true},
		{v("expireAt", types.Typ[types.Int64]), true},
		{v("validUntil", timeT), true},
		{v("leaseExpiry", types.NewPointer(timeT)), true},
		{v("expirationUnixMs", types.Typ[types.Int64]), true},
		{v("lockDeadline", timeT), true},
		{v("expiryNote", types.Typ[types.String]), false},
		{v("retryUntil", durT), false},
		{v("createdAt", timeT), false},
	} {
		if got := IsExpiryField(c.f); got != c.want {
			t.Errorf("IsExpiryField(%s %s) = %v, want %v", c.f.Name(), c.f.Type(), got, c.want)
		}
	}
}
