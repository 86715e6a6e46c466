#!/usr/bin/env bash
# The chat widget in a real browser: headless Chromium (Debian's package,
# installed when missing) driven by playwright-core (pinned in
# web/package-lock.json) against a real Directus and a real `serve`.
# scripts/test.sh calls it after the Go tests, with its Directus; on its own
# it starts (and stops) one. Prints the latency summary (JSON) on stdout.
#
# Uses DIRECTUS_URL and DIRECTUS_ADMIN_TOKEN (a throw-away instance: the
# test points the webhook Flow at its agent and creates users); optional
# CHROMIUM (default /usr/bin/chromium), SCREENSHOT, TIMING_QUESTIONS.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { echo "browser-test: $*" >&2; }
# shellcheck source=proc.sh
. scripts/proc.sh   # free_port, random_hex
work=$(mktemp -d "${TMPDIR:-/tmp}/erleah-browser.XXXXXX")
started_directus=
agent_pid=
cleanup() {
  if [[ -n $agent_pid ]]; then
    kill "$agent_pid" 2>/dev/null || true
    wait "$agent_pid" 2>/dev/null || true
  fi
  if [[ -n $started_directus ]]; then scripts/directus/stop.sh || true; fi
  rm -rf -- "$work"
}
trap cleanup EXIT

if [[ -z ${DIRECTUS_URL:-} || -z ${DIRECTUS_ADMIN_TOKEN:-} ]]; then
  eval "$(scripts/directus/start.sh)"
  started_directus=1
fi
export DIRECTUS_URL DIRECTUS_ADMIN_TOKEN

export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [[ ! -x $CHROMIUM ]]; then
  log "installing chromium from Debian's packages"
  sudo=; [[ $(id -u) -eq 0 ]] || sudo=sudo
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >&2
fi

# playwright-core and the widget's build tools, exactly as locked.
(cd web && npm ci --no-audit --no-fund --loglevel=error >&2)
# The committed bundle (embedded in the binary, so that Go builds need no
# npm) must be what the sources build to.
(cd web && npm run --silent build -- --outfile="$work/widget.js" >&2)
cmp -s web/dist/widget.js "$work/widget.js" \
  || { log "web/dist/widget.js is not what web/src builds to: run (cd web && npm ci && npm run build) and commit it"; exit 1; }

go build -o "$work/erleah-agent" ./cmd/erleah-agent
port=$(free_port)
secret="browser-$(random_hex 12)"

# directus setup points the Flow at this agent and gives the agent's user a
# fresh token (printed once); the demo conferences go in with import.
DIRECTUS_TOKEN=$DIRECTUS_ADMIN_TOKEN WEBHOOK_SECRET=$secret "$work/erleah-agent" directus setup \
  --webhook-url "http://127.0.0.1:$port/v1/webhooks/directus" --agent-email erleah-agent-browser@example.com \
  --rotate-token >"$work/setup.out"
agent_token=$(sed -n 's/.*set DIRECTUS_TOKEN=\([^ ]*\) for serve\.$/\1/p' "$work/setup.out")
[[ -n $agent_token ]] || { log "no agent token in directus setup's output:"; cat "$work/setup.out" >&2; exit 1; }
DIRECTUS_TOKEN=$DIRECTUS_ADMIN_TOKEN "$work/erleah-agent" directus import --data conference/demo/bundle.json >/dev/null

# MEMORY_ENABLED=false: a reflection lesson learnt earlier (by the Go tests
# or a previous run, kept in Directus) would spare the question its failed
# first search, and the test wants to see the thinking note that follows it.
env DIRECTUS_TOKEN="$agent_token" MEMORY_ENABLED=false WEBHOOK_SECRET="$secret" LISTEN_ADDR="127.0.0.1:$port" STATE_DIR="$work/state" \
  LOG_LEVEL=warn RATE_PER_USER=0 RATE_PER_IP=0 "$work/erleah-agent" serve 2>"$work/serve.log" &
agent_pid=$!
for _ in $(seq 1 150); do
  curl -fsS --max-time 1 "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
  kill -0 "$agent_pid" 2>/dev/null || { log "serve exited:"; cat "$work/serve.log" >&2; exit 1; }
  sleep 0.2
done
curl -fsS --max-time 2 "http://127.0.0.1:$port/readyz" >/dev/null || { log "serve not ready:"; cat "$work/serve.log" >&2; exit 1; }

if ! AGENT_URL="http://127.0.0.1:$port" node web/test/browser.mjs; then
  log "serve's log:"
  tail -n 60 "$work/serve.log" >&2
  exit 1
fi
