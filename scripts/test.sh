#!/usr/bin/env bash
# The whole test suite: formatting, vet, and every test with the race
# detector. README.md's test command; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [[ -n $unformatted ]]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi
go vet ./...
go test -race -count=1 ./...
./scripts/container-check.sh
