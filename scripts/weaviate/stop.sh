#!/usr/bin/env bash
# Stops a Weaviate started by start.sh (uses WEAVIATE_PID and WEAVIATE_DIR
# from its export lines) and removes its temp dir:
#
#   scripts/weaviate/stop.sh
set -euo pipefail

log() { echo "weaviate-stop: $*" >&2; }

stop_pid() {
  local pid=$1
  kill -0 "$pid" 2>/dev/null || return 0
  # start.sh runs each server as leader of its own process group.
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "pid $pid still running after 10s, sending KILL"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  log "stopped pid $pid"
}

# WEAVIATE_PID may list several pids (a cluster), separated by spaces.
for pid in ${WEAVIATE_PID:-}; do
  stop_pid "$pid"
done

# Only remove what start.sh created.
case "${WEAVIATE_DIR:-}" in
  */erleah-weaviate.*) rm -rf -- "$WEAVIATE_DIR"; log "removed $WEAVIATE_DIR" ;;
  "") ;;
  *) log "not removing WEAVIATE_DIR=$WEAVIATE_DIR (not made by start.sh)" ;;
esac
