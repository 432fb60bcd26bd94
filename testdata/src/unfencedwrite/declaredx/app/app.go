package app

import (
	"context"
	"database/sql"

	"unfencedwrite/declaredx/lib"
)

func claimBad(ctx context.Context, p *lib.Pool, db *sql.DB, id string) error {
	s, err := p.Claim(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx)
	_, err = db.ExecContext(ctx, "UPDATE t SET v = 1 WHERE id = $1", id) // want `under the lease Slot from Claim is not fenced: .*; compare the stored fence with the lease's Gen in the write itself$`
	return err
}

func claimGood(ctx context.Context, p *lib.Pool, db *sql.DB, id string) error {
	s, err := p.Claim(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx)
	// ok: fenced with the imported lease's token field
	_, err = db.ExecContext(ctx, "UPDATE t SET v = 1, gen = $2 WHERE id = $1 AND gen < $2", id, s.Gen)
	return err
}

func bareBad(ctx context.Context, p *lib.Pool, db *sql.DB, id string) error {
	b, err := p.ClaimBare(ctx, "a")
	if err != nil {
		return err
	}
	defer b.Release(ctx)
	_, err = db.ExecContext(ctx, "UPDATE t SET v = 1 WHERE id = $1", id) // want `under the lease Bare from ClaimBare is not fenced: .*the lease Bare from ClaimBare gives no token to fence with: .*; if Bare does carry a token, mark its field or method //fencelint:token; see https://`
	return err
}

func bareReleasedGood(ctx context.Context, p *lib.Pool, db *sql.DB, id string) error {
	b, err := p.ClaimBare(ctx, "a")
	if err != nil {
		return err
	}
	if err := b.Release(ctx); err != nil {
		return err
	}
	// ok: released before the write
	_, err = db.ExecContext(ctx, "UPDATE t SET v = 1 WHERE id = $1", id)
	return err
}

func saveBad(ctx context.Context, p *lib.Pool, h lib.Hooks) error {
	s, err := p.Claim(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx)
	return h.Save(ctx, "a", 0) // want `storage write via h.Save under the lease Slot from Claim is not fenced: no fencing token reaches Save's fence parameter`
}

func saveGood(ctx context.Context, p *lib.Pool, h lib.Hooks) error {
	s, err := p.Claim(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx)
	// ok: the token reaches the imported field's fence parameter
	return h.Save(ctx, "a", s.Gen)
}

func emitBad(ctx context.Context, p *lib.Pool) error {
	s, err := p.Claim(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx)
	return lib.Emit(ctx, "a", 1) // want `storage write via lib.Emit under the lease Slot from Claim is not fenced: no fencing token is passed to Emit`
}

func emitGood(ctx context.Context, p *lib.Pool) error {
	s, err := p.Claim(ctx, "a")
	if err != nil {
		return err
	}
	defer s.Release(ctx)
	// ok: the token is passed to the imported variable's write
	return lib.Emit(ctx, "a", s.Gen)
}
