#!/usr/bin/env bash
# Installs the pinned Directus (package.json / package-lock.json beside this
# script) into a cache directory outside the repository and reuses it when it
# is already complete. Idempotent. All messages go to stderr.
#
#   ERLEAH_DIRECTUS_HOME   install directory
#                          (default: $HOME/.cache/erleah/directus-12.4.0)
set -euo pipefail

DIRECTUS_VERSION=12.4.0
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DIRECTUS_HOME="${ERLEAH_DIRECTUS_HOME:-$HOME/.cache/erleah/directus-$DIRECTUS_VERSION}"

log() { echo "directus-install: $*" >&2; }

installed_ok() {
  [ -f "$DIRECTUS_HOME/node_modules/directus/package.json" ] || return 1
  # The lock file must be the one we ship, the version the pinned one, and
  # both native modules loadable.
  cmp -s "$SCRIPT_DIR/package-lock.json" "$DIRECTUS_HOME/package-lock.json" || return 1
  (cd "$DIRECTUS_HOME" &&
    node -e "require('sqlite3');require('isolated-vm');
      if (require('directus/package.json').version !== '$DIRECTUS_VERSION') process.exit(1)") \
    >/dev/null 2>&1
}

if installed_ok; then
  log "directus $DIRECTUS_VERSION already installed in $DIRECTUS_HOME"
  exit 0
fi

# Node.js itself (Debian's, when the machine has none) and the build
# dependencies for the native modules (sqlite3, isolated-vm).
missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
for pkg in libsqlite3-dev python3 make g++; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    log "installing build dependencies: ${missing[*]}"
    apt-get update >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
  else
    log "missing build dependencies (not root, not installing): ${missing[*]}"
  fi
fi

command -v node >/dev/null || { log "node is not installed"; exit 1; }
command -v npm >/dev/null || { log "npm is not installed"; exit 1; }

log "installing directus $DIRECTUS_VERSION into $DIRECTUS_HOME (takes a few minutes)"
mkdir -p "$DIRECTUS_HOME"
cp "$SCRIPT_DIR/package.json" "$SCRIPT_DIR/package-lock.json" "$DIRECTUS_HOME/"

# No prebuilt binaries can be downloaded here: node-gyp builds sqlite3 and
# isolated-vm against the local Node headers (/usr/include/node), and sqlite3
# links against Debian's libsqlite3.
start=$(date +%s)
(
  cd "$DIRECTUS_HOME"
  export npm_config_nodedir="${npm_config_nodedir:-/usr}"
  export npm_config_sqlite="${npm_config_sqlite:-/usr}"
  npm ci --no-audit --no-fund --loglevel=error >&2
)

if ! installed_ok; then
  log "install finished but sqlite3/isolated-vm/directus $DIRECTUS_VERSION do not load in $DIRECTUS_HOME"
  exit 1
fi
log "installed directus $DIRECTUS_VERSION in $(( $(date +%s) - start ))s"
