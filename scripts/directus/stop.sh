#!/usr/bin/env bash
# Stops what start.sh started, using the variables of its export lines:
# the Directus servers (DIRECTUS_PID_2, DIRECTUS_PID), redis-server
# (REDIS_PID), drops the run's PostgreSQL database and role
# (DIRECTUS_PG_DATABASE, DIRECTUS_PG_PORT), stops the PostgreSQL cluster when
# this run started it and no other run's database or client is left
# (DIRECTUS_PG_STARTED_CLUSTER), and removes the temp dir (DIRECTUS_DIR):
#
#   scripts/directus/stop.sh
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lib.sh
. "$SCRIPT_DIR/lib.sh"
log() { echo "directus-stop: $*" >&2; }

for var in DIRECTUS_PID_2 DIRECTUS_PID; do
  stop_ours "${!var:-}" "directus ($var)" 'cli/run.js'
done
stop_ours "${REDIS_PID:-}" redis-server 'redis-server'

pg_db="${DIRECTUS_PG_DATABASE:-}"
if [ -n "$pg_db" ] && [ -n "${DIRECTUS_PG_PORT:-}" ]; then
  if [[ ! $pg_db =~ ^erleah_[0-9a-f]{12}$ ]]; then
    log "not dropping DIRECTUS_PG_DATABASE=$pg_db (not made by start.sh)"
  else
    exec 9>"$PG_LOCK"
    flock -w 120 9 || log "could not lock $PG_LOCK; going on without it"
    if pg_psql -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" -c "DROP ROLE IF EXISTS $pg_db" >/dev/null; then
      log "dropped PostgreSQL database and role $pg_db"
    else
      log "could not drop PostgreSQL database/role $pg_db"
    fi
    if [ "${DIRECTUS_PG_STARTED_CLUSTER:-}" = 1 ]; then
      # Other runs' databases, or anyone else connected: leave it running.
      others="$(pg_psql -tA -c "SELECT (SELECT count(*) FROM pg_database WHERE datname LIKE 'erleah\_%')
        + (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid())" 2>/dev/null || echo 1)"
      if [ "$others" = 0 ]; then
        pg_cluster_ctl stop || true
        log "stopped PostgreSQL cluster $PG_VERSION/$PG_CLUSTER (start.sh had started it)"
      else
        log "leaving PostgreSQL cluster $PG_VERSION/$PG_CLUSTER running: other databases or clients use it"
      fi
    fi
    exec 9>&-
  fi
fi

# Only remove what start.sh created.
case "${DIRECTUS_DIR:-}" in
  */erleah-directus.*) rm -rf -- "$DIRECTUS_DIR"; log "removed $DIRECTUS_DIR" ;;
  "") ;;
  *) log "not removing DIRECTUS_DIR=$DIRECTUS_DIR (not made by start.sh)" ;;
esac
