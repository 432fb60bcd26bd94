// Package integration holds fencelint's end-to-end tests against other
// tools; it has no code of its own.
//
//   - gcl_test.go runs a custom golangci-lint v2 binary with fencelint's
//     module plugins (built by .ci/gcl.sh: a require plus a replace) on
//     testdata/sample.
//   - custom_test.go builds another one with `golangci-lint custom` and a
//     .custom-gcl.yml whose plugin has path: to this working tree, as
//     docs/golangci-lint.md tells users to, and lints the sample with it.
//   - precommit_test.go runs the repository's .pre-commit-hooks.yaml through
//     pre-commit on a consumer repository, from a local clone pinned by
//     commit SHA, as docs/pre-commit.md tells users to.
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
