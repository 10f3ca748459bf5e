#!/usr/bin/env python3
"""Merges canopy-bench CSV files of repeated runs into markdown tables.

    summarize.py run1.csv run2.csv ... > tables.md

Each problem's Canopy/reference ratio is the median over the runs of the
per-run paired ratio (the median over rounds of the ratio of the Canopy and
reference bursts' mean times); the spread (min..max over runs) shows how noisy the machine
was. Rates are medians over the runs of the per-run medians.
"""
import csv
import statistics
import sys
from collections import OrderedDict

MATMUL_TARGET = 0.95   # Canopy / standalone oneDNN, f32 and bf16
FP16_TARGET = 0.8      # Canopy fp16 rate / Canopy f32 rate, same op and shape
ELTWISE_TARGET = 0.9   # Canopy / plain loop


def load(paths):
    rows = OrderedDict()
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                key = (row["driver"], row["op"], row["dtype"], row["problem"])
                rows.setdefault(key, []).append(row)
    return rows


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def num(row, name):
    try:
        value = float(row[name])
    except (KeyError, ValueError):
        return None
    return value if value != 0 else None


def spread(values):
    values = [v for v in values if v is not None]
    if len(values) < 2:
        return ""
    return f"{min(values):.2f}..{max(values):.2f}"


def mark(value, target):
    if value is None:
        return "n/a"
    return f"{value:.2f} {'✓' if value >= target else '✗'}"


def ratio_of(row):
    """The paired ratio (adjacent Canopy/reference pairs) where the run has it."""
    return num(row, "paired_ratio") or num(row, "ratio")


def matmul_tables(rows):
    problems = OrderedDict()
    for (driver, op, dtype, problem), runs in rows.items():
        if driver == "matmul" and runs[0]["status"] == "ok":
            problems.setdefault((op, problem), {})[dtype] = runs
    out = ["| op | problem (MxKxN) | f32 GFLOP/s | f32 vs oneDNN | bf16 GFLOP/s | bf16 vs oneDNN | "
           "f16 GFLOP/s | f16 / f32 rate | f16 vs oneDNN f32 | spread over runs (f32; bf16; f16/f32) |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for (op, problem), by_dtype in problems.items():
        cells = [op, problem]
        spreads = []
        for dtype in ("f32", "bf16"):
            runs = by_dtype.get(dtype, [])
            rate = med([num(r, "gflops") for r in runs])
            ratios = [ratio_of(r) for r in runs]
            cells.append(f"{rate:.1f}" if rate else "n/a")
            cells.append(mark(med(ratios), MATMUL_TARGET))
            spreads.append(spread(ratios))
        f16 = by_dtype.get("f16", [])
        f32 = by_dtype.get("f32", [])
        # Canopy's fp16 rate over its f32 rate on the same problem, run by run.
        per_run = [num(a, "time_us") / num(b, "time_us") for a, b in zip(f32, f16)
                   if num(a, "time_us") and num(b, "time_us")]
        rate = med([num(r, "gflops") for r in f16])
        cells.append(f"{rate:.1f}" if rate else "n/a")
        cells.append(mark(med(per_run), FP16_TARGET))
        ref = med([ratio_of(r) for r in f16])
        cells.append(f"{ref:.2f}" if ref else "n/a")
        spreads.append(spread(per_run))
        cells.append("; ".join(spreads))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def eltwise_table(rows):
    out = ["| op | dtype | problem | Canopy GB/s | plain loop GB/s | Canopy / loop | ratio of medians | "
           "spread over runs |",
           "|---|---|---|---:|---:|---:|---:|---|"]
    for (driver, op, dtype, problem), runs in rows.items():
        if driver != "eltwise" or runs[0]["status"] != "ok":
            continue
        paired = [ratio_of(r) for r in runs]
        out.append(f"| {op} | {dtype} | {problem} | {med([num(r, 'gbps') for r in runs]):.1f} | "
                   f"{med([num(r, 'reference_gbps') for r in runs]):.1f} | {mark(med(paired), ELTWISE_TARGET)} | "
                   f"{med([num(r, 'ratio') for r in runs]):.2f} | {spread(paired)} |")
    return "\n".join(out)


PHASE1_HIT_TARGET_US = 1.0
ENQUEUE_TARGET_US = 0.5


def overhead_table(rows):
    runs_of = {op: runs for (driver, op, _, _), runs in rows.items() if driver == "overhead"}

    def per_run(name):
        return [num(r, "time_us") for r in runs_of.get(name, [])]

    def paired(name, reference):
        """Per-run ratio reference/name (> 1: name is faster), median over runs."""
        return med([b / a for a, b in zip(per_run(name), per_run(reference)) if a and b])

    verdicts = {
        "phase1-hit": lambda v: f"≤ {PHASE1_HIT_TARGET_US} µs: {'met' if v <= PHASE1_HIT_TARGET_US else 'MISSED'}",
        "phase2": lambda v: f"enqueue ≤ {ENQUEUE_TARGET_US} µs: {'met' if v <= ENQUEUE_TARGET_US else 'MISSED'}",
        "enqueue": lambda v: f"≤ {ENQUEUE_TARGET_US} µs: {'met' if v <= ENQUEUE_TARGET_US else 'MISSED'}",
    }
    out = ["| measurement | per call, µs (median of runs) | each run | target | single calls (last run) | what |",
           "|---|---:|---|---|---|---|"]
    for op, runs in runs_of.items():
        values = per_run(op)
        value = med(values)
        target = verdicts[op](value) if op in verdicts else ""
        if op in ("tiny", "tiny-client"):
            ratio = paired(op, "onednn-tiny")
            target = f"oneDNN tiny / this = {ratio:.2f}" + (": met" if op == "tiny" and ratio >= 1 else "")
            one_thread = paired(op, "onednn-tiny-1t")
            target += f"; vs 1-thread oneDNN {one_thread:.2f}"
        if op.startswith("streams2-"):
            ratio = paired(op, op.replace("streams2-", "streams1-"))
            target = f"throughput 2 streams / 1 = {ratio:.2f}: {'met' if ratio >= 1 else 'MISSED'}"
        note = runs[-1]["note"]
        what, _, rest = note.partition("; ")
        rest = "; ".join(p for p in rest.split("; ") if not p.startswith("target"))
        out.append(f"| {op} | {value:.3f} | {', '.join(f'{v:.3f}' for v in values if v)} | {target} | {rest} | {what} |")
    return "\n".join(out)


def main():
    rows = load(sys.argv[1:])
    print("### Matmul\n")
    print(matmul_tables(rows))
    print("\n### Elementwise\n")
    print(eltwise_table(rows))
    print("\n### Overhead\n")
    print(overhead_table(rows))


if __name__ == "__main__":
    main()
