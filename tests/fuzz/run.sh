#!/bin/sh
# Run one libFuzzer target for FD_FUZZ_SECONDS (default 30) from its seed
# corpus. New inputs go to <work>/corpus, crashes to <work>/crash-*; the
# committed seeds are never modified. Prints executions and coverage.
# usage: run.sh <fuzzer> <seed-corpus> <work-dir>
set -eu
fuzzer=$1 seeds=$2 work=$3
seconds=${FD_FUZZ_SECONDS:-30}
mkdir -p "$work/corpus"
log="$work/fuzz.log"
status=0
"$fuzzer" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$work/" "$work/corpus" "$seeds" >"$log" 2>&1 || status=$?
grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' "$log" || true
grep -E '^#[0-9]+' "$log" | tail -1
if [ "$status" -ne 0 ]; then
  tail -60 "$log"
  echo "fuzz: $(basename "$fuzzer") FAILED (exit $status); reproducer in $work/" >&2
  exit 1
fi
