#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# export_check.py json|csv OUTPUT DIR...: does bpfsweep's --format json (or
# csv) output agree with the result directories it was made from, run by
# run?  Every point of summary.csv, its parameters typed, status, reason, n,
# quality, and every statistic of every metric (summary.csv rounds rates to
# three decimals, the export does not); for JSON also meta, line by line.
# Prints what differs and exits 1; exits 0 when all agree.
import csv
import json
import math
import sys

STATS = ("mean", "stddev", "median", "min", "max", "ci95")
MULTI = ("tag", "config", "resumed", "bpf_stats", "run", "system_warning")


def metric_stats(row):
    """A summary.csv from before the units (no unit_kind column) holds the
    ci95 of its intervals; report rebuilds it over the units (docs/statistics.md)"""
    return STATS if "unit_kind" in row else STATS[:-1]
errors = []


def err(msg):
    errors.append(msg)


def close(a, b, decimals):
    return a is not None and abs(a - b) <= 0.5 * 10 ** -decimals + 1e-12 * abs(b)


def agree(got, cell, decimals):
    """got (a JSON number or CSV text) is summary.csv's cell; empty: not known"""
    if cell == "":
        return got is None or got == ""
    return got not in (None, "") and close(float(got), float(cell), decimals)


def read_summary(d):
    with open(d + "/summary.csv", newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    first, last = head.index("experiment") + 1, head.index("status")
    return head, head[first:last], [dict(zip(head, r)) for r in rows[1:]]


def read_meta(d):
    meta = {}
    with open(d + "/meta") as f:
        for line in f.read().splitlines():
            key, sep, value = line.partition(": ")
            if not sep:
                continue
            if key in MULTI:
                meta.setdefault(key, []).append(value)
            else:
                meta[key] = value
    return meta


def metrics_of(head):
    return [c[: -len("_per_s_mean")] for c in head if c.endswith("_per_s_mean")]


def check_param(where, name, value, cell):
    if cell in ("on", "off"):
        if value is not (cell == "on"):
            err(f"{where}: parameter {name} is {value!r}, summary.csv {cell}")
    elif cell.isdigit():
        if type(value) is not int or value != int(cell):
            err(f"{where}: parameter {name} is {value!r}, summary.csv {cell} (a number)")
    elif value != cell:
        err(f"{where}: parameter {name} is {value!r}, summary.csv {cell}")


def check_metric(where, m, got, row):
    if got.get("unit") != m + "/s" or got.get("kind") != "counter":
        err(f"{where}: {m}: unit {got.get('unit')!r}, kind {got.get('kind')!r}")
    for s in metric_stats(row):
        cell = row.get(f"{m}_per_s_{s}", "")
        if not agree(got.get(s), cell, 3):
            err(f"{where}: {m}.{s} is {got.get(s)}, summary.csv {cell}")
    for key, col, dec in (("over_base_ns", "over_base_ns", 3), ("vs_base", "vs_base", 6)):
        cell = row.get(f"{m}_{col}_mean", "")
        if cell and not close(got.get(key, {}).get("mean"), float(cell), dec):
            err(f"{where}: {m}.{key} is {got.get(key)}, summary.csv {cell}")


def check_point(where, p, row, params, metrics):
    for key in ("experiment", "status", "reason"):
        if p[key] != row[key]:
            err(f"{where}: {key} {p[key]!r}, summary.csv {row[key]!r}")
    # an imported row knows none of these: n is null, the others 0
    for key in ("n", "tries", "nr_producers", "nr_consumers", "nr_cpus"):
        if p[key] != (int(row[key]) if row[key] else None if key == "n" else 0):
            err(f"{where}: {key} {p[key]!r}, summary.csv {row[key]}")
    if ";".join(p["quality"]) != row["quality"]:
        err(f"{where}: quality {p['quality']}, summary.csv {row['quality']!r}")
    if list(p["parameters"]) != params:
        err(f"{where}: parameters {list(p['parameters'])}, summary.csv {params}")
    for name in params:
        check_param(where, name, p["parameters"].get(name), row[name])
    for s in STATS if "ns_per_run_mean" in row else ():
        cell, got = row["ns_per_run_" + s], (p.get("ns_per_run") or {}).get(s)
        if (cell and not close(got, float(cell), 3)) or (not cell and got is not None):
            err(f"{where}: ns_per_run.{s} is {got}, summary.csv {cell!r}")
    want = metrics if row["status"] == "ok" else []
    if list(p["metrics"]) != want:
        err(f"{where}: metrics {list(p['metrics'])}, expected {want}")
    for m in want:
        check_metric(where, m, p["metrics"][m], row)


def check_json(out, dirs):
    doc = json.load(open(out))
    if doc.get("schema") != "bpfsweep-summary" or doc.get("version") != 1:
        err(f"schema {doc.get('schema')!r} version {doc.get('version')!r}")
    if len(doc["runs"]) != len(dirs):
        err(f"{len(doc['runs'])} runs, expected {len(dirs)}")
    for run, d in zip(doc["runs"], dirs):
        head, params, rows = read_summary(d)
        meta = read_meta(d)
        keys = [k for k in set(run["meta"]) | set(meta) if run["meta"].get(k) != meta.get(k)]
        if keys:
            err(f"{d}: meta differs in {sorted(keys)}")
        tags = dict(t.split("=", 1) for t in meta.get("tag", []))
        if run["tags"] != tags or run["workload"] != meta.get("workload"):
            err(f"{d}: tags {run['tags']} workload {run['workload']!r}")
        if len(run["points"]) != len(rows):
            err(f"{d}: {len(run['points'])} points, summary.csv {len(rows)} rows")
        by_id = {p["id"]: p for p in run["points"]}
        for row in rows:
            p = by_id.get(int(row["point"]))
            if p is None:
                err(f"{d}: point {row['point']} missing")
                continue
            check_point(f"{d} point {row['point']}", p, row, params, metrics_of(head))


def check_csv(out, dirs):
    with open(out, newline="") as f:
        got = list(csv.DictReader(f))
    nr = 0
    for run, d in enumerate(dirs, 1):
        head, params, rows = read_summary(d)
        for row in rows:
            mine = [g for g in got if g["run"] == str(run) and g["point"] == row["point"]]
            where = f"{d} point {row['point']}"
            want = metrics_of(head) if row["status"] == "ok" else [""]
            if row["status"] == "ok" and row.get("ns_per_run_mean"):
                want.append("ns_per_run")
            nr += len(want)
            if [g["metric"] for g in mine] != want:
                err(f"{where}: metrics {[g['metric'] for g in mine]}, expected {want}")
                continue
            for g, m in zip(mine, want):
                for name in params + ["experiment", "status", "reason"]:
                    if g[name] != row[name]:
                        err(f"{where}: {name} {g[name]!r}, summary.csv {row[name]!r}")
                for s in (STATS if m == "ns_per_run" else metric_stats(row)) if m else ():
                    col = f"{m}_{s}" if m == "ns_per_run" else f"{m}_per_s_{s}"
                    if not agree(g[s], row.get(col, ""), 3):
                        err(f"{where}: {m}.{s} {g[s]}, summary.csv {row[col]}")
                unit = "ns" if m == "ns_per_run" else m + "/s"
                if m and (g["unit"] != unit or g["n"] != row["n"]):
                    err(f"{where}: {m}: unit {g['unit']!r}, n {g['n']!r}")
    if nr != len(got):
        err(f"{len(got)} rows, expected {nr}")


(check_json if sys.argv[1] == "json" else check_csv)(sys.argv[2], sys.argv[3:])
for e in errors[:20]:
    print("  " + e)
sys.exit(1 if errors else 0)
