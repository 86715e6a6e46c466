#!/usr/bin/env bash
# Starts a fresh, throw-away Directus (SQLite in a new temp dir, loopback only)
# and prints shell `export` lines for it on stdout:
#
#   eval "$(scripts/directus/start.sh)"    # sets DIRECTUS_URL, DIRECTUS_ADMIN_TOKEN,
#   ...                                    #      DIRECTUS_ADMIN_EMAIL, DIRECTUS_ADMIN_PASSWORD,
#   ...                                    #      DIRECTUS_PID, DIRECTUS_DIR
#   scripts/directus/stop.sh
#
# Installs Directus first if needed (install.sh). Everything else goes to stderr.
# Optional input: DIRECTUS_ADMIN_TOKEN (static admin token to use),
# DIRECTUS_ADMIN_EMAIL / DIRECTUS_ADMIN_PASSWORD (the Studio login; default
# admin@example.com and a random password, both printed),
# AGENT_WEBHOOK_URL / AGENT_WEBHOOK_SECRET (readable by Flows as $env.…),
# ERLEAH_DIRECTUS_HOME (install dir), DIRECTUS_START_TIMEOUT (seconds, default 90).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DIRECTUS_HOME="${ERLEAH_DIRECTUS_HOME:-$HOME/.cache/erleah/directus-12.4.0}"
export ERLEAH_DIRECTUS_HOME="$DIRECTUS_HOME"
TIMEOUT="${DIRECTUS_START_TIMEOUT:-90}"   # seconds to wait for /server/ping

log() { echo "directus-start: $*" >&2; }
random_hex() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

"$SCRIPT_DIR/install.sh"

dir="$(mktemp -d "${TMPDIR:-/tmp}/erleah-directus.XXXXXX")"
port="$(free_port)"
url="http://127.0.0.1:$port"
admin_token="${DIRECTUS_ADMIN_TOKEN:-$(random_hex 24)}"
admin_email="${DIRECTUS_ADMIN_EMAIL:-admin@example.com}"
admin_password="${DIRECTUS_ADMIN_PASSWORD:-$(random_hex 16)}"

# Only the variables below reach Directus (env -i), so nothing from the
# caller's environment (e.g. a DB_* or PORT of its own) changes it.
directus_env=(
  PATH="$PATH" HOME="$HOME"
  HOST=127.0.0.1 PORT="$port" PUBLIC_URL="$url"
  DB_CLIENT=sqlite3 DB_FILENAME="$dir/data.db"
  KEY="$(random_hex 16)" SECRET="$(random_hex 32)"
  ADMIN_EMAIL="$admin_email" ADMIN_PASSWORD="$admin_password" ADMIN_TOKEN="$admin_token"
  WEBSOCKETS_ENABLED=true TELEMETRY=false LOG_LEVEL=warn
  CORS_ENABLED=true CORS_ORIGIN=true
  IMPORT_IP_DENY_LIST=169.254.169.254
  FLOWS_ENV_ALLOW_LIST=AGENT_WEBHOOK_URL,AGENT_WEBHOOK_SECRET
  STORAGE_LOCAL_ROOT="$dir/uploads" EXTENSIONS_PATH="$dir/extensions"
)
[ -n "${AGENT_WEBHOOK_URL:-}" ] && directus_env+=(AGENT_WEBHOOK_URL="$AGENT_WEBHOOK_URL")
[ -n "${AGENT_WEBHOOK_SECRET:-}" ] && directus_env+=(AGENT_WEBHOOK_SECRET="$AGENT_WEBHOOK_SECRET")
mkdir -p "$dir/uploads" "$dir/extensions"

fail() {
  log "$*"
  log "last lines of $dir/directus.log:"
  tail -n 40 "$dir/directus.log" >&2 || true
  [ -n "${pid:-}" ] && kill -KILL -- "-$pid" 2>/dev/null || true
  rm -rf -- "$dir"
  exit 1
}

cd "$DIRECTUS_HOME"
run=node_modules/@directus/api/dist/cli/run.js
log "bootstrapping in $dir"
env -i "${directus_env[@]}" node "$run" bootstrap >"$dir/directus.log" 2>&1 \
  || fail "bootstrap failed"

log "starting on $url"
start=$(date +%s)
# setsid: own process group, so stop.sh can kill the server and its children.
env -i "${directus_env[@]}" setsid node "$run" start </dev/null >>"$dir/directus.log" 2>&1 &
pid=$!

until [ "$(curl -fsS --max-time 2 "$url/server/ping" 2>/dev/null)" = pong ]; do
  kill -0 "$pid" 2>/dev/null || fail "directus exited during startup"
  [ $(( $(date +%s) - start )) -lt "$TIMEOUT" ] || fail "no pong from $url/server/ping after ${TIMEOUT}s"
  sleep 0.3
done
log "ready on $url after $(( $(date +%s) - start ))s (pid $pid, dir $dir)"
log "Studio: $url/admin — log in as $admin_email with password $admin_password"

printf 'export DIRECTUS_URL=%q\n' "$url"
printf 'export DIRECTUS_ADMIN_TOKEN=%q\n' "$admin_token"
printf 'export DIRECTUS_ADMIN_EMAIL=%q\n' "$admin_email"
printf 'export DIRECTUS_ADMIN_PASSWORD=%q\n' "$admin_password"
printf 'export DIRECTUS_PID=%q\n' "$pid"
printf 'export DIRECTUS_DIR=%q\n' "$dir"
