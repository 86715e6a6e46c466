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

# stop_ours PID NAME PATTERN [SECONDS]: stop_group, but only when PID's
# command line matches PATTERN, so that a stale PID the kernel has given to
# another process is left alone.
stop_ours() {
  local pid="$1" name="$2" pattern="$3"
  [ -n "$pid" ] || return 0
  if [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- "$pattern"; then
    stop_group "$pid" "$name" "${4:-5}"
  elif kill -0 "$pid" 2>/dev/null; then
    log "not stopping pid $pid: not $name"
  fi
}

# random_hex N: 2N random hex digits.
random_hex() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# free_port: a TCP port free on loopback now.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
