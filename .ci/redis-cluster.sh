#!/usr/bin/env bash
# redis-cluster.sh start|stop|status — a throwaway 3-master Redis Cluster on
# loopback ports 7000-7002 (override with REDIS_CLUSTER_PORTS="7000 7001 7002")
# for the redisstore cluster tests. No persistence: data lives in a temporary
# directory that `stop` removes. `start` on a running healthy cluster is a no-op.
set -euo pipefail

PORTS=(${REDIS_CLUSTER_PORTS:-7000 7001 7002})
STATE=${REDIS_CLUSTER_STATE:-${TMPDIR:-/tmp}/eventcal-redis-cluster}
DIRFILE="$STATE.dir"

cli() { redis-cli -h 127.0.0.1 -p "$1" "${@:2}"; }

up() { cli "$1" ping >/dev/null 2>&1; }

cluster_ok() { cli "${PORTS[0]}" cluster info 2>/dev/null | grep -q '^cluster_state:ok'; }

start() {
  command -v redis-server >/dev/null || { echo "redis-server not installed (apt-get install -y redis-server)" >&2; exit 1; }
  if all_up && all_ok; then
    echo "redis cluster already running on ${PORTS[*]}"
    return 0
  fi
  local dir
  if [[ -f $DIRFILE && -d $(cat "$DIRFILE") ]]; then dir=$(cat "$DIRFILE"); else
    dir=$(mktemp -d "${TMPDIR:-/tmp}/eventcal-redis-cluster.XXXXXX")
    echo "$dir" >"$DIRFILE"
  fi
  for p in "${PORTS[@]}"; do
    if up "$p"; then continue; fi
    redis-server --port "$p" --bind 127.0.0.1 --cluster-enabled yes \
      --cluster-config-file "nodes-$p.conf" --cluster-node-timeout 5000 \
      --dir "$dir" --daemonize yes --pidfile "$dir/redis-$p.pid" --logfile "$dir/redis-$p.log" \
      --save "" --appendonly no
  done
  for p in "${PORTS[@]}"; do
    for _ in $(seq 50); do up "$p" && break; sleep 0.1; done
    up "$p" || { echo "redis on port $p did not start; see $dir/redis-$p.log" >&2; exit 1; }
  done
  # Create the cluster unless its nodes already know each other (a restart
  # after a half-done start).
  if ! cluster_ok; then
    local assigned
    assigned=$(cli "${PORTS[0]}" cluster info | sed -n 's/^cluster_slots_assigned:\([0-9]*\).*/\1/p')
    if [[ ${assigned:-0} == 0 ]]; then
      local addrs=()
      for p in "${PORTS[@]}"; do addrs+=("127.0.0.1:$p"); done
      redis-cli --cluster create "${addrs[@]}" --cluster-replicas 0 --cluster-yes >/dev/null
    fi
  fi
  for _ in $(seq 100); do
    if cluster_ok && all_ok; then echo "redis cluster up on ${PORTS[*]} ($dir)"; return 0; fi
    sleep 0.2
  done
  echo "redis cluster did not reach cluster_state:ok" >&2
  cli "${PORTS[0]}" cluster info >&2 || true
  exit 1
}

all_up() {
  for p in "${PORTS[@]}"; do up "$p" || return 1; done
}

# all_ok: every node agrees the cluster is ok (each must see every slot).
all_ok() {
  for p in "${PORTS[@]}"; do
    cli "$p" cluster info 2>/dev/null | grep -q '^cluster_state:ok' || return 1
  done
}

stop() {
  for p in "${PORTS[@]}"; do
    if up "$p"; then cli "$p" shutdown nosave >/dev/null 2>&1 || true; fi
  done
  for p in "${PORTS[@]}"; do
    for _ in $(seq 50); do up "$p" || break; sleep 0.1; done
  done
  if [[ -f $DIRFILE ]]; then
    rm -rf -- "$(cat "$DIRFILE")"
    rm -f -- "$DIRFILE"
  fi
  echo "redis cluster stopped"
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) if all_up && all_ok; then echo ok; else echo down; exit 1; fi ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
