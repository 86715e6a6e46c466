#!/usr/bin/env bash
# The Dockerfile's steps without Docker (no engine runs on these machines):
# build the static binary the image ships, check that it is static, run it
# as an unprivileged user with its health check, and stop it with SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags "-s -w -X main.version=ci" -o "$work/erleah-agent" ./cmd/erleah-agent
if command -v readelf >/dev/null && readelf -l "$work/erleah-agent" | grep -q INTERP; then
  echo "container-check: the binary is not static" >&2
  exit 1
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mkdir -p "$work/state"
run_as=()
if [[ $(id -u) == 0 ]]; then # as in the image: user 65532 (distroless nonroot)
  chown 65532:65532 "$work/state" && chmod 755 "$work" "$work/erleah-agent"
  run_as=(setpriv --reuid=65532 --regid=65532 --clear-groups)
fi
env -i LISTEN_ADDR="127.0.0.1:$port" STATE_DIR="$work/state" LOG_LEVEL=warn \
  "${run_as[@]}" "$work/erleah-agent" serve &
pid=$!
for _ in $(seq 1 100); do
  if "$work/erleah-agent" health --url "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
  sleep 0.1
done
"$work/erleah-agent" health --url "http://127.0.0.1:$port/readyz"
uid=$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")
[[ $(id -u) != 0 || $uid == 65532 ]] || { echo "container-check: running as uid $uid" >&2; exit 1; }
kill -TERM "$pid"
wait "$pid"

# The image's dictionaries: the static binary, as the image's user and
# with nothing on PATH (no Apertium), reads a German question in English.
scripts/translate/install.sh
reading=$(env -i STATE_DIR="$work/state" DICT_DIR=/usr/share/dictd "${run_as[@]}" "$work/erleah-agent" ask --json \
  "Gibt es Vorträge über Datenschutz?" | python3 -c 'import json,sys; print(json.load(sys.stdin)["trace"].get("reading",""))')
[[ $reading == *"data protection"* ]] || { echo "container-check: German read as \"$reading\"" >&2; exit 1; }
echo "container-check: static binary served as uid $uid, healthy, stopped cleanly; read German as \"$reading\""
