#!/usr/bin/env bash
# Stops a Weaviate started by start.sh (uses WEAVIATE_PID and WEAVIATE_DIR
# from its export lines) and removes its temp dir:
#
#   scripts/weaviate/stop.sh
set -euo pipefail

log() { echo "weaviate-stop: $*" >&2; }

# shellcheck source=../proc.sh
. "$(dirname "${BASH_SOURCE[0]}")/../proc.sh"   # stop_ours

# WEAVIATE_PID may list several pids (a cluster), separated by spaces.
for pid in ${WEAVIATE_PID:-}; do
  stop_ours "$pid" weaviate 'weaviate-server' 10
done

# Only remove what start.sh created.
case "${WEAVIATE_DIR:-}" in
  */erleah-weaviate.*) rm -rf -- "$WEAVIATE_DIR"; log "removed $WEAVIATE_DIR" ;;
  "") ;;
  *) log "not removing WEAVIATE_DIR=$WEAVIATE_DIR (not made by start.sh)" ;;
esac
