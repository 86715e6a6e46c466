#!/usr/bin/env bash
# Starts a fresh, throw-away Directus 12.4.0 (loopback only) and prints shell
# `export` lines for it on stdout:
#
#   eval "$(scripts/directus/start.sh)"    # sets DIRECTUS_URL, DIRECTUS_ADMIN_TOKEN,
#   ...                                    #      DIRECTUS_ADMIN_EMAIL, DIRECTUS_ADMIN_PASSWORD,
#   ...                                    #      DIRECTUS_PID, DIRECTUS_DIR, DIRECTUS_DB, …
#   scripts/directus/stop.sh
#
# DIRECTUS_DB=postgres|sqlite   the database (default: postgres when the
#     machine's PostgreSQL 15 can be used — it is installed, or we are root and
#     can install it, and we can act as its `postgres` user (root, or
#     passwordless sudo) — else sqlite, with a note on stderr).
#     postgres: starts the cluster 15/main if it is down (installing Debian's
#     `postgresql` first when missing and root), creates a fresh role and
#     database with random names (password auth over 127.0.0.1); stop.sh drops
#     them. sqlite: data.db in the temp dir.
# DIRECTUS_INSTANCES=1|2   2 (postgres only): also starts a redis-server on a
#     free loopback port (Debian's, installed when missing and root) and a
#     second Directus on the same database, both with REDIS,
#     SYNCHRONIZATION_STORE, CACHE_STORE and RATE_LIMITER_STORE on Redis, so
#     realtime subscribers of one instance see writes made through the other.
#     Only instance 1 bootstraps; instance 2 starts once instance 1 answers.
#
# Installs Directus first if needed (install.sh). Everything else goes to stderr.
# Optional input: DIRECTUS_ADMIN_TOKEN (static admin token to use),
# DIRECTUS_ADMIN_EMAIL / DIRECTUS_ADMIN_PASSWORD (the Studio login; default
# admin@example.com and a random password, both printed),
# AGENT_WEBHOOK_URL / AGENT_WEBHOOK_SECRET (readable by Flows as $env.…),
# PRESSURE_LIMITER_ENABLED (passed through; Directus's default is true),
# ERLEAH_DIRECTUS_HOME (install dir), DIRECTUS_START_TIMEOUT (seconds, default 90).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DIRECTUS_HOME="${ERLEAH_DIRECTUS_HOME:-$HOME/.cache/erleah/directus-12.4.0}"
export ERLEAH_DIRECTUS_HOME="$DIRECTUS_HOME"
TIMEOUT="${DIRECTUS_START_TIMEOUT:-90}"   # seconds to wait for /server/ping

# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"
log() { echo "directus-start: $*" >&2; }

instances="${DIRECTUS_INSTANCES:-1}"
case "$instances" in
  1|2) ;;
  *) log "DIRECTUS_INSTANCES must be 1 or 2 (got '$instances')"; exit 1 ;;
esac

# pg_usable: PostgreSQL $PG_VERSION is installed or installable, and we can
# run commands as its superuser.
pg_usable() {
  pg_admin_possible || return 1
  [ -x "/usr/lib/postgresql/$PG_VERSION/bin/postgres" ] || [ "$(id -u)" -eq 0 ]
}

db="${DIRECTUS_DB:-}"
case "$db" in
  postgres|pg|postgresql) db=postgres ;;
  sqlite|sqlite3) db=sqlite ;;
  "")
    if pg_usable; then
      db=postgres
    else
      db=sqlite
      log "note: PostgreSQL $PG_VERSION cannot be used here (not installed and not root, or no way to act as its postgres user): using SQLite; set DIRECTUS_DB=postgres to insist"
    fi ;;
  *) log "DIRECTUS_DB must be postgres or sqlite (got '$db')"; exit 1 ;;
esac
if [ "$instances" = 2 ] && [ "$db" != postgres ]; then
  if [ -n "${DIRECTUS_DB:-}" ]; then
    log "DIRECTUS_INSTANCES=2 needs DIRECTUS_DB=postgres (two servers on one SQLite file fail with SQLITE_BUSY)"
    exit 1
  fi
  log "note: SQLite was chosen for want of PostgreSQL, so one instance instead of two"
  instances=1
fi

"$SCRIPT_DIR/install.sh"

dir="$(mktemp -d "${TMPDIR:-/tmp}/erleah-directus.XXXXXX")"
chmod 755 "$dir"
port="$(free_port)"
url="http://127.0.0.1:$port"
admin_token="${DIRECTUS_ADMIN_TOKEN:-$(random_hex 24)}"
admin_email="${DIRECTUS_ADMIN_EMAIL:-admin@example.com}"
admin_password="${DIRECTUS_ADMIN_PASSWORD:-$(random_hex 16)}"

# What stop.sh needs to undo this run; exported so that fail() can call it.
export DIRECTUS_DIR="$dir" DIRECTUS_PID="" DIRECTUS_PID_2="" REDIS_PID=""
export DIRECTUS_PG_DATABASE="" DIRECTUS_PG_PORT="" DIRECTUS_PG_STARTED_CLUSTER=""

fail() {
  log "$*"
  exec 9>&-   # release the PostgreSQL lock: stop.sh takes it
  local f
  for f in "$dir"/directus.log "$dir"/directus-2.log "$dir"/redis.log; do
    [ -s "$f" ] || continue
    log "last lines of $f:"
    tail -n 40 "$f" >&2 || true
  done
  "$SCRIPT_DIR/stop.sh" || true
  exit 1
}
trap 'fail "interrupted"' INT TERM

# --- PostgreSQL ---------------------------------------------------------------
pg_ensure_cluster() {
  if [ ! -x "/usr/lib/postgresql/$PG_VERSION/bin/postgres" ]; then
    [ "$(id -u)" -eq 0 ] || fail "PostgreSQL $PG_VERSION is not installed and we are not root: install Debian's postgresql, or use DIRECTUS_DB=sqlite"
    log "installing Debian's postgresql"
    apt-get update >&2 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2 9>&- \
      || fail "apt-get install postgresql failed"
    [ -x "/usr/lib/postgresql/$PG_VERSION/bin/postgres" ] \
      || fail "apt-get installed a PostgreSQL other than $PG_VERSION (see pg_lsclusters)"
  fi
  if ! pg_lsclusters -h 2>/dev/null | awk -v v="$PG_VERSION" -v c="$PG_CLUSTER" '$1==v && $2==c {f=1} END {exit !f}'; then
    [ "$(id -u)" -eq 0 ] || fail "no PostgreSQL cluster $PG_VERSION/$PG_CLUSTER and we are not root to create it"
    log "creating PostgreSQL cluster $PG_VERSION/$PG_CLUSTER"
    pg_createcluster "$PG_VERSION" "$PG_CLUSTER" >&2 9>&- || fail "pg_createcluster failed"
  fi
  local status
  status="$(pg_lsclusters -h | awk -v v="$PG_VERSION" -v c="$PG_CLUSTER" '$1==v && $2==c {print $4}')"
  if [ "$status" != online ]; then
    log "starting PostgreSQL cluster $PG_VERSION/$PG_CLUSTER (pg_ctlcluster $PG_VERSION $PG_CLUSTER start)"
    # 9>&-: the server must not inherit the lock's descriptor (it would
    # hold the lock for as long as it runs).
    pg_cluster_ctl start 9>&- || fail "pg_ctlcluster $PG_VERSION $PG_CLUSTER start failed (see /var/log/postgresql/)"
    DIRECTUS_PG_STARTED_CLUSTER=1
  fi
  DIRECTUS_PG_PORT="$(pg_lsclusters -h | awk -v v="$PG_VERSION" -v c="$PG_CLUSTER" '$1==v && $2==c {print $3}')"
  local i
  for i in $(seq 50); do
    pg_psql -tAc 'select 1' >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  fail "PostgreSQL $PG_VERSION/$PG_CLUSTER does not accept connections on port $DIRECTUS_PG_PORT"
}

if [ "$db" = postgres ]; then
  pg_admin_possible || fail "DIRECTUS_DB=postgres needs root or passwordless 'sudo -u postgres' to create a database"
  pg_name="erleah_$(random_hex 6)"   # role and database
  pg_password="$(random_hex 16)"
  exec 9>"$PG_LOCK"
  flock -w 120 9 || fail "could not lock $PG_LOCK"
  pg_ensure_cluster
  DIRECTUS_PG_DATABASE="$pg_name"   # from here on stop.sh drops it (IF EXISTS)
  # On stdin, so the password does not show in ps.
  pg_psql >/dev/null <<<"CREATE ROLE $pg_name LOGIN PASSWORD '$pg_password'" \
    || fail "could not create role $pg_name"
  pg_psql -c "CREATE DATABASE $pg_name OWNER $pg_name" >/dev/null \
    || fail "could not create database $pg_name"
  exec 9>&-
  log "PostgreSQL $PG_VERSION: fresh database and role $pg_name on 127.0.0.1:$DIRECTUS_PG_PORT"
  # Directus's knex uses the `pg` driver, a dependency of @directus/api
  # (pinned by package-lock.json): check it loads rather than install it.
  (cd "$DIRECTUS_HOME" && node -e "require('pg')" 2>/dev/null) \
    || (cd "$DIRECTUS_HOME/node_modules/@directus/api" && node -e "require('pg')" 2>/dev/null) \
    || fail "the pg driver does not load in $DIRECTUS_HOME (rerun scripts/directus/install.sh)"
  db_env=(DB_CLIENT=pg DB_HOST=127.0.0.1 DB_PORT="$DIRECTUS_PG_PORT" DB_DATABASE="$pg_name"
    DB_USER="$pg_name" DB_PASSWORD="$pg_password")
  pg_url="postgres://$pg_name:$pg_password@127.0.0.1:$DIRECTUS_PG_PORT/$pg_name"
else
  db_env=(DB_CLIENT=sqlite3 DB_FILENAME="$dir/data.db")
fi

# --- Redis (two instances) ----------------------------------------------------
redis_env=()
if [ "$instances" = 2 ]; then
  if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
    [ "$(id -u)" -eq 0 ] || fail "redis-server is not installed and we are not root: install Debian's redis-server"
    log "installing Debian's redis-server"
    apt-get update >&2 || true
    # policy-rc.d or no systemd: the package's own service does not start in
    # a container; we run our own server below either way.
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server >&2 \
      || fail "apt-get install redis-server failed"
  fi
  redis_port="$(free_port)"
  redis_password="$(random_hex 16)"
  mkdir -p "$dir/redis"
  # A config file keeps the password off the command line (ps).
  cat >"$dir/redis/redis.conf" <<EOF
bind 127.0.0.1
port $redis_port
protected-mode yes
requirepass $redis_password
dir $dir/redis
save ""
appendonly no
daemonize no
logfile $dir/redis.log
EOF
  chmod 600 "$dir/redis/redis.conf"
  setsid redis-server "$dir/redis/redis.conf" </dev/null >/dev/null 2>&1 &
  REDIS_PID=$!
  for i in $(seq 50); do
    [ "$(REDISCLI_AUTH="$redis_password" redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null)" = PONG ] && break
    kill -0 "$REDIS_PID" 2>/dev/null || fail "redis-server exited during startup"
    [ "$i" -lt 50 ] || fail "redis-server on 127.0.0.1:$redis_port does not answer PING"
    sleep 0.1
  done
  redis_url="redis://:$redis_password@127.0.0.1:$redis_port"
  log "redis-server on 127.0.0.1:$redis_port (pid $REDIS_PID)"
  # Directus 12: REDIS (or REDIS_HOST…) turns on the Redis message bus
  # (realtime events, flow reloads, schema-cache purges) and Redis locks;
  # the stores below share the rest.
  redis_env=(REDIS_ENABLED=true REDIS="$redis_url"
    SYNCHRONIZATION_STORE=redis CACHE_STORE=redis RATE_LIMITER_STORE=redis)
fi

# Only the variables below reach Directus (env -i), so nothing from the
# caller's environment (e.g. a DB_* or PORT of its own) changes it.
directus_env=(
  PATH="$PATH" HOME="$HOME"
  HOST=127.0.0.1
  "${db_env[@]}"
  KEY="$(random_hex 16)" SECRET="$(random_hex 32)"
  ADMIN_EMAIL="$admin_email" ADMIN_PASSWORD="$admin_password" ADMIN_TOKEN="$admin_token"
  WEBSOCKETS_ENABLED=true TELEMETRY=false LOG_LEVEL=warn
  CORS_ENABLED=true CORS_ORIGIN=true
  IMPORT_IP_DENY_LIST=169.254.169.254
  FLOWS_ENV_ALLOW_LIST=AGENT_WEBHOOK_URL,AGENT_WEBHOOK_SECRET
  STORAGE_LOCAL_ROOT="$dir/uploads" EXTENSIONS_PATH="$dir/extensions"
  "${redis_env[@]}"
)
[ -n "${AGENT_WEBHOOK_URL:-}" ] && directus_env+=(AGENT_WEBHOOK_URL="$AGENT_WEBHOOK_URL")
[ -n "${AGENT_WEBHOOK_SECRET:-}" ] && directus_env+=(AGENT_WEBHOOK_SECRET="$AGENT_WEBHOOK_SECRET")
# Directus's own default (on) unless the caller says otherwise: on a loaded
# machine its event-loop check answers 503 "Under pressure".
[ -n "${PRESSURE_LIMITER_ENABLED:-}" ] && directus_env+=(PRESSURE_LIMITER_ENABLED="$PRESSURE_LIMITER_ENABLED")
mkdir -p "$dir/uploads" "$dir/extensions"

cd "$DIRECTUS_HOME"
run=node_modules/@directus/api/dist/cli/run.js

# start_instance PORT LOG: starts `run.js start` in its own process group
# (setsid: stop.sh kills the server and its children) and sets $started_pid.
start_instance() {
  local p="$1" logf="$2"
  env -i "${directus_env[@]}" PORT="$p" PUBLIC_URL="http://127.0.0.1:$p" \
    setsid node "$run" start </dev/null >>"$logf" 2>&1 &
  started_pid=$!
}

# wait_ready URL PID NAME
wait_ready() {
  local u="$1" p="$2" name="$3" t0
  t0=$(date +%s)
  until [ "$(curl -fsS --max-time 2 "$u/server/ping" 2>/dev/null)" = pong ]; do
    kill -0 "$p" 2>/dev/null || fail "$name exited during startup"
    [ $(( $(date +%s) - t0 )) -lt "$TIMEOUT" ] || fail "no pong from $u/server/ping after ${TIMEOUT}s"
    sleep 0.3
  done
  log "$name ready on $u after $(( $(date +%s) - t0 ))s (pid $p)"
}

log "bootstrapping ($db) in $dir"
env -i "${directus_env[@]}" PORT="$port" PUBLIC_URL="$url" node "$run" bootstrap >"$dir/directus.log" 2>&1 \
  || fail "bootstrap failed"

log "starting on $url"
start_instance "$port" "$dir/directus.log"
DIRECTUS_PID=$started_pid
wait_ready "$url" "$DIRECTUS_PID" "directus"

if [ "$instances" = 2 ]; then
  port2="$(free_port)"
  url2="http://127.0.0.1:$port2"
  log "starting instance 2 on $url2 (same database, Redis)"
  start_instance "$port2" "$dir/directus-2.log"
  DIRECTUS_PID_2=$started_pid
  wait_ready "$url2" "$DIRECTUS_PID_2" "directus instance 2"
fi
trap - INT TERM
log "dir $dir; Studio: $url/admin — log in as $admin_email with password $admin_password"

printf 'export DIRECTUS_URL=%q\n' "$url"
printf 'export DIRECTUS_ADMIN_TOKEN=%q\n' "$admin_token"
printf 'export DIRECTUS_ADMIN_EMAIL=%q\n' "$admin_email"
printf 'export DIRECTUS_ADMIN_PASSWORD=%q\n' "$admin_password"
printf 'export DIRECTUS_PID=%q\n' "$DIRECTUS_PID"
printf 'export DIRECTUS_DIR=%q\n' "$dir"
printf 'export DIRECTUS_DB=%q\n' "$db"
if [ "$db" = postgres ]; then
  printf 'export DIRECTUS_PG_DATABASE=%q\n' "$DIRECTUS_PG_DATABASE"
  printf 'export DIRECTUS_PG_PORT=%q\n' "$DIRECTUS_PG_PORT"
  printf 'export DIRECTUS_PG_URL=%q\n' "$pg_url"
  printf 'export DIRECTUS_PG_STARTED_CLUSTER=%q\n' "$DIRECTUS_PG_STARTED_CLUSTER"
else
  echo 'unset DIRECTUS_PG_DATABASE DIRECTUS_PG_PORT DIRECTUS_PG_URL DIRECTUS_PG_STARTED_CLUSTER'
fi
if [ "$instances" = 2 ]; then
  printf 'export DIRECTUS_URL_2=%q\n' "$url2"
  printf 'export DIRECTUS_PID_2=%q\n' "$DIRECTUS_PID_2"
  printf 'export REDIS_URL=%q\n' "$redis_url"
  printf 'export REDIS_PID=%q\n' "$REDIS_PID"
else
  # Stale values from an earlier run in the same shell would point tests
  # (and stop.sh) at servers that are gone, or at other processes.
  echo 'unset DIRECTUS_URL_2 DIRECTUS_PID_2 REDIS_URL REDIS_PID'
fi
