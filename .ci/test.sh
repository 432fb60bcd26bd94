#!/usr/bin/env bash
# fencelint's whole test suite: the test command README gives, and what
# .ci/run calls. On a fresh machine it installs what it needs (as root, via
# apt-get: PostgreSQL, Redis and pre-commit; Go modules via the module
# proxy).
#
#   bash .ci/test.sh
#
# Steps:
#   1. PostgreSQL on loopback (.ci/postgres.sh) for the SQL verdict proof;
#   2. redis-server (.ci/redis.sh) for the Redis proof;
#   3. pre-commit (.ci/precommit.sh) for the hook's end-to-end test, and
#      Graphviz for the fence map's SVG test;
#   4. a custom golangci-lint v2.15.0 with fencelint's plugins linked in
#      (.ci/gcl.sh), built from the module proxy, for the plugin test;
#   5. go test ./... with all of the above required (unit, analysistest,
#      stub-vs-real-module, PostgreSQL proof, determinism, std soak, go vet
#      and CLI end-to-end, golangci-lint and pre-commit integration);
#   6. the analyzers again under the race detector, -short (TestParallelDriver
#      runs all six concurrently through the x/tools checker);
#   7. the etcd and Redis proofs, a module of their own
#      (analyzer/internal/storeproof: embedded etcd, redis-server), with
#      their write counts;
#   8. the soak over std plus every dependency module, and the fast-path
#      identity tests (go vet and standalone) over std and this module;
#   9. the PostgreSQL proof's statement count;
#  10. every fuzz target for FUZZTIME (default 30s) each.
#
# Each step prints what it does and roughly how long it takes on a shared
# 2-core machine (estimates, cold caches first), then how long it took.
#
# PostgreSQL: if step 1 started the server, it is stopped when this script
# exits (success or failure); a server that was already running is left
# running. Stop one by hand with: bash .ci/postgres.sh stop
set -euo pipefail
cd "$(dirname "$0")/.."

# go test's default 10-minute limit per package is tight for the end-to-end
# tests on a cold 2-core machine (they compile etcd, gRPC and the AWS SDK).
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-timeout=45m"
# Missing tools fail the integration tests instead of skipping them.
export FENCELINT_INTEGRATION=require

# step NAME ROUGHLY: announce a step and how long it usually takes; the
# previous step's duration is printed first.
step_start=
step() {
	if [[ -n "$step_start" ]]; then echo "    (took $((SECONDS - step_start))s)"; fi
	echo "--- $1 (roughly $2)"
	step_start=$SECONDS
}

step "PostgreSQL on 127.0.0.1 for the SQL proof" "5 s; 1-2 min when apt-get installs it"
pg_pid="${FENCELINT_PG_DIR:-/tmp/fencelint-pg}/data/postmaster.pid"
pg_was_running=false
if [[ -f "$pg_pid" ]]; then pg_was_running=true; fi
eval "$(bash .ci/postgres.sh)"
if ! $pg_was_running; then
	trap 'echo "--- stopping the PostgreSQL this script started"; bash .ci/postgres.sh stop' EXIT
fi

step "redis-server for the Redis proof" "seconds; 30 s when apt-get installs it"
bash .ci/redis.sh

step "Graphviz for the fence map's SVG test" "seconds; 30 s when apt-get installs it"
if ! command -v dot >/dev/null; then
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends graphviz >/dev/null
fi
dot -V

step "pre-commit for the hook's end-to-end test" "seconds; 1 min when apt-get installs it"
bash .ci/precommit.sh

step "custom golangci-lint (cached in ${FENCELINT_GCL_DIR:=$HOME/.cache/fencelint-gcl})" "3-4 min cold, seconds when cached"
bash .ci/gcl.sh "$FENCELINT_GCL_DIR"
export FENCELINT_GCL="$FENCELINT_GCL_DIR/custom-gcl"

step "go test ./... (unit, analysistest, e2e through the CLI, go vet, golangci-lint, pre-commit)" "15-30 min cold: the e2e tests compile etcd, gRPC and the AWS SDK; 5 min warm"
go test -timeout 45m ./...

# -short: the go vet driver's end-to-end tests (every go vet run of
# testdata, example/ and gen10k with a race-built vettool) took over 30
# minutes under the race detector; they ran without it in the step above.
# TestParallelDriver, the analyzers' concurrency test, is not short-gated.
step "go test -race -short ./analyzer/... (drivers run a package's analyzers concurrently)" "5-10 min"
go test -race -short -timeout 40m ./analyzer/...

step "etcd and Redis proofs (module analyzer/internal/storeproof; go test ./... does not enter it)" "1 min warm; +2 min to build etcd's server cold"
proof_log=$(mktemp)
if ! (cd analyzer/internal/storeproof && go vet ./... && go test -count=1 -v ./...) >"$proof_log" 2>&1; then
	cat "$proof_log"
	exit 1
fi
grep -E '^(etcdproof:|redisproof:|--- (PASS|FAIL|SKIP)|ok|FAIL)' "$proof_log"
rm -f "$proof_log"

step "soak: std and every dependency module (any finding is a false positive)" "2-5 min"
FENCELINT_SOAK_PATTERNS=all go test -count=1 -run '^TestSoakStd$' ./analyzer/internal/pgproof/

# Step 5 ran both identity tests over testdata, example/ and gen10k; here
# they run over the soak set too (std and this module): the fast paths of
# go vet and of the standalone CLI against FENCELINT_FULL=1, byte for byte.
step "fast path = full path on the soak set (std, this module), go vet and standalone" "10-20 min"
VETDRIVER_TEST_SOAK=1 go test -count=1 -run '^TestSameFindings$/^soak$' ./analyzer/internal/vetdriver/
FENCELINT_TEST_SOAK=1 go test -count=1 -run '^TestStandaloneSameFindings$/^soak$' ./cmd/fencelint/

step "PostgreSQL proof" "under a minute"
go test -count=1 -v -run '^TestPostgresProof$' ./analyzer/internal/pgproof/ 2>&1 | grep -E '^(pgproof:|--- (PASS|FAIL)|ok|FAIL)'

step "fuzz (${FUZZTIME:=30s} per target, 4 targets)" "4 x $FUZZTIME plus build time"
FUZZTIME=$FUZZTIME bash .ci/fuzz.sh
echo "    (took $((SECONDS - step_start))s)"
