// Package bench holds fencelint's performance benchmark: run.sh (the
// side-by-side measurement against the load floor, go vet and staticcheck;
// see docs/performance.md), the floor tools under cmd/, the synthetic
// lock-heavy module generator gen/, and the growth and budget guards in
// bench_test.go.
package bench
