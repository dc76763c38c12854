#!/usr/bin/env bash
# Starts and stops the services the test suite needs on a fresh Debian or
# Ubuntu machine: a throwaway PostgreSQL cluster on a free loopback port, run
# as a non-root user. `start` installs what is missing (PostgreSQL, the MIT
# KDC, Chromium, a JDK) and prints shell exports for the tests; `stop` tears
# everything down.
#
#   eval "$(scripts/test-services.sh start)"; go test ./...; scripts/test-services.sh stop
set -euo pipefail

state_dir=${GOZIE_TEST_STATE:-${TMPDIR:-/tmp}/gozie-test-services}
log() { echo "test-services: $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else
    log "need root to run: $*"; return 1; fi
}

apt_install() {
  if [ ! -f "$state_dir/.apt-updated" ]; then
    as_root apt-get update -qq >&2
    touch "$state_dir/.apt-updated"
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { echo "$d"; return 0; }
  done
  return 1
}

free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$(( 20000 + RANDOM % 30000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return 0; fi
  done
  log "no free port found"; return 1
}

# run_as USER CMD...: run as the unprivileged cluster owner when we are root.
run_as() {
  local user=$1; shift
  if [ "$(id -u)" -eq 0 ]; then
    su -s /bin/sh "$user" -c "$(printf '%q ' "$@")"
  else
    "$@"
  fi
}

start_postgres() {
  local bin owner port dir
  bin=$(pg_bin) || { log "installing PostgreSQL"; apt_install postgresql >&2; bin=$(pg_bin); }
  owner=$(id -un)
  if [ "$(id -u)" -eq 0 ]; then
    owner=postgres
    id postgres >/dev/null 2>&1 || as_root useradd --system --no-create-home postgres
  fi
  dir="$state_dir/pg"
  rm -rf "$dir"; mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown -R "$owner" "$dir"
  port=$(free_port)
  run_as "$owner" "$bin/initdb" -D "$dir/data" -A trust -U gozie -E UTF8 --no-locale >"$state_dir/pg-initdb.log" 2>&1 \
    || { cat "$state_dir/pg-initdb.log" >&2; return 1; }
  run_as "$owner" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" \
    start >&2 || { cat "$dir/server.log" >&2; return 1; }
  echo "$owner" >"$state_dir/pg-owner"
  echo "$bin" >"$state_dir/pg-bin"
  echo "export GOZIE_TEST_POSTGRES='postgres://gozie@127.0.0.1:$port/postgres?sslmode=disable'"
  echo "export GOZIE_TEST_PGBIN='$bin'"
}

stop_postgres() {
  local dir="$state_dir/pg"
  [ -f "$state_dir/pg-bin" ] || return 0
  run_as "$(cat "$state_dir/pg-owner")" "$(cat "$state_dir/pg-bin")/pg_ctl" -D "$dir/data" -m immediate stop >&2 || true
  rm -rf "$dir" "$state_dir/pg-bin" "$state_dir/pg-owner"
}

# ensure_kdc installs Debian's MIT KDC; the Kerberos tests start their own
# throwaway KDC on a loopback port with it.
ensure_kdc() {
  command -v krb5kdc >/dev/null && command -v kadmin.local >/dev/null && return 0
  log "installing the MIT KDC"
  apt_install krb5-kdc krb5-admin-server krb5-user
}

case "${1:-}" in
  start)
    mkdir -p "$state_dir"
    chmod 755 "$state_dir"
    ensure_kdc
    command -v chromium >/dev/null || { log "installing chromium (dashboard tests)"; apt_install chromium; }
    command -v javac >/dev/null && command -v jar >/dev/null \
      || { log "installing a JDK (java action tests compile their main class)"; apt_install default-jdk-headless; }
    command -v git-upload-pack >/dev/null \
      || { log "installing git (the git action's SSH test serves a repository with git-upload-pack)"; apt_install git; }
    command -v python3 >/dev/null \
      || { log "installing python3 (the spark-submit stand-in runs pyspark-form applications)"; apt_install python3; }
    stop_postgres
    start_postgres
    ;;
  stop)
    stop_postgres
    ;;
  *)
    echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
