#!/usr/bin/env bash
# .ci/postgres.sh: make a throwaway PostgreSQL server available on
# 127.0.0.1:$FENCELINT_PG_PORT (default 5432) for the pgproof test.
#
#   eval "$(.ci/postgres.sh)"      # exports FENCELINT_PG_DSN
#   go test ./analyzer/internal/pgproof/
#
# Idempotent: installs PostgreSQL from apt only if no server binaries are
# present, creates a cluster (initdb, trust auth, superuser "postgres") in
# $FENCELINT_PG_DIR only if none is there, starts it only if it is not
# already accepting connections. Everything but the final export line goes
# to stderr. The export line is also written to $FENCELINT_PG_DIR/env and,
# on GitHub Actions, appended to $GITHUB_ENV.
#
# Run as root (the server is then run as the "postgres" system user) or as
# any other non-root user (the server runs as that user).
#
# Stop it with: .ci/postgres.sh stop
set -euo pipefail

PORT="${FENCELINT_PG_PORT:-5432}"
DIR="${FENCELINT_PG_DIR:-/tmp/fencelint-pg}"
DATA="$DIR/data"
LOG="$DIR/server.log"
DSN="postgres://postgres@127.0.0.1:${PORT}/postgres?sslmode=disable"

log() { printf 'postgres.sh: %s\n' "$*" >&2; }

bindir() {
	local d
	d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true)
	if [[ -n "$d" && -x "$d/postgres" && -x "$d/initdb" && -x "$d/pg_ctl" ]]; then
		echo "$d"
		return
	fi
	# Not the Debian layout: use whatever is on PATH.
	if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
		dirname "$(command -v initdb)"
	fi
}

# as_owner runs a command as the user who owns the cluster.
as_owner() {
	if [[ "$(id -u)" == 0 ]]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

ready() {
	# The DSN, not just the port: something else listening there is no use.
	if command -v psql >/dev/null; then
		psql "$DSN" -XAtqc 'select 1' >/dev/null 2>&1
	else
		"$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" -U postgres
	fi
}

emit() {
	local line="export FENCELINT_PG_DSN='$DSN'"
	mkdir -p "$DIR"
	printf '%s\n' "$line" >"$DIR/env"
	if [[ -n "${GITHUB_ENV:-}" ]]; then
		printf 'FENCELINT_PG_DSN=%s\n' "$DSN" >>"$GITHUB_ENV"
	fi
	printf '%s\n' "$line"
}

BIN=$(bindir)
if [[ "${1:-}" == stop ]]; then
	if [[ -n "$BIN" && -f "$DATA/PG_VERSION" ]]; then
		as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >&2 || true
	fi
	exit 0
fi

start=$(date +%s.%N)

if [[ -z "$BIN" ]]; then
	[[ "$(id -u)" == 0 ]] || { log "PostgreSQL is not installed and we are not root"; exit 1; }
	log "installing postgresql from apt"
	apt-get update >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql >&2
	BIN=$(bindir)
	[[ -n "$BIN" ]] || { log "no PostgreSQL server binaries after apt-get install"; exit 1; }
fi
log "server binaries in $BIN ($("$BIN/postgres" --version))"

if ready; then
	log "already accepting connections at $DSN"
	emit
	exit 0
fi

if [[ "$(id -u)" == 0 ]]; then
	id postgres >/dev/null 2>&1 || useradd --system --home-dir "$DIR" --shell /bin/sh postgres
	mkdir -p "$DIR"
	chown postgres: "$DIR"
else
	mkdir -p "$DIR"
fi

if [[ ! -f "$DATA/PG_VERSION" ]]; then
	log "initdb in $DATA"
	as_owner "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >&2 2>&1 \
		|| as_owner "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C --no-sync >&2
fi

if as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
	log "a server is running on $DATA but does not accept $DSN; see $LOG"
	exit 1
fi
# Throwaway server: no durability needed, sockets in $DIR (the Debian
# default /var/run/postgresql may not exist or belong to someone else).
log "starting on 127.0.0.1:$PORT (log: $LOG)"
as_owner "$BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 60 \
	-o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
	start >&2 || { log "pg_ctl start failed:"; tail -n 20 "$LOG" >&2 || true; exit 1; }

for _ in $(seq 1 60); do
	ready && break
	sleep 0.5
done
ready || { log "server did not accept $DSN in time"; tail -n 20 "$LOG" >&2 || true; exit 1; }

log "ready in $(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo '?')s at $DSN"
emit
