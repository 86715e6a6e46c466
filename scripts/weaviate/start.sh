#!/usr/bin/env bash
# Starts a fresh, throw-away Weaviate on loopback (persistence in a new temp
# dir, every port a free one) and prints shell `export` lines for it on
# stdout:
#
#   eval "$(scripts/weaviate/start.sh)"    # sets WEAVIATE_URL, WEAVIATE_GRPC_ADDR, WEAVIATE_PID, WEAVIATE_DIR
#   ...
#   scripts/weaviate/stop.sh
#
#   eval "$(scripts/weaviate/start.sh --nodes 3)"   # a 3-node cluster (Raft, gossip)
#
# With --nodes N it starts N nodes that form one cluster; WEAVIATE_URL is
# node1's, WEAVIATE_URLS lists every node's (WEAVIATE_GRPC_ADDR and
# WEAVIATE_GRPC_ADDRS the same for gRPC) and WEAVIATE_PID every pid
# (space-separated, node1 first). Builds Weaviate first if needed
# (install.sh). Everything else goes to stderr. Optional input:
# ERLEAH_WEAVIATE_HOME (install dir), WEAVIATE_START_TIMEOUT (seconds,
# default 90).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TIMEOUT="${WEAVIATE_START_TIMEOUT:-90}"   # seconds to wait for /v1/.well-known/ready

log() { echo "weaviate-start: $*" >&2; }
# node_ports N prints six distinct free loopback ports per node (HTTP, gRPC,
# gossip, data, Raft, Raft RPC), all held open until every one is chosen so
# none is handed out twice. A node of a loopback cluster finds another's
# Raft RPC port as its Raft port + 1, so those two are consecutive.
node_ports() {
  python3 -c '
import socket, sys
socks = []
def bind(port=0):
    s = socket.socket(); s.bind(("127.0.0.1", port)); socks.append(s)
    return s.getsockname()[1]
def pair():
    while True:
        p = bind()
        try:
            bind(p + 1)
            return [p, p + 1]
        except OSError:
            pass
out = []
for _ in range(int(sys.argv[1])):
    out += [bind() for _ in range(4)] + pair()
print(" ".join(map(str, out)))
for s in socks: s.close()' "$1"
}

weaviate_bin="$("$SCRIPT_DIR/install.sh")"   # built once; install.sh pins the version

nodes=1
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) nodes="${2:?--nodes needs a number}"; shift 2 ;;
    *) log "unknown argument $1 (usage: start.sh [--nodes N])"; exit 2 ;;
  esac
done
case "$nodes" in ''|*[!0-9]*|0) log "--nodes wants a positive number, not $nodes"; exit 2 ;; esac

dir="$(mktemp -d "${TMPDIR:-/tmp}/erleah-weaviate.XXXXXX")"
# Six ports per node: HTTP, gRPC, gossip, data, Raft, Raft RPC.
read -r -a ports <<<"$(node_ports "$nodes")"
port() { echo "${ports[$(( 6 * ($1 - 1) + $2 ))]}"; }   # port NODE INDEX
raft_join=""
for i in $(seq "$nodes"); do
  raft_join+="${raft_join:+,}node$i:$(port "$i" 4)"
done
pids=()

fail() {
  log "$*"
  for i in $(seq "$nodes"); do
    [ -f "$dir/node$i.log" ] || continue
    log "last lines of $dir/node$i.log:"
    tail -n 5 "$dir/node$i.log" >&2 || true
  done
  for pid in "${pids[@]}"; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  rm -rf -- "$dir"
  exit 1
}

# start_node I writes $dir/nodeI.start, which starts node I in the
# background with its data, ports and settings, writes its pid to
# $dir/nodeI.pid and prints it; then runs it and appends the pid to pids.
# A test that stopped a node of a cluster starts it again with that script.
start_node() {
  local i=$1 http grpc gossip data raft raft_rpc
  http=$(port "$i" 0) grpc=$(port "$i" 1) gossip=$(port "$i" 2)
  data=$(port "$i" 3) raft=$(port "$i" 4) raft_rpc=$(port "$i" 5)
  # Only the variables below reach Weaviate (env -i), so nothing from the
  # caller's environment (e.g. a QUERY_* or CLUSTER_* of its own) changes it.
  local weaviate_env=(
    PATH="$PATH" HOME="$HOME"
    PERSISTENCE_DATA_PATH="$dir/node$i"
    DEFAULT_VECTORIZER_MODULE=none ENABLE_MODULES=
    AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true
    DISABLE_TELEMETRY=true GO_PROFILING_DISABLE=true LOG_LEVEL=warning
    GRPC_PORT="$grpc"
    CLUSTER_HOSTNAME="node$i" CLUSTER_IN_LOCALHOST=true
    CLUSTER_BIND_ADDR=127.0.0.1 CLUSTER_ADVERTISE_ADDR=127.0.0.1 CLUSTER_ADVERTISE_PORT="$gossip"
    CLUSTER_GOSSIP_BIND_PORT="$gossip" CLUSTER_DATA_BIND_PORT="$data"
    RAFT_PORT="$raft" RAFT_INTERNAL_RPC_PORT="$raft_rpc"
    RAFT_JOIN="$raft_join" RAFT_BOOTSTRAP_EXPECT="$nodes"
  )
  # Gossip: each node joins whichever of the others answer, so a node
  # started again by its nodeI.start script rejoins the cluster; node1's
  # first start (--first) joins none, since none is up yet.
  local join="" j
  for j in $(seq "$nodes"); do
    if [ "$j" -ne "$i" ]; then join+="${join:+,}127.0.0.1:$(port "$j" 2)"; fi
  done
  mkdir -p "$dir/node$i"
  # setsid: own process group, so stop.sh can kill the server and its children.
  {
    echo '#!/usr/bin/env bash'
    echo "# Starts node$i of the Weaviate in $dir (written by start.sh)."
    printf 'join=(%q)\n' "${join:+CLUSTER_JOIN=$join}"
    echo 'if [ "${1:-}" = --first ] || [ -z "${join[0]}" ]; then join=(); fi'
    printf 'env -i'; printf ' %q' "${weaviate_env[@]}"; printf ' "${join[@]}"'
    printf ' setsid %q --host 127.0.0.1 --port %q --scheme http </dev/null >>%q 2>&1 &\n' "$weaviate_bin" "$http" "$dir/node$i.log"
    printf 'echo "$!" >%q\necho "$!"\n' "$dir/node$i.pid"
  } >"$dir/node$i.start"
  log "starting node$i on http://127.0.0.1:$http (grpc $grpc, gossip $gossip, data $data, raft $raft/$raft_rpc)"
  pids+=("$(bash "$dir/node$i.start" "$([ "$i" -eq 1 ] && echo --first)")")
}

# wait_listening PORT waits until something accepts connections on PORT.
wait_listening() {
  until (: </dev/tcp/127.0.0.1/"$1") 2>/dev/null; do
    kill -0 "${pids[0]}" 2>/dev/null || fail "node1 exited during startup"
    [ $(( $(date +%s) - start )) -lt "$TIMEOUT" ] || fail "nothing listens on port $1 after ${TIMEOUT}s"
    sleep 0.2
  done
}

start=$(date +%s)
start_node 1
# The other nodes join node1's gossip, so it must listen first.
if [ "$nodes" -gt 1 ]; then wait_listening "$(port 1 2)"; fi
for i in $(seq 2 "$nodes"); do start_node "$i"; done

urls=()
for i in $(seq "$nodes"); do
  url="http://127.0.0.1:$(port "$i" 0)"
  until curl -fsS --max-time 2 -o /dev/null "$url/v1/.well-known/ready" 2>/dev/null; do
    kill -0 "${pids[$((i - 1))]}" 2>/dev/null || fail "node$i exited during startup"
    [ $(( $(date +%s) - start )) -lt "$TIMEOUT" ] || fail "$url/v1/.well-known/ready not ready after ${TIMEOUT}s"
    sleep 0.3
  done
  urls+=("$url")
done
log "ready on ${urls[*]} after $(( $(date +%s) - start ))s (pids ${pids[*]}, dir $dir)"

printf 'export WEAVIATE_URL=%q\n' "${urls[0]}"
printf 'export WEAVIATE_URLS=%q\n' "${urls[*]}"
grpcs=()
for i in $(seq "$nodes"); do grpcs+=("127.0.0.1:$(port "$i" 1)"); done
printf 'export WEAVIATE_GRPC_ADDR=%q\n' "${grpcs[0]}"
printf 'export WEAVIATE_GRPC_ADDRS=%q\n' "${grpcs[*]}"
printf 'export WEAVIATE_PID=%q\n' "${pids[*]}"
printf 'export WEAVIATE_DIR=%q\n' "$dir"
