#!/usr/bin/env bash
# Builds the pinned Weaviate server from the Go module proxy into a cache
# directory outside the repository, once; later runs reuse the binary.
# Idempotent. Prints the binary's path on stdout (the one place the pinned
# version is written); all messages go to stderr.
#
#   ERLEAH_WEAVIATE_HOME   install directory (default:
#                          $HOME/.cache/erleah/weaviate-v1.35.2); the binary
#                          is $ERLEAH_WEAVIATE_HOME/weaviate-server
set -euo pipefail

WEAVIATE_VERSION=v1.35.2
WEAVIATE_HOME="${ERLEAH_WEAVIATE_HOME:-$HOME/.cache/erleah/weaviate-$WEAVIATE_VERSION}"
bin="$WEAVIATE_HOME/weaviate-server"

log() { echo "weaviate-install: $*" >&2; }

if [ -x "$bin" ]; then
  log "weaviate $WEAVIATE_VERSION already installed in $WEAVIATE_HOME"
  echo "$bin"
  exit 0
fi
command -v go >/dev/null || { log "go is not installed"; exit 1; }

log "building weaviate $WEAVIATE_VERSION into $WEAVIATE_HOME (about 3 minutes on 2 cores)"
start=$(date +%s)
mkdir -p "$WEAVIATE_HOME"
# Built outside any module (cd /) so this repository's go.mod plays no part;
# the binary lands under a temporary name and is moved in place whole, so an
# interrupted build never leaves a binary the check above would accept.
tmp="$(mktemp -d "$WEAVIATE_HOME/build.XXXXXX")"
trap 'rm -rf -- "$tmp"' EXIT
(cd / && GOBIN="$tmp" GOFLAGS=-mod=mod go install "github.com/weaviate/weaviate/cmd/weaviate-server@$WEAVIATE_VERSION") >&2
mv "$tmp/weaviate-server" "$bin"
log "installed weaviate $WEAVIATE_VERSION in $(( $(date +%s) - start ))s"
echo "$bin"
