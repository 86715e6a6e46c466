# Helpers shared by start.sh and stop.sh (sourced, not run).

# as_postgres CMD…: runs CMD as PostgreSQL's superuser `postgres` (root:
# runuser; otherwise passwordless sudo).
as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    sudo -n -u postgres -- "$@"
  fi
}

# pg_admin_possible: whether as_postgres can work here.
pg_admin_possible() {
  if [ "$(id -u)" -eq 0 ]; then
    command -v runuser >/dev/null
  else
    command -v sudo >/dev/null && sudo -n -u postgres true 2>/dev/null
  fi
}

# pg_psql ARGS…: psql as `postgres` over the cluster's Unix socket, database
# postgres, port $DIRECTUS_PG_PORT, stopping at the first error.
pg_psql() {
  (cd / && as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$DIRECTUS_PG_PORT" -d postgres "$@")
}

# stop_group PID NAME: TERM to the process group PID leads (start.sh starts
# servers with setsid), KILL after 5 s.
stop_group() {
  local pid="$1" name="$2"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name (pid $pid) still running after 5s, sending KILL"
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  log "stopped $name (pid $pid)"
}
