#!/usr/bin/env bash
# Stops a Directus started by start.sh (uses DIRECTUS_PID and DIRECTUS_DIR from
# its export lines) and removes its temp dir:
#
#   scripts/directus/stop.sh
set -euo pipefail

log() { echo "directus-stop: $*" >&2; }

if [ -n "${DIRECTUS_PID:-}" ] && kill -0 "$DIRECTUS_PID" 2>/dev/null; then
  # start.sh runs the server as leader of its own process group.
  kill -TERM -- "-$DIRECTUS_PID" 2>/dev/null || kill -TERM "$DIRECTUS_PID" 2>/dev/null || true
  for _ in $(seq 50); do
    kill -0 "$DIRECTUS_PID" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$DIRECTUS_PID" 2>/dev/null; then
    log "pid $DIRECTUS_PID still running after 5s, sending KILL"
    kill -KILL -- "-$DIRECTUS_PID" 2>/dev/null || kill -KILL "$DIRECTUS_PID" 2>/dev/null || true
  fi
  log "stopped pid $DIRECTUS_PID"
fi

# Only remove what start.sh created.
case "${DIRECTUS_DIR:-}" in
  */erleah-directus.*) rm -rf -- "$DIRECTUS_DIR"; log "removed $DIRECTUS_DIR" ;;
  "") ;;
  *) log "not removing DIRECTUS_DIR=$DIRECTUS_DIR (not made by start.sh)" ;;
esac
