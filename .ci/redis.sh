#!/usr/bin/env bash
# Make sure redis-server is on PATH for the Redis proof
# (analyzer/internal/storeproof/redisproof): install Debian's package if
# missing. The test starts and kills its own servers (loopback, free
# ports, no persistence); this script starts none.
#
# Usage: bash .ci/redis.sh
#
# Needs root (or sudo) and a reachable Debian mirror; bookworm ships Redis
# 7.0. Idempotent: does nothing when redis-server is already installed.
set -euo pipefail

start=$(date +%s)
if command -v redis-server >/dev/null 2>&1; then
	echo "redis.sh: $(redis-server --version | cut -d' ' -f1-3) already installed at $(command -v redis-server)" >&2
	exit 0
fi

sudo=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || { echo "redis.sh: need root or sudo for apt-get" >&2; exit 1; }
	sudo=sudo
fi
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
command -v redis-server >/dev/null 2>&1 || { echo "redis.sh: redis-server missing after install" >&2; exit 1; }
echo "redis.sh: installed $(redis-server --version | cut -d' ' -f1-3) in $(($(date +%s) - start))s" >&2
