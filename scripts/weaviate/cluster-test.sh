#!/usr/bin/env bash
# The Weaviate cluster test: starts a 3-node cluster on loopback (start.sh
# --nodes 3), runs search/weaviatesearch's TestCluster against it (a
# collection replicated on all three nodes, two agent replicas sharing it,
# a node stopped mid-way and started again) and stops the cluster.
# scripts/test.sh runs it.
#
#   scripts/weaviate/cluster-test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

eval "$(scripts/weaviate/start.sh --nodes 3)"
trap scripts/weaviate/stop.sh EXIT
go test -race -count=1 -timeout 10m -run '^TestCluster$' -v ./search/weaviatesearch/ | grep -E '^(---|ok|FAIL|PASS)|cluster_test'
