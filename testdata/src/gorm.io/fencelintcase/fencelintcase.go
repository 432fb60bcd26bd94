// Package fencelintcase sits in a library's module that fencelint does not
// analyse (gorm's ecosystem): its directives do nothing, and say so. Not a
// library stub: the stub check skips it (caseDirs in
// analyzer/internal/fencetest).
package fencelintcase

import "context"

// want +1 `//fencelint:write does nothing: fencelint does not analyse gorm.io/fencelintcase, a library whose behaviour it takes from its rules`
//fencelint:write
func Save(ctx context.Context, key string) error { return nil }
