#!/usr/bin/env bash
# bench/run.sh — fencelint's side-by-side performance benchmark.
#
# Usage (from anywhere; needs Go, the module proxy, and /usr/bin/time):
#
#   bench/run.sh [CODEBASE...]          # default: std gen1k gen10k
#   bench/run.sh std etcd gen1k gen10k gen100k
#
# CODEBASE is std (the standard library), etcd (go.etcd.io/etcd/server/v3/...
# at $ETCD_VERSION, fetched as a dependency of a throwaway module), or genN
# (the synthetic lock-heavy module of bench/gen with N functions; N may end
# in k), or dir:PATH[:PATTERN] (a module checked out at PATH, linted
# there with its own go.mod; PATTERN defaults to ./..., e.g.
# dir:/src/temporal:./common/...; its rows are named after PATH's base
# name; BENCH_EXCLUDE, an extended regexp, drops the packages whose
# import path matches it from the pattern, for a package that does not
# load). Every tool runs on each codebase one after the other, in one run,
# under /usr/bin/time -v: user+sys CPU seconds, wall seconds, peak RSS (of
# the largest single process: for go vet that is one vettool process).
#
# Environment: BENCH_WORK (scratch dir, default a new temp dir), BENCH_OUT
# (markdown report, default $BENCH_WORK/results.md), BENCH_TIMEOUT (seconds
# per tool run, default 3600), BENCH_TOOLS (space-separated subset of the
# row names below, default all), ETCD_VERSION (default v3.7.3),
# STATICCHECK_VERSION (default v0.8.2), BENCH_PAIRS (default 2: extra
# back-to-back fencelint/floor pairs per codebase and route (lintcmd, and
# go vet against nullfacts-vet), in alternating order, so
# that the headline ratio does not depend on which of the two ran first on
# a noisy machine; 0 to skip).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_WORK:-$(mktemp -d /tmp/fencelint-bench.XXXXXX)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
BIN=$WORK/bin
OUT=${BENCH_OUT:-$WORK/results.md}
TIMEOUT=${BENCH_TIMEOUT:-3600}
ETCD_VERSION=${ETCD_VERSION:-v3.7.3}
STATICCHECK_VERSION=${STATICCHECK_VERSION:-v0.8.2}
ALL_TOOLS="nullfacts fencelint fencelint-warm nofacts fencelint-full nullchecker fencechecker staticcheck vet vet-warm nullfacts-vet nofacts-vet fencelint-vet fencelint-vet-warm"
TOOLS=${BENCH_TOOLS:-$ALL_TOOLS}
PAIRS=${BENCH_PAIRS:-2}
CODEBASES=("$@")
[ ${#CODEBASES[@]} -gt 0 ] || CODEBASES=(std gen1k gen10k)

log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }

# ---- setup --------------------------------------------------------------
if [ ! -x /usr/bin/time ]; then
	log "installing GNU time"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
mkdir -p "$BIN"
log "building fencelint and the bench tools into $BIN"
# The bench tools carry the fencelintbench build tag, so that `go install
# ./...` in the repository (what pre-commit runs) builds only fencelint.
(cd "$ROOT" && go build -tags fencelintbench -o "$BIN/" ./cmd/fencelint ./bench/cmd/...)
if ! "$BIN/staticcheck" -version 2>/dev/null | grep -q "${STATICCHECK_VERSION#v}"; then
	log "installing staticcheck $STATICCHECK_VERSION"
	GOBIN=$BIN GOFLAGS=-mod=mod go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
fi

# prepare CODEBASE: sets DIR, PATTERN, CBFLAGS (GOFLAGS for the codebase)
# and NAME (the codebase's name in the report and in file names).
prepare() {
	NAME=$1 SHOWN=
	case $1 in
	std)
		DIR=$WORK/stddir PATTERN=std CBFLAGS=""
		mkdir -p "$DIR"
		;;
	etcd)
		DIR=$WORK/etcd PATTERN=go.etcd.io/etcd/server/v3/... CBFLAGS=-mod=mod
		if [ ! -f "$DIR/go.mod" ]; then
			mkdir -p "$DIR"
			printf 'module benchetcd\n\ngo 1.26.0\n' >"$DIR/go.mod"
			log "fetching go.etcd.io/etcd/server/v3@$ETCD_VERSION through the module proxy"
			(cd "$DIR" && GOFLAGS=-mod=mod go get "go.etcd.io/etcd/server/v3/...@$ETCD_VERSION" >/dev/null 2>&1)
		fi
		;;
	gen*)
		local n=${1#gen}
		case $n in *k) n=$((${n%k} * 1000)) ;; esac
		DIR=$WORK/gen$n PATTERN=./... CBFLAGS=""
		[ -f "$DIR/go.mod" ] || "$BIN/fencegen" -n "$n" -o "$DIR" >&2
		;;
	dir:*)
		local spec=${1#dir:}
		DIR=${spec%%:*} PATTERN=./... CBFLAGS=""
		[ "$spec" = "$DIR" ] || PATTERN=${spec#*:}
		[ -f "$DIR/go.mod" ] || { echo "codebase $1: no go.mod in $DIR" >&2; exit 2; }
		DIR=$(cd "$DIR" && pwd)
		NAME=$(basename "$DIR")
		if [ -n "${BENCH_EXCLUDE:-}" ]; then
			SHOWN="$PATTERN minus ${BENCH_EXCLUDE}"
			PATTERN=$(cd "$DIR" && go list -e $PATTERN | grep -v -E "$BENCH_EXCLUDE" | tr '\n' ' ')
		fi
		;;
	*)
		echo "unknown codebase $1" >&2
		exit 2
		;;
	esac
	log "$NAME: warming the compile cache (go list -test -export -deps $PATTERN, as lintcmd asks)"
	(cd "$DIR" && GOFLAGS="$CBFLAGS" go list -test -export -deps $PATTERN >/dev/null)
	NPKG=$(cd "$DIR" && GOFLAGS="$CBFLAGS" go list $PATTERN | wc -l)
	NDEPS=$(cd "$DIR" && GOFLAGS="$CBFLAGS" go list -deps $PATTERN | wc -l)
}

# measure CODEBASE TOOL ROUTE CACHE cmd...: runs cmd in $DIR under
# /usr/bin/time -v and appends a row to $WORK/rows.tsv.
measure() {
	local cb=$1 tool=$2 route=$3 cache=$4
	shift 4
	local rows=$WORK/rows.tsv
	if grep -q "^$cb	$tool	" "$rows" 2>/dev/null; then
		rows=$WORK/repeats.tsv # a paired repeat: reported in its own table
	fi
	case " $TOOLS " in *" $tool "*) ;; *) return 0 ;; esac
	local tf=$WORK/time.$cb.$tool rc=0
	log "$cb: $tool ($route, $cache)"
	(cd "$DIR" && GOFLAGS="$CBFLAGS" timeout "$TIMEOUT" /usr/bin/time -v -o "$tf" "$@" \
		>"$WORK/out.$cb.$tool" 2>"$WORK/err.$cb.$tool") || rc=$?
	local user sys wall rss
	user=$(awk -F': ' '/User time/ {print $2}' "$tf")
	sys=$(awk -F': ' '/System time/ {print $2}' "$tf")
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s}' "$tf")
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tf")
	local lines
	lines=$(cat "$WORK/out.$cb.$tool" "$WORK/err.$cb.$tool" | grep -c . || true)
	printf '%s\t%s\t%s\t%s\t%.2f\t%.2f\t%d\t%d\t%d\n' "$cb" "$tool" "$route" "$cache" \
		"$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$wall" "$((rss / 1024))" "$rc" "$lines" >>"$rows"
	log "$cb: $tool: cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')s wall=${wall}s rss=$((rss / 1024))MB exit=$rc"
}

fresh() { mktemp -d "$WORK/cache.XXXXXX"; }

: >"$WORK/rows.tsv"
: >"$WORK/repeats.tsv"
: >"$WORK/codebases.tsv"
for cb in "${CODEBASES[@]}"; do
	prepare "$cb"
	cb=$NAME
	echo "$cb	${SHOWN:-$PATTERN}	$NPKG	$NDEPS" >>"$WORK/codebases.tsv"
	# Standalone, lintcmd driver: the fact-declaring floor, then fencelint,
	# each with a fresh result cache (cold); then fencelint again (warm).
	c=$(fresh)
	measure "$cb" nullfacts lintcmd cold env STATICCHECK_CACHE="$c" "$BIN/nullfacts" -f json $PATTERN
	c=$(fresh)
	measure "$cb" fencelint lintcmd cold env STATICCHECK_CACHE="$c" "$BIN/fencelint" -f json $PATTERN
	measure "$cb" fencelint-warm lintcmd warm env STATICCHECK_CACHE="$c" "$BIN/fencelint" -f json $PATTERN
	# The standalone no-facts floor: a no-op analyzer without facts through
	# the x/tools checker driver, which then takes every dependency from
	# export data (lintcmd loads every package from source either way).
	measure "$cb" nofacts checker - "$BIN/nofacts" $PATTERN
	# fencelint with its fast path off (every package loaded, as before).
	c=$(fresh)
	measure "$cb" fencelint-full lintcmd cold env STATICCHECK_CACHE="$c" FENCELINT_FULL=1 "$BIN/fencelint" -f json $PATTERN
	# x/tools checker driver (multichecker): no result cache.
	measure "$cb" nullchecker checker - "$BIN/nullchecker" $PATTERN
	measure "$cb" fencechecker checker - "$BIN/fencechecker" $PATTERN
	# staticcheck (all default checks), fresh cache.
	c=$(fresh)
	measure "$cb" staticcheck lintcmd cold env STATICCHECK_CACHE="$c" "$BIN/staticcheck" -f json $PATTERN
	# go vet: vetsalt gives the tool a new ID (vet-result cache miss, compile
	# cache warm); the same ID again is a warm run.
	s=cold$RANDOM$RANDOM
	measure "$cb" vet "go vet" cold env VETSALT_ID="$s" go vet -vettool="$BIN/vetsalt" $PATTERN
	measure "$cb" vet-warm "go vet" warm env VETSALT_ID="$s" go vet -vettool="$BIN/vetsalt" $PATTERN
	measure "$cb" nullfacts-vet "go vet" cold env VETSALT_ID="n$s" VETSALT_REAL="$BIN/nullfacts" go vet -vettool="$BIN/vetsalt" $PATTERN
	measure "$cb" nofacts-vet "go vet" cold env VETSALT_ID="o$s" VETSALT_REAL="$BIN/nofacts" go vet -vettool="$BIN/vetsalt" $PATTERN
	measure "$cb" fencelint-vet "go vet" cold env VETSALT_ID="f$s" VETSALT_REAL="$BIN/fencelint" go vet -vettool="$BIN/vetsalt" $PATTERN
	measure "$cb" fencelint-vet-warm "go vet" warm env VETSALT_ID="f$s" VETSALT_REAL="$BIN/fencelint" go vet -vettool="$BIN/vetsalt" $PATTERN
	# Paired repeats of the headline comparison, alternating which runs
	# first; each pair's ratio goes to pairs.tsv.
	if [[ " $TOOLS " == *" nullfacts "* && " $TOOLS " == *" fencelint "* ]]; then
		for ((k = 1; k <= PAIRS; k++)); do
			c1=$(fresh) c2=$(fresh)
			if ((k % 2)); then
				measure "$cb" fencelint lintcmd cold env STATICCHECK_CACHE="$c1" "$BIN/fencelint" -f json $PATTERN
				measure "$cb" nullfacts lintcmd cold env STATICCHECK_CACHE="$c2" "$BIN/nullfacts" -f json $PATTERN
				measure "$cb" nofacts checker - "$BIN/nofacts" $PATTERN
			else
				measure "$cb" nofacts checker - "$BIN/nofacts" $PATTERN
				measure "$cb" nullfacts lintcmd cold env STATICCHECK_CACHE="$c2" "$BIN/nullfacts" -f json $PATTERN
				measure "$cb" fencelint lintcmd cold env STATICCHECK_CACHE="$c1" "$BIN/fencelint" -f json $PATTERN
			fi
		done
	fi
	# The same under go vet: fencelint against the fact-declaring floor,
	# each with a new tool ID (cold vet results, warm compile cache).
	if [[ " $TOOLS " == *" nullfacts-vet "* && " $TOOLS " == *" fencelint-vet "* ]]; then
		for ((k = 1; k <= PAIRS; k++)); do
			s=pair$k$RANDOM$RANDOM
			if ((k % 2)); then
				measure "$cb" nullfacts-vet "go vet" cold env VETSALT_ID="n$s" VETSALT_REAL="$BIN/nullfacts" go vet -vettool="$BIN/vetsalt" $PATTERN
				measure "$cb" fencelint-vet "go vet" cold env VETSALT_ID="f$s" VETSALT_REAL="$BIN/fencelint" go vet -vettool="$BIN/vetsalt" $PATTERN
			else
				measure "$cb" fencelint-vet "go vet" cold env VETSALT_ID="f$s" VETSALT_REAL="$BIN/fencelint" go vet -vettool="$BIN/vetsalt" $PATTERN
				measure "$cb" nullfacts-vet "go vet" cold env VETSALT_ID="n$s" VETSALT_REAL="$BIN/nullfacts" go vet -vettool="$BIN/vetsalt" $PATTERN
			fi
		done
	fi
	rm -rf "$WORK"/cache.*
done

# pairs ROUTE TOOL FLOOR [FLOOR_ROUTE]: every TOOL/FLOOR pair of a codebase
# (the main rows and the repeats, in run order), its CPU ratio, and the
# median. FLOOR_ROUTE (default ROUTE) is the floor's driver.
pairs() {
	echo
	echo "Paired runs, $1, cold ($2 CPU / $3 CPU${4:+ ($4)}, per pair in run order; median):"
	echo
	awk -F'\t' -v route="$1" -v f="$2" -v fl="$3" -v flroute="${4:-$1}" '
	(($3 == route && $4 == "cold" && $2 == f) || ($3 == flroute && ($4 == "cold" || flroute == "checker") && $2 == fl)) {
	  k = $1 SUBSEP $2; n[k]++; v[k, n[k]] = $5; if (!($1 in seen)) { seen[$1] = 1; order[++m] = $1 } }
	END {
	  for (i = 1; i <= m; i++) {
	    cb = order[i]; np = n[cb, f]; if (n[cb, fl] < np) np = n[cb, fl]
	    if (np == 0) continue
	    line = ""; delete r
	    for (j = 1; j <= np; j++) { r[j] = v[cb, f, j] / v[cb, fl, j]; line = line sprintf("%s%.2f (%.1f/%.1f s)", j > 1 ? ", " : "", r[j], v[cb, f, j], v[cb, fl, j]) }
	    for (a = 1; a <= np; a++) for (b = a + 1; b <= np; b++) if (r[b] < r[a]) { t = r[a]; r[a] = r[b]; r[b] = t }
	    med = (np % 2) ? r[(np + 1) / 2] : (r[np / 2] + r[np / 2 + 1]) / 2
	    printf "- %s: %s; median %.2f\n", cb, line, med
	  }
	}' "$WORK/rows.tsv" "$WORK/repeats.tsv"
}

# ---- report -------------------------------------------------------------
{
	echo "fencelint benchmark, $(date -u +%F), $(go version | cut -d' ' -f3-), $(nproc) cores, load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
	echo "Ratios: CPU to the lintcmd nullfacts floor (same codebase, same run); RSS to the lintcmd floor and to the checker-driver floor (nullchecker)."
	awk -F'\t' '
	FNR == NR { pat[$1] = $2; npkg[$1] = $3; ndeps[$1] = $4; next }
	{ n++; cb[n] = $1; tool[n] = $2; route[n] = $3; cache[n] = $4; cpu[n] = $5; wall[n] = $6; rss[n] = $7; rc[n] = $8; lines[n] = $9
	  if ($2 == "nullfacts") { fcpu[$1] = $5; frss[$1] = $7 }
	  if ($2 == "nullchecker") { crss[$1] = $7 }
	  if ($2 == "nullfacts-vet") { vcpu[$1] = $5 } }
	END {
	  for (i = 1; i <= n; i++) {
	    if (cb[i] != last) {
	      printf "\n### %s (`%s`: %d packages, %d with dependencies)\n\n", cb[i], pat[cb[i]], npkg[cb[i]], ndeps[cb[i]]
	      print "| tool | driver | result cache | CPU s | wall s | peak RSS MB | CPU / floor | RSS / lintcmd floor | RSS / checker floor | exit | output lines |"
	      print "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	      last = cb[i]
	    }
	    base = (route[i] == "go vet" && tool[i] ~ /fencelint|nullfacts|nofacts/ && vcpu[cb[i]] > 0) ? vcpu[cb[i]] : fcpu[cb[i]]
	    r1 = base > 0 ? sprintf("%.2f%s", cpu[i] / base, base == vcpu[cb[i]] && base != fcpu[cb[i]] ? " (vet floor)" : "") : "-"
	    r2 = frss[cb[i]] > 0 ? sprintf("%.2f", rss[i] / frss[cb[i]]) : "-"
	    r3 = crss[cb[i]] > 0 ? sprintf("%.2f", rss[i] / crss[cb[i]]) : "-"
	    printf "| %s | %s | %s | %.1f | %.1f | %d | %s | %s | %s | %d | %d |\n", tool[i], route[i], cache[i], cpu[i], wall[i], rss[i], r1, r2, r3, rc[i], lines[i]
	  }
	}' "$WORK/codebases.tsv" "$WORK/rows.tsv"
	pairs lintcmd fencelint nullfacts
	pairs lintcmd fencelint nofacts checker
	pairs "go vet" fencelint-vet nullfacts-vet
	pairs "go vet" fencelint-vet nofacts-vet
	pairs "go vet" fencelint-vet vet
} >"$OUT"
cat "$OUT"
log "raw rows: $WORK/rows.tsv; outputs: $WORK/out.* $WORK/err.*"
