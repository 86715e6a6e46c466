#!/usr/bin/env bash
# Stops a Weaviate started by start.sh (uses WEAVIATE_PID and WEAVIATE_DIR
# from its export lines) and removes its temp dir:
#
#   scripts/weaviate/stop.sh
set -euo pipefail

log() { echo "weaviate-stop: $*" >&2; }

# shellcheck source=../proc.sh
. "$(dirname "${BASH_SOURCE[0]}")/../proc.sh"   # stop_ours

# WEAVIATE_PID may list several pids (a cluster), separated by spaces; a
# node started again by its nodeI.start script has its pid in nodeI.pid.
pids="${WEAVIATE_PID:-}"
case "${WEAVIATE_DIR:-}" in
  */erleah-weaviate.*) pids+=" $(cat "$WEAVIATE_DIR"/node*.pid 2>/dev/null | tr '\n' ' ')" ;;
esac
for pid in $(printf '%s\n' $pids | sort -u); do
  stop_ours "$pid" weaviate 'weaviate-server' 10
done

# Only remove what start.sh created.
case "${WEAVIATE_DIR:-}" in
  */erleah-weaviate.*) rm -rf -- "$WEAVIATE_DIR"; log "removed $WEAVIATE_DIR" ;;
  "") ;;
  *) log "not removing WEAVIATE_DIR=$WEAVIATE_DIR (not made by start.sh)" ;;
esac
