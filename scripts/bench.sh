#!/usr/bin/env bash
# Runs gozie's benchmarks and prints their figures for BENCHMARKS.md, each with the
# machine (CPU model, cores), the load average when it was taken and the durability of
# the PostgreSQL it ran on, beside the machine's ceilings (pg_test_fsync, pgbench).
#
# Expects GOZIE_TEST_POSTGRES and GOZIE_TEST_PGBIN, as `make bench` sets them: a
# cluster of its own with PostgreSQL's durable defaults (fsync, synchronous_commit and
# full_page_writes on), as a production database runs.
#
# BENCH_NONDURABLE=1 adds a second pass of the PostgreSQL benchmarks on the same
# cluster with the three settings turned off (ALTER SYSTEM, reloaded), as `make test`'s
# cluster runs, recorded as a second column beside the durable figures. It is opt-in:
# the PostgreSQL benchmarks are most of the run's time, and a second pass doubles it.
#
# BENCH_ONLY=REGEX runs only the entries of the list below whose line (package,
# pattern, benchtime) matches it, e.g. BENCH_ONLY=coordrun: a partial record, for
# re-measuring what a change touched.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BENCH_OUT:-bench-results}
mkdir -p "$out"
benchtime=${BENCHTIME:-3s}
pgbin=${GOZIE_TEST_PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)}
: "${GOZIE_TEST_POSTGRES:?GOZIE_TEST_POSTGRES is not set: run make bench, or start scripts/test-services.sh}"

# Each entry: package, benchmark pattern, benchtime, and the pattern of its PostgreSQL
# benchmarks for the non-durable pass ("-" when it has none).
benches=(
  "./store/sqlite/ . $benchtime -"
  "./store/postgres/ . $benchtime ."
  "./coordinator/ . $benchtime -"
  "./coordinator/coordrun/ MaterializeMinutely|MaterializeManyCoordinators\$ 1x MaterializeMinutely|MaterializeManyCoordinators\$/postgres"
  "./coordinator/coordrun/ MaterializeManyCoordinatorsAhead 3x MaterializeManyCoordinatorsAhead/postgres"
  "./coordinator/coordrun/ InputChecks 1x InputChecks/postgres"
  "./coordinator/coordrun/ DoneFlagToLaunch 1x DoneFlagToLaunch/postgres"
  "./coordinator/coordrun/ MemoryManyCoordinators/sqlite 6x -"
  "./coordinator/coordrun/ MemoryManyCoordinators/postgres 6x MemoryManyCoordinators/postgres"
  "./e2e/ WorkflowStarts 1000x WorkflowStarts"
  "./e2e/ TwoServers 1000x TwoServers"
  "./e2e/ CallbackToNextLaunch 50x CallbackToNextLaunch"
  "./e2e/ PollOnlyToNextLaunch 10x PollOnlyToNextLaunch"
  "./actions/hive2/ Hive2 $benchtime -"
  "./sla/ DeadlineToMiss 300x DeadlineToMiss/postgres"
  "./server/slaapi/ SLAList 200x SLAList/postgres"
  "./server/jobs/jobsbench/ REST 3000x REST"
)

psql_admin() { PGOPTIONS='-c client_min_messages=warning' "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 "$GOZIE_TEST_POSTGRES" "$@"; }

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# durability prints "durable" or "non-durable" and the three settings behind it.
durability() {
  local s
  s=$(psql_admin -At -c "SELECT string_agg(name || '=' || setting, ', ' ORDER BY name)
    FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes')")
  case "$s" in
    "fsync=on, full_page_writes=on, synchronous_commit=on") echo "durable ($s)" ;;
    *) echo "non-durable ($s)" ;;
  esac
}

# set_durable on|off turns fsync, synchronous_commit and full_page_writes on or off
# for the whole cluster (each takes effect on a reload).
set_durable() {
  local cmd=RESET v=""
  [ "$1" = off ] && { cmd=SET; v=" = off"; }
  psql_admin -c "ALTER SYSTEM $cmd fsync$v" -c "ALTER SYSTEM $cmd synchronous_commit$v" \
    -c "ALTER SYSTEM $cmd full_page_writes$v" -c "SELECT pg_reload_conf()" >/dev/null
  local want=durable; [ "$1" = off ] && want=non-durable
  for _ in $(seq 1 50); do
    case "$(durability)" in "$want "*) return 0 ;; esac
    sleep 0.1 # the reload is asynchronous; poll its outcome
  done
  echo "bench: PostgreSQL did not become $want: $(durability)" >&2; return 1
}

machine() {
  echo "## Machine"
  echo "- $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "- memory: $(free -g | awk '/Mem:/{print $2}') GiB; $(go version | cut -d' ' -f3); PostgreSQL $("$pgbin/postgres" --version | awk '{print $3}') over loopback, $(durability)"
  echo "- load average before the run: $(loadavg)"
  echo
}

# fsync_ceiling prints pg_test_fsync's one-8kB-write figures: how many commits a second
# one session can make with each sync method on this disk (a durable commit waits for
# one), with the method the cluster uses marked.
fsync_ceiling() {
  [ -x "$pgbin/pg_test_fsync" ] || { echo "(pg_test_fsync not found in $pgbin)"; return 0; }
  local method file
  method=$(psql_admin -At -c 'SHOW wal_sync_method')
  file=${GOZIE_TEST_STATE:-${TMPDIR:-/tmp}}/pg_test_fsync.$$
  echo "## Sync ceiling (pg_test_fsync -s 2, one 8 kB write per sync; load average $(loadavg))"
  "$pgbin/pg_test_fsync" -s 2 -f "$file" 2>&1 | tee "$out/pg_test_fsync.txt" \
    | awk -v m="$method" '
        /Compare file sync methods using one 8kB write/ { on = 1; next }
        /Compare file sync methods using two 8kB writes/ { on = 0 }
        on && /ops\/sec/ {
          name = $1; mark = (name == m) ? " (the cluster'"'"'s wal_sync_method)" : ""
          printf "- %s: %s ops/s%s\n", name, $(NF-3), mark
        }'
  rm -f "$file"
  echo
}

# pgbench_ceiling LABEL prints pgbench's simple-update and select-only figures on the
# cluster as it is now set.
pgbench_ceiling() {
  [ -x "$pgbin/pgbench" ] || { echo "(pgbench not found in $pgbin)"; return 0; }
  echo "## pgbench ceiling, $1 (same server, 8 clients, 15 s; load average $(loadavg))"
  psql_admin -c 'DROP DATABASE IF EXISTS pgbench' -c 'CREATE DATABASE pgbench' >/dev/null
  local db=${GOZIE_TEST_POSTGRES%/*}/pgbench?sslmode=disable mode label tps load
  "$pgbin/pgbench" -q -i -s 10 "$db" >/dev/null 2>&1
  for mode in -N -S; do
    label="simple-update (-N)"; [ "$mode" = -S ] && label="select-only (-S)"
    load=$(loadavg)
    tps=$("$pgbin/pgbench" -n -c 8 -j 2 -T 15 -M prepared $mode "$db" 2>/dev/null | awk '/^tps/{print $3; exit}')
    echo "- pgbench $label: $tps tps"
    printf 'pgbench %s\ttps\t%s\t%s\n' "$label" "$tps" "$load" >>"$out/figures-$1.tsv"
  done
  psql_admin -c 'DROP DATABASE pgbench' >/dev/null
  echo
}

# settle lets the cluster finish what the previous benchmark left it before the next
# one starts: its dirty buffers are written (CHECKPOINT) and the autovacuum of the
# tables it filled ends (up to 5 minutes, then the run goes on and says so). Without
# it, a benchmark that seeds millions of rows makes the next one share the cores with
# their write-back and vacuum, which a server in a steady state does not do.
settle() {
  psql_admin -c CHECKPOINT
  local waited=0
  while [ "$(psql_admin -At -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'")" != 0 ]; do
    if [ "$waited" -ge 300 ]; then
      echo "(autovacuum still running after ${waited} s; going on)"
      return 0
    fi
    sleep 1 # polls the condition above
    waited=$((waited + 1))
  done
  [ "$waited" = 0 ] || echo "(waited ${waited} s for autovacuum to end)"
}

# run_pass LABEL FIELD runs the benchmarks (field 2: every one; field 4: the
# PostgreSQL ones of the non-durable pass), prints each package's figures under its
# load average and the database's durability, and records every figure in
# $out/figures-LABEL.tsv (name, unit, value, load average).
run_pass() {
  local label=$1 field=$2 b pkg pattern bt load raw=$out/go-bench-$1.txt
  : >"$raw"
  echo "## Go benchmarks, PostgreSQL $(durability)"
  for b in "${benches[@]}"; do
    set -- $b
    pkg=$1 bt=$3 pattern=$2
    [ "$field" = 4 ] && pattern=$4
    [ "$pattern" = - ] && continue
    [ -n "${BENCH_ONLY:-}" ] && ! grep -Eq -- "$BENCH_ONLY" <<<"$b" && continue
    settle
    load=$(loadavg)
    echo "### $pkg -bench '$pattern' -benchtime $bt (load average $load)"
    go test -run '^$' -bench "$pattern" -benchtime "$bt" -benchmem -timeout 30m "$pkg" 2>&1 \
      | tee -a "$raw" | grep -E '^(Benchmark|ok|FAIL|---)' | tee "$out/last.txt"
    awk -v la="$load" -v pkg="${pkg#./}" '/^Benchmark/ {
        for (i = 3; i + 1 <= NF; i += 2)
          if ($(i+1) != "B/op" && $(i+1) != "allocs/op") printf "%s%s\t%s\t%s\t%s\n", pkg, $1, $(i+1), $i, la
      }' "$out/last.txt" >>"$out/figures-$label.tsv"
  done
  rm -f "$out/last.txt"
  echo
}

# side_by_side prints every durable figure with its non-durable one beside it.
side_by_side() {
  echo "## Durable and non-durable side by side ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
  echo
  echo "| benchmark | unit | durable | load average | non-durable | load average |"
  echo "|---|---|---|---|---|---|"
  awk -F'\t' '
    NR == FNR { nd[$1 FS $2] = $3; ndl[$1 FS $2] = $4; next }
    { k = $1 FS $2; printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4,
        (k in nd) ? nd[k] : "", (k in nd) ? ndl[k] : "" }
  ' "$out/figures-non-durable.tsv" "$out/figures-durable.tsv"
  echo
}

rm -f "$out"/figures-*.tsv
machine
fsync_ceiling
set_durable on
pgbench_ceiling durable
run_pass durable 2
if [ "${BENCH_NONDURABLE:-}" = 1 ]; then
  set_durable off
  pgbench_ceiling non-durable
  run_pass non-durable 4
  set_durable on
  side_by_side
fi
