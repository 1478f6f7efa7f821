#!/usr/bin/env bash
# What the test suites need from Debian, installed only if missing: Chromium's
# headless shell for Playwright and the full Chromium for the page benchmarks
# (never a downloaded browser), fonts for stable rendering, and PostgreSQL 15
# for the compatibility and true-parallelism db tests.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
dpkg -s fonts-liberation >/dev/null 2>&1 || missing+=(fonts-liberation)
[ -x /usr/lib/postgresql/15/bin/initdb ] || missing+=(postgresql-15)

if [ "${#missing[@]}" -eq 0 ]; then
  echo "Test dependencies present: chromium, chromium-headless-shell, fonts-liberation, postgresql-15."
  exit 0
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing from Debian: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
