#!/usr/bin/env bash
# Runs gozie's benchmarks and prints their figures with a description of the
# machine, for BENCHMARKS.md. Expects GOZIE_TEST_POSTGRES (and GOZIE_TEST_PGBIN
# for the pgbench ceiling), as `make bench` sets them.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_OUT:-bench-results}
mkdir -p "$out"
: > "$out/go-bench.txt"
benchtime=${BENCHTIME:-3s}

echo "## Machine"
echo "- $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "- memory: $(free -g | awk '/Mem:/{print $2}') GiB; $(go version | cut -d' ' -f3); PostgreSQL $("${GOZIE_TEST_PGBIN:-/usr/lib/postgresql/15/bin}/postgres" --version | awk '{print $3}') (fsync off, loopback)"
echo "- load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

echo "## Go benchmarks"
# package, benchmark pattern, benchtime
benches=(
  "./store/sqlite/ . $benchtime"
  "./store/postgres/ . $benchtime"
  "./coordinator/ . $benchtime"
  "./coordinator/coordrun/ Materialize 1x"
  "./coordinator/coordrun/ InputChecks 1x"
  "./coordinator/coordrun/ DoneFlagToLaunch 1x"
  "./e2e/ WorkflowStarts 1000x"
  "./e2e/ CallbackToNextLaunch 50x"
  "./e2e/ PollOnlyToNextLaunch 10x"
  "./actions/hive2/ Hive2 $benchtime"
  "./sla/ DeadlineToMiss 300x"
  "./server/slaapi/ SLAList 200x"
  "./server/jobs/jobsbench/ REST 3000x"
)
for b in "${benches[@]}"; do
  set -- $b
  go test -run '^$' -bench "$2" -benchtime "$3" -benchmem -timeout 30m "$1" 2>&1 \
    | tee -a "$out/go-bench.txt" | grep -E '^(Benchmark|ok|FAIL|---)'
done
echo

if [ -n "${GOZIE_TEST_PGBIN:-}" ] && [ -x "$GOZIE_TEST_PGBIN/pgbench" ]; then
  echo "## pgbench ceiling (same server, 8 clients, 15 s)"
  admin=$GOZIE_TEST_POSTGRES
  psql "$admin" -qc 'DROP DATABASE IF EXISTS pgbench' -qc 'CREATE DATABASE pgbench' >/dev/null
  db=${admin%/*}/pgbench?sslmode=disable
  "$GOZIE_TEST_PGBIN/pgbench" -q -i -s 10 "$db" >/dev/null 2>&1
  for mode in "-N" "-S"; do
    label="simple-update (-N)"; [ "$mode" = "-S" ] && label="select-only (-S)"
    tps=$("$GOZIE_TEST_PGBIN/pgbench" -n -c 8 -j 2 -T 15 -M prepared $mode "$db" 2>/dev/null | awk '/^tps/{print $3; exit}')
    echo "pgbench $label: $tps tps" | tee -a "$out/pgbench.txt"
  done
fi
