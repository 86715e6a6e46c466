#!/usr/bin/env bash
# The whole test suite: formatting, vet, and every test with the race
# detector, against a real Directus 12.4.0 that this script installs (once,
# into ~/.cache), starts on loopback and stops again. README.md's test
# command; .ci/run calls it.
#
# With DIRECTUS_URL and DIRECTUS_ADMIN_TOKEN already set it uses that
# Directus instead of starting one (it must be a throw-away instance: the
# tests write demo data and a Flow into it).
set -euo pipefail
cd "$(dirname "$0")/.."

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [[ -n $unformatted ]]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
go vet ./...
if ! go mod tidy -diff >/dev/null; then
  echo "go.mod/go.sum are not tidy: run go mod tidy (go mod tidy -diff shows what changes)" >&2
  exit 1
fi

# The real programme the realconf evaluation sets are about lives beside
# the checkout (../shared, CC BY 4.0, not shipped). When it is there the
# evaluation tests must read it; when it is not they skip, and say so here.
realconf=../shared/data/realconf-dev/bundle.json
if [[ -f $realconf ]]; then
  export REALCONF_DATA=$PWD/$realconf
else
  echo "test.sh: $realconf not found: the realconf evaluation sets will be skipped" >&2
fi

# What this script starts, it stops on exit, last started first.
stops=()
stop_all() { for ((i = ${#stops[@]} - 1; i >= 0; i--)); do ${stops[i]} || true; done; }
trap stop_all EXIT

# Directus as production runs it: PostgreSQL (a fresh database per run) and
# two instances sharing it and Redis, so the end-to-end tests see realtime
# events across instances (DIRECTUS_DB=sqlite DIRECTUS_INSTANCES=1 for the
# lighter set-up; start.sh falls back to SQLite where PostgreSQL cannot run).
# Directus's pressure limiter would refuse requests on a loaded 2-core CI
# machine, which says nothing about the agent: it is off here.
if [[ -z ${DIRECTUS_URL:-} || -z ${DIRECTUS_ADMIN_TOKEN:-} ]]; then
  export PRESSURE_LIMITER_ENABLED=${PRESSURE_LIMITER_ENABLED:-false}
  eval "$(DIRECTUS_INSTANCES=${DIRECTUS_INSTANCES:-2} scripts/directus/start.sh)"
  stops+=(scripts/directus/stop.sh)
fi
export DIRECTUS_URL DIRECTUS_ADMIN_TOKEN DIRECTUS_URL_2

# A real Weaviate for search/weaviatesearch's conformance suite and the
# agent's SEARCH_BACKEND=weaviate test, built once into ~/.cache
# (scripts/weaviate/install.sh) and started on loopback; with WEAVIATE_URL
# already set it uses that (throw-away) instance instead.
if [[ -z ${WEAVIATE_URL:-} ]]; then
  eval "$(scripts/weaviate/start.sh)"
  stops+=(scripts/weaviate/stop.sh)
fi
export WEAVIATE_URL WEAVIATE_GRPC_ADDR

# Apertium and FreeDict's dictionaries, which read questions in Spanish,
# French, Portuguese, Italian, Catalan, German, Dutch, Danish and Swedish in
# English; their tests must not skip here.
scripts/translate/install.sh
export ERLEAH_REQUIRE_TRANSLATION=1

# The CLI's own setup against the instance first: the tests then find the
# schema in place (and setup is itself exercised on a fresh Directus).
DIRECTUS_TOKEN=$DIRECTUS_ADMIN_TOKEN WEBHOOK_SECRET=scripts-test-setup \
  go run ./cmd/erleah-agent directus setup --agent-email erleah-agent-setup@example.com >/dev/null

# The Directus client's own tests play the agent (they write replies), so
# they run before the end-to-end tests, whose agents answer every user
# message in the instance.
go test -race -count=1 -timeout 15m ./directus/
go test -race -count=1 -timeout 15m $(go list ./... | grep -v '/directus$')
# The chat widget in headless Chromium against the same Directus (which
# needs CORS_ENABLED=true for the widget's origin: start.sh sets it).
./scripts/browser-test.sh
./scripts/container-check.sh
# A 3-node Weaviate cluster: a node stopped and started again mid-way.
./scripts/weaviate/cluster-test.sh
