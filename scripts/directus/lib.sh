# Helpers shared by start.sh and stop.sh (sourced, not run).

PG_VERSION=15
PG_CLUSTER=main
# Serialises "start the cluster, create a database" in start.sh against
# "drop a database, maybe stop the cluster" in stop.sh across concurrent runs.
PG_LOCK="${TMPDIR:-/tmp}/erleah-directus-pg.lock"

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

# pg_cluster_ctl start|stop: pg_ctlcluster on the cluster, as root or as
# `postgres`; its output goes to stderr.
pg_cluster_ctl() {
  if [ "$(id -u)" -eq 0 ]; then
    pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" "$1" >&2
  else
    as_postgres pg_ctlcluster "$PG_VERSION" "$PG_CLUSTER" "$1" >&2
  fi
}

# pg_psql ARGS…: psql as `postgres` over the cluster's Unix socket, database
# postgres, port $DIRECTUS_PG_PORT, stopping at the first error.
pg_psql() {
  (cd / && as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$DIRECTUS_PG_PORT" -d postgres "$@")
}

# shellcheck source=../proc.sh
. "$(dirname "${BASH_SOURCE[0]}")/../proc.sh"   # stop_group
