// Package app calls lib's write helpers.
package app

import (
	"context"

	"optionaltoken/crosspkg/lib"
)

func bad(ctx context.Context) error {
	return lib.Save(ctx, "a", 0) // want `literal 0 passed as fencing token fence of lib.Save: the write is not fenced`
}

func badFencedBy(ctx context.Context) error {
	return lib.SaveAt(ctx, "a", 0, 0) // want `literal 0 passed as fencing token seq of lib.SaveAt`
}

// ok: the caller's token is passed on; 0 for the limit is unrelated
func good(ctx context.Context, fence int64) error {
	if err := lib.Save(ctx, "a", fence); err != nil {
		return err
	}
	return lib.SaveAt(ctx, "a", 0, fence)
}
