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

# shellcheck source=../proc.sh
. "$(dirname "${BASH_SOURCE[0]}")/../proc.sh"   # stop_group
