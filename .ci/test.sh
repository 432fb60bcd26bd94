#!/usr/bin/env bash
# fencelint's whole test suite: the test command README gives, and what
# .ci/run calls. On a fresh machine it installs what it needs (as root, via
# apt-get: PostgreSQL and pre-commit; Go modules via the module proxy).
#
#   bash .ci/test.sh
#
# Steps:
#   1. PostgreSQL on loopback (.ci/postgres.sh) for the SQL verdict proof;
#   2. pre-commit (.ci/precommit.sh) for the hook's end-to-end test, and
#      Graphviz for the fence map's SVG test;
#   3. a custom golangci-lint v2.15.0 with fencelint's plugins linked in
#      (.ci/gcl.sh), built from the module proxy, for the plugin test;
#   4. go test ./... with all of the above required (unit, analysistest,
#      stub-vs-real-module, PostgreSQL proof, determinism, std soak, go vet
#      and CLI end-to-end, golangci-lint and pre-commit integration);
#   5. the analyzers again under the race detector (TestParallelDriver
#      runs all six concurrently through the x/tools checker);
#   6. the soak over std plus every dependency module;
#   7. the PostgreSQL proof's statement count;
#   8. every fuzz target for FUZZTIME (default 30s) each.
set -euo pipefail
cd "$(dirname "$0")/.."

# go test's default 10-minute limit per package is tight for the end-to-end
# tests on a cold 2-core machine (they compile etcd, gRPC and the AWS SDK).
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-timeout=45m"
# Missing tools fail the integration tests instead of skipping them.
export FENCELINT_INTEGRATION=require

echo "--- PostgreSQL"
eval "$(bash .ci/postgres.sh)"

echo "--- Graphviz (the fence map's SVG test)"
if ! command -v dot >/dev/null; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends graphviz >/dev/null
fi
dot -V

echo "--- pre-commit"
bash .ci/precommit.sh

echo "--- custom golangci-lint (cached in ${FENCELINT_GCL_DIR:=$HOME/.cache/fencelint-gcl})"
bash .ci/gcl.sh "$FENCELINT_GCL_DIR"
export FENCELINT_GCL="$FENCELINT_GCL_DIR/custom-gcl"

echo "--- go test ./..."
go test ./...

echo "--- go test -race ./analyzer/... (drivers run a package's analyzers concurrently)"
go test -race ./analyzer/...

echo "--- soak: std and every dependency module (any finding is a false positive)"
FENCELINT_SOAK_PATTERNS=all go test -count=1 -run '^TestSoakStd$' ./analyzer/internal/pgproof/

echo "--- PostgreSQL proof"
go test -count=1 -v -run '^TestPostgresProof$' ./analyzer/internal/pgproof/ 2>&1 | grep -E '^(pgproof:|--- (PASS|FAIL)|ok|FAIL)'

echo "--- fuzz (${FUZZTIME:=30s} per target)"
FUZZTIME=$FUZZTIME bash .ci/fuzz.sh
