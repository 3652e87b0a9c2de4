#!/bin/sh
# Refresh the screenshots of the players' verification page that README.md
# shows (docs/img/verify-pass.png, docs/img/verify-fail.png), taken by the
# browser test (tests/web/test_verify_page.py) in headless Chromium. The
# default test run writes the same screenshots to build/host/tests/web/
# without touching docs/. Needs scripts/deps.sh test.
# usage: scripts/web_screenshots.sh
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
/usr/bin/python3 tests/web/test_verify_page.py --dealer none --round-lines none --out "$out" --screenshots-only
mkdir -p docs/img
cp "$out/verify-pass.png" "$out/verify-fail.png" docs/img/
ls -l docs/img/verify-pass.png docs/img/verify-fail.png
