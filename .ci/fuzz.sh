#!/usr/bin/env bash
# .ci/fuzz.sh: run every fuzz target for a bounded time each.
#
#   FUZZTIME=30s .ci/fuzz.sh      # default 30s per target
#
# Fails (non-zero exit) if any target fails; every target is run even
# after a failure, and the failing ones are listed at the end. A failing
# input is saved by go test under the package's testdata/fuzz/<Name>/.
set -uo pipefail

FUZZTIME="${FUZZTIME:-30s}"
cd "$(dirname "$0")/.."

# package:target
targets=(
	./analyzer/internal/sqlcond/:FuzzParse
	./analyzer/internal/ddbcond/:FuzzParseCondition
	./analyzer/internal/ddbcond/:FuzzParseUpdate
	./analyzer/internal/directive/:FuzzParse
)

failed=()
for t in "${targets[@]}"; do
	pkg="${t%%:*}" name="${t##*:}"
	echo "fuzz.sh: $name in $pkg for $FUZZTIME"
	start=$SECONDS
	# -fuzz matching nothing passes silently: make a renamed target fail.
	# (Capture first: grep -q would close the pipe early, and with pipefail
	# go test's SIGPIPE would read as "missing".)
	listed=$(go test -run='^$' -list="^${name}\$" "$pkg" 2>&1 || true)
	if ! grep -qx "$name" <<<"$listed"; then
		echo "fuzz.sh: no fuzz target $name in $pkg" >&2
		failed+=("$name ($pkg): missing")
		continue
	fi
	if ! go test -run='^$' -fuzz="^${name}\$" -fuzztime="$FUZZTIME" "$pkg"; then
		failed+=("$name ($pkg)")
	fi
	echo "fuzz.sh: $name took $((SECONDS - start))s"
done

if ((${#failed[@]})); then
	echo "fuzz.sh: FAILED: ${failed[*]}" >&2
	exit 1
fi
echo "fuzz.sh: all ${#targets[@]} targets passed ($FUZZTIME each)"
