#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis answer on loopback for the tests: starts them when they are
# installed but stopped, installs them from Debian's packages when they are missing. Idempotent.
set -euo pipefail

PGPORT="${PGPORT:-5432}"
REDIS_PORT="${REDIS_PORT:-6379}"
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

postgres_up() { pg_isready -q -h 127.0.0.1 -p "$PGPORT" 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null | grep -q PONG; }

if ! postgres_up; then
  if ! command -v pg_ctlcluster >/dev/null 2>&1; then
    echo "ensure-services: installing PostgreSQL from Debian's packages"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  hba="/etc/postgresql/$version/main/pg_hba.conf"
  # Tests connect as postgres over TCP without a password, as on the CI machines.
  if ! grep -q '^host all all 127.0.0.1/32 trust' "$hba"; then
    as_root sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
  fi
  echo "ensure-services: starting PostgreSQL $version"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || as_root pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  for _ in $(seq 1 60); do postgres_up && break; sleep 0.5; done
  postgres_up || { echo "ensure-services: PostgreSQL did not come up on 127.0.0.1:$PGPORT" >&2; exit 1; }
fi

if ! redis_up; then
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "ensure-services: installing Redis from Debian's packages"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
  echo "ensure-services: starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no
  for _ in $(seq 1 60); do redis_up && break; sleep 0.5; done
  redis_up || { echo "ensure-services: Redis did not come up on 127.0.0.1:$REDIS_PORT" >&2; exit 1; }
fi

echo "ensure-services: PostgreSQL on 127.0.0.1:$PGPORT and Redis on 127.0.0.1:$REDIS_PORT are up"
