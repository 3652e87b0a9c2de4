#!/usr/bin/env python3
"""Per-test throughput of two fairness harness builds, run side by side.

Runs the quick sizes of a "before" and an "after" harness binary alternately
(before first in even rounds, after first in odd ones), so both see the same
machine load, and prints a markdown table per test (same subject, test and
size in both): shuffles per wall-second and per CPU-second, after / before,
median of the per-round ratios and their range.

A binary's figures come from its report's Throughput section, or, for a
harness without one (a49c226's), from "TIMING|subject|test|shuffles|wall
s|CPU s" lines on stderr: tests/stats/baseline_timing.patch adds exactly
that to a49c226 and nothing else (docs/FAIRNESS.md, Harness speed, has the
steps).

usage: speed_compare.py BEFORE AFTER [--rounds R] [--raw FILE] [--harness-args "ARGS"]
(--harness-args "--full --scale-down 10": the report's full sizes over 10,
where the short tests last long enough that start-up is not what is timed)
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(binary, extra):
    """One run (quick sizes unless extra says otherwise): per-test (wall s,
    CPU s) and the run's wall time."""
    with tempfile.TemporaryDirectory() as out:
        t0 = time.monotonic()
        proc = subprocess.run([binary, "--out", out] + extra, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              check=False)
        wall = time.monotonic() - t0
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            report = f.read()
    if proc.returncode != 0:
        sys.exit(f"speed_compare: {binary} failed (status {proc.returncode})")
    rows = {}
    for line in proc.stderr.splitlines():
        if line.startswith("TIMING|"):
            _, who, test, shuffles, secs, cpu = line.split("|")
            rows[(who, test, int(shuffles))] = (float(secs), float(cpu))
    if rows or "## Throughput" not in report:
        return rows, wall
    for line in report.split("## Throughput", 1)[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[2].isdigit():
            shuffles = int(cells[2])
            rows[(cells[0], cells[1], shuffles)] = (shuffles / float(cells[4]), shuffles / float(cells[6]))
    return rows, wall


def spread(values):
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--raw", help="append every run's per-test seconds here (tab-separated)")
    ap.add_argument("--harness-args", default="", help="arguments for both harnesses, e.g. \"--full --scale-down 10\"")
    args = ap.parse_args()
    wall_ratio = {}
    cpu_ratio = {}
    before_rate = {}
    after_rate = {}
    run_walls = {"before": [], "after": []}
    raw = open(args.raw, "a", encoding="utf-8") if args.raw else None
    for r in range(args.rounds):
        order = ("before", "after") if r % 2 == 0 else ("after", "before")
        got = {}
        for which in order:
            rows, wall = run(args.before if which == "before" else args.after, args.harness_args.split())
            got[which] = rows
            run_walls[which].append(wall)
            print(f"round {r + 1}: {which} {wall:.1f} s", file=sys.stderr)
            if raw:
                for key, (secs, cpu) in rows.items():
                    raw.write(f"{r + 1}\t{which}\t{key[0]}\t{key[1]}\t{key[2]}\t{secs:.6f}\t{cpu:.6f}\n")
        for key, (b_wall, b_cpu) in got["before"].items():
            if key not in got["after"]:
                continue
            a_wall, a_cpu = got["after"][key]
            n = key[2]
            wall_ratio.setdefault(key, []).append(b_wall / a_wall)
            cpu_ratio.setdefault(key, []).append(b_cpu / a_cpu)
            before_rate.setdefault(key, []).append(n / b_wall)
            after_rate.setdefault(key, []).append(n / a_wall)
    print("| subject | test | shuffles | before, shuffles/wall-s | after, shuffles/wall-s "
          "| after / before, wall (range) | after / before, CPU (range) |")
    print("|---|---|---|---|---|---|---|")
    for key in wall_ratio:
        print(f"| {key[0]} | {key[1]} | {key[2]} | {statistics.median(before_rate[key]):.3g} "
              f"| {statistics.median(after_rate[key]):.3g} | {spread(wall_ratio[key])} | {spread(cpu_ratio[key])} |")
    print(f"\nwhole run, wall s (median of {args.rounds}): before "
          f"{statistics.median(run_walls['before']):.1f}, after {statistics.median(run_walls['after']):.1f}")
    if raw:
        raw.close()


if __name__ == "__main__":
    main()
