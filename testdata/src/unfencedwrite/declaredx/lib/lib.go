// Package lib declares a lease type and func values; package app uses
// them, so the directives reach it as facts.
package lib

import "context"

// Slot is a lease by directive; Gen is its token.
//
//fencelint:lease
type Slot struct {
	Key string
	Gen int64 //fencelint:token
}

func (s *Slot) Release(ctx context.Context) error { return nil }

// Bare is a lease by directive with no token.
//
//fencelint:lease
type Bare struct{ Key string }

func (b *Bare) Release(ctx context.Context) error { return nil }

type Pool struct{}

func (p *Pool) Claim(ctx context.Context, key string) (*Slot, error) { return &Slot{Key: key}, nil }

func (p *Pool) ClaimBare(ctx context.Context, key string) (*Bare, error) { return &Bare{Key: key}, nil }

type Hooks struct {
	// Save writes shared state, fenced by gen.
	Save func(ctx context.Context, key string, gen int64) error //fencelint:write token=gen
}

// Emit writes, fenced by whichever argument carries the token.
//
//fencelint:write
var Emit func(ctx context.Context, key string, gen int64) error
