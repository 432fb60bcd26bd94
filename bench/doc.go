// Package bench holds fencelint's performance benchmark: run.sh (the
// side-by-side measurement against the load floor, go vet and staticcheck;
// see docs/performance.md), the floor tools under cmd/, the synthetic
// lock-heavy module generator gen/, and the growth and budget guards in
// bench_test.go.
//
// The commands under cmd/ build only with the fencelintbench tag
// (go build -tags fencelintbench ./bench/cmd/...; run.sh passes it), so
// that `go install ./...` at the repository root, which is what pre-commit
// runs to install the hook, builds fencelint alone.
package bench
