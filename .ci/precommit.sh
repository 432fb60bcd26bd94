#!/usr/bin/env bash
# Make sure pre-commit is on PATH for the pre-commit integration test
# (integration/precommit_test.go): install Debian's package if missing.
#
# Usage: bash .ci/precommit.sh
#
# Needs root (or sudo) and a reachable Debian mirror. Debian bookworm ships
# pre-commit 3.0.4 (nothing is fetched from PyPI); the package does not
# depend on git, which pre-commit needs, so git is installed too. The hook
# itself needs only
# Go and the Go module proxy (pre-commit runs `go install ./...` with the
# system Go; a language_version other than "system" would download a Go
# toolchain and fail offline).
set -euo pipefail

start=$(date +%s)
if command -v pre-commit >/dev/null 2>&1; then
	echo "precommit.sh: $(pre-commit --version) already installed at $(command -v pre-commit)" >&2
	exit 0
fi

sudo=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || { echo "precommit.sh: need root or sudo for apt-get" >&2; exit 1; }
	sudo=sudo
fi
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit git >/dev/null
for tool in pre-commit git; do
	command -v "$tool" >/dev/null 2>&1 || { echo "precommit.sh: $tool missing after install" >&2; exit 1; }
done
echo "precommit.sh: installed $(pre-commit --version) in $(($(date +%s) - start))s" >&2
