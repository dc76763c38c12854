#!/usr/bin/env bash
# Soak test (`make soak`, not part of `make test`): runs `gozie server` (SQLite) on the
# local cluster (`gozie minicluster`, a process of its own) under a steady load of workflows (fs actions, and one in
# SOAK_SHELL_EVERY a shell action in a YARN container) submitted
# through the REST API, samples the server every SOAK_INTERVAL, and fails when its
# memory, goroutines, open files or backlog of running workflows grow without bound
# (the rule is scripts/soakload's series.grows: the last third's maximum above the
# first third's by more than 20% and more than a floor).
#
#   SOAK_DURATION  how long the load runs (default 1h)
#   SOAK_INTERVAL  time between samples (default 1m)
#   SOAK_RATE      workflows submitted a second (default 50)
#   SOAK_IN_FLIGHT most submissions awaiting their answer at once (default 32)
#   SOAK_SHELL_EVERY one workflow in this many runs a shell action in a YARN
#                  container, the others an fs action (default 10)
#   SOAK_OUT       directory of the series and the server's log (default bench-results)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${SOAK_OUT:-bench-results}
mkdir -p "$out"
work=$(mktemp -d)
server_pid=""
cluster_pid=""
cleanup() {
  for pid in $server_pid $cluster_pid; do
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$work"
}
trap cleanup EXIT

echo "soak: building gozie"
CGO_ENABLED=0 go build -o "$work/gozie" ./cmd/gozie
go build -o "$work/soakload" ./scripts/soakload

mkdir -p "$work/cluster" "$work/data" "$work/config"
# The local cluster runs as a process of its own, as a real cluster does, so that
# the series measure the server alone (MiniDFS keeps its namespace in memory, and
# every workflow leaves files in it).
cluster_log=$out/soak-cluster.log
"$work/gozie" minicluster -data-dir "$work/cluster" 2>"$cluster_log" &
cluster_pid=$!
for _ in $(seq 1 600); do
  grep -q 'local cluster started' "$cluster_log" && break
  if ! kill -0 "$cluster_pid" 2>/dev/null; then
    echo "soak: the local cluster exited:" >&2; cat "$cluster_log" >&2; exit 1
  fi
  sleep 0.1 # waiting for the cluster's start line
done
grep -q 'local cluster started' "$cluster_log" || { echo "soak: the local cluster did not start within a minute" >&2; exit 1; }

log=$out/soak-server.log
# start_server starts the server on a free port; a port another process takes between
# its choice and the server's bind is chosen again.
start_server() {
  addr=$("$work/soakload" -free-addr)
  "$work/gozie" server -data-dir "$work/data" -config-dir "$work/config" -addr "$addr" \
    -hadoop.conf.dir "$work/cluster/hadoop-conf" 2>"$log" &
  server_pid=$!
  for _ in $(seq 1 600); do
    grep -q 'gozie server started' "$log" && return 0
    if ! kill -0 "$server_pid" 2>/dev/null; then
      wait "$server_pid" 2>/dev/null || true
      server_pid=""
      grep -q 'address already in use' "$log" && return 1
      echo "soak: the server exited:" >&2; cat "$log" >&2; exit 1
    fi
    sleep 0.1 # waiting for the server's start line
  done
  echo "soak: the server did not start within a minute:" >&2; tail -n 50 "$log" >&2; exit 1
}
for attempt in 1 2 3 4 5; do
  start_server && break
  [ "$attempt" = 5 ] && { echo "soak: no free port after 5 attempts" >&2; exit 1; }
done

echo "soak: server $server_pid at $addr; $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "soak: ${SOAK_RATE:-50} workflows/s for ${SOAK_DURATION:-1h}, a sample every ${SOAK_INTERVAL:-1m}"
status=0
"$work/soakload" -url "http://$addr/oozie" -pid "$server_pid" -cluster-dir "$work/cluster" -data-dir "$work/data" \
  -rate "${SOAK_RATE:-50}" -in-flight "${SOAK_IN_FLIGHT:-32}" -shell-every "${SOAK_SHELL_EVERY:-10}" \
  -duration "${SOAK_DURATION:-1h}" -interval "${SOAK_INTERVAL:-1m}" -out "$out/soak.tsv" || status=$?
echo "soak: load average after: $(cut -d' ' -f1-3 /proc/loadavg); series in $out/soak.tsv, server log in $log"
exit $status
