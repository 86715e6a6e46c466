# Shared by the scripts that start and stop servers; sourced, not run.
# The caller defines log().

# stop_group PID NAME [SECONDS]: TERM to the process group PID leads (the
# start scripts run each server with setsid), KILL after SECONDS (default 5).
stop_group() {
  local pid="$1" name="$2" secs="${3:-5}"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq $((secs * 10))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name (pid $pid) still running after ${secs}s, sending KILL"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  log "stopped $name (pid $pid)"
}
