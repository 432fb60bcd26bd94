#!/usr/bin/env bash
# Build a custom golangci-lint (default v2.15.0) with fencelint's module
# plugins (cmd/gclplugin) linked in, without GitHub: only the Go module proxy.
#
# Usage: bash .ci/gcl.sh OUTDIR        -> OUTDIR/custom-gcl
#
# This is the manual route of docs/golangci-lint.md ("golangci-lint custom"
# always git-clones github.com/golangci/golangci-lint): copy golangci-lint's
# module zip out of the module cache, declare the plugin in
# cmd/golangci-lint/plugins.go, replace github.com/fencelint/fencelint with
# this working tree, go build. It uses the caller's GOCACHE and GOMODCACHE,
# so a second run with the same OUTDIR only recompiles what changed
# (fencelint) and relinks.
#
# Env: GCL_VERSION (default v2.15.0), GCL_LDFLAGS (default "-s -w").
set -euo pipefail

out=${1:?usage: bash .ci/gcl.sh OUTDIR}
version=${GCL_VERSION:-v2.15.0}
ldflags=${GCL_LDFLAGS:--s -w}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)   # fencelint module root
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The source tree must sit at the same path on every run: without
# -trimpath the directory of golangci-lint's own ~180 packages is part of
# their build-cache keys, and a fresh mktemp path recompiles them all (about
# 1-2 minutes of CPU). So it lives in OUTDIR and is removed after the build.
work="$out/.gcl-src"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

t0=$(date +%s)
step() { # step NAME: print seconds since the previous step
	local now
	now=$(date +%s)
	printf 'gcl.sh: %-28s %4ds\n' "$1" "$((now - t0))" >&2
	t0=$now
}
start=$t0

# 1. golangci-lint's source, from the proxy (no git clone).
dir=$(go mod download -json "github.com/golangci/golangci-lint/v2@$version" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
	echo "gcl.sh: go mod download of golangci-lint $version gave no directory" >&2
	exit 1
fi
cp -r "$dir" "$work/gcl"
chmod -R u+w "$work/gcl"
step "download + copy"

# 2. Link the plugins in: v2's cmd/golangci-lint/plugins.go exists for this.
cd "$work/gcl"
cat >cmd/golangci-lint/plugins.go <<'GO'
package main

import (
	_ "github.com/fencelint/fencelint/cmd/gclplugin" // one module plugin per fencelint analyzer
)
GO
go mod edit \
	-require=github.com/fencelint/fencelint@v0.0.0 \
	-replace=github.com/fencelint/fencelint="$root"
# fencelint pins x/tools v0.52.0 and honnef.co/go/tools v0.8.2, the versions
# golangci-lint v2.15.0 requires, so no go mod tidy is needed. Should a
# requirement of fencelint ever be newer, go build stops with "updates to
# go.mod needed"; then run `go mod tidy` here.
go list -deps ./cmd/golangci-lint >/dev/null # module downloads
step "plugin + module downloads"

# 3. Build. main.version is only used when main.date is set too.
go build \
	-ldflags "$ldflags -X main.version=${version#v}-fencelint -X main.date=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
	-o "$out/custom-gcl" ./cmd/golangci-lint
step "go build"

"$out/custom-gcl" version >&2
printf 'gcl.sh: built %s in %ds\n' "$out/custom-gcl" "$(($(date +%s) - start))" >&2
