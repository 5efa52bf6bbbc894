#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed for the browser tests (playwright-core drives it; nothing
# downloads a browser of its own). Installs the `chromium` package when /usr/bin/chromium is
# missing. Idempotent. CHROMIUM_PATH points the tests at another binary and skips the install.
set -euo pipefail

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ! -x "$CHROMIUM" ]; then
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    echo "ensure-browser: CHROMIUM_PATH=$CHROMIUM is not an executable" >&2
    exit 1
  fi
  echo "ensure-browser: installing Chromium from Debian's packages"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

"$CHROMIUM" --version >/dev/null 2>&1 || { echo "ensure-browser: $CHROMIUM does not run" >&2; exit 1; }
echo "ensure-browser: $("$CHROMIUM" --version) at $CHROMIUM"
