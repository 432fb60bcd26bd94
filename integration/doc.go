// Package integration holds fencelint's end-to-end tests against other
// tools; it has no code of its own.
//
//   - gcl_test.go runs a custom golangci-lint v2 binary with fencelint's
//     module plugins (built by .ci/gcl.sh) on testdata/sample.
//   - precommit_test.go runs the repository's .pre-commit-hooks.yaml through
//     pre-commit on a consumer repository.
//
// Both are slow and need external tools, so they are skipped under -short
// and when the tool is missing:
//
//	bash .ci/gcl.sh "$DIR"          # builds $DIR/custom-gcl
//	bash .ci/precommit.sh           # puts pre-commit on PATH
//	FENCELINT_GCL="$DIR/custom-gcl" FENCELINT_INTEGRATION=require go test -v ./integration/
//
// With FENCELINT_INTEGRATION=require a missing tool fails the test instead
// of skipping it, so CI cannot pass without running them.
package integration
