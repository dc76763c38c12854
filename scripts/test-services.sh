#!/usr/bin/env bash
# Starts and stops the services the test suite needs on a fresh Debian or
# Ubuntu machine: a throwaway PostgreSQL cluster and a MariaDB server on free
# loopback ports, run as a non-root user. `start` installs what is missing
# (PostgreSQL, MariaDB, the MIT KDC, Chromium, a JDK) and prints shell exports for the tests; `stop` tears
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
  # Tests run on a non-durable cluster (nothing in it outlives the run). With
  # GOZIE_TEST_PG_DURABLE=1 (`make bench`) the cluster keeps PostgreSQL's durable
  # defaults (fsync, synchronous_commit, full_page_writes on), set in no command-line
  # option so that ALTER SYSTEM can still turn them off for a comparison.
  local durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  [ "${GOZIE_TEST_PG_DURABLE:-}" = 1 ] && durability=""
  run_as "$owner" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 $durability -c max_connections=400" \
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

# start_mysql starts a private MariaDB server (Debian's mariadb-server) on a
# free loopback port, as a non-root user, with its data under the state dir:
# the source database of the `gozie migrate oozie` tests (Oozie on MySQL).
# Like the PostgreSQL cluster it is not durable; nothing in it outlives the run.
start_mysql() {
  local owner port dir sock
  command -v mariadbd >/dev/null && command -v mariadb-install-db >/dev/null \
    || { log "installing MariaDB (the Oozie-on-MySQL migration tests)"; apt_install mariadb-server mariadb-client; }
  owner=$(id -un)
  if [ "$(id -u)" -eq 0 ]; then
    owner=mysql
    id mysql >/dev/null 2>&1 || as_root useradd --system --no-create-home mysql
  fi
  dir="$state_dir/mysql"
  sock="$dir/mysqld.sock"
  rm -rf "$dir"; mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && chown -R "$owner" "$dir"
  port=$(free_port)
  # mariadb-install-db (the slow part) runs once per state dir; later starts
  # copy its fresh data directory, kept beside as a template.
  local template="$state_dir/mysql-template"
  if [ ! -d "$template" ]; then
    rm -rf "$template.tmp"; mkdir -p "$template.tmp"
    [ "$(id -u)" -eq 0 ] && chown "$owner" "$template.tmp"
    run_as "$owner" mariadb-install-db --no-defaults --datadir="$template.tmp" --auth-root-authentication-method=normal \
      --skip-test-db --innodb-log-file-size=16M >"$state_dir/mysql-install.log" 2>&1 \
      || { cat "$state_dir/mysql-install.log" >&2; return 1; }
    mv "$template.tmp" "$template"
  fi
  cp -a "$template" "$dir/data"
  run_as "$owner" setsid sh -c "$(printf '%q ' mariadbd --no-defaults --datadir="$dir/data" --skip-networking=0 \
    --bind-address=127.0.0.1 --port="$port" --socket="$sock" --pid-file="$dir/mysqld.pid" --skip-name-resolve \
    --skip-log-bin --innodb-log-file-size=16M --innodb-buffer-pool-size=64M --innodb-flush-log-at-trx-commit=0 \
    --innodb-doublewrite=0 --character-set-server=utf8mb4 --max-connections=400 --log-error="$dir/server.log") >/dev/null 2>&1 &"
  local i
  for i in $(seq 1 300); do
    mariadb-admin --no-defaults --socket="$sock" -u root ping >/dev/null 2>&1 && break
    [ "$i" -eq 300 ] && { log "MariaDB did not start"; cat "$dir/server.log" >&2; return 1; }
    sleep 0.1
  done
  mariadb --no-defaults --socket="$sock" -u root \
    -e "CREATE USER 'gozie'@'127.0.0.1'; GRANT ALL ON *.* TO 'gozie'@'127.0.0.1'" >&2
  echo "$owner" >"$state_dir/mysql-owner"
  echo "export GOZIE_TEST_MYSQL='mysql://gozie@127.0.0.1:$port/'"
}

stop_mysql() {
  local dir="$state_dir/mysql"
  [ -f "$state_dir/mysql-owner" ] || return 0
  if [ -f "$dir/mysqld.pid" ]; then
    local pid; pid=$(cat "$dir/mysqld.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir" "$state_dir/mysql-owner"
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
    stop_mysql
    start_postgres
    start_mysql
    ;;
  stop)
    stop_postgres
    stop_mysql
    ;;
  *)
    echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
