#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# --format of run, report and merge (docs/formats.md), without root: the
# markdown table of a fixed result directory against its golden file, and
# JSON and CSV parsed back and checked against the summary.csv they came
# from (export_check.py), of that directory, of a fresh run of the null
# workload, and of a merged set.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

FIX=tests/fixtures/results
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# report DIR FORMAT: report's stdout in that format (DIR's table.txt is redrawn)
report() { $BPFSWEEP report "$1" --no-plots -f "$2" 2>/dev/null </dev/null; }
agrees() { python3 tests/e2e/export_check.py "$@"; }
# jq-like: the value of a Python expression over the JSON document d
jsonq() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }

# --- a fixed directory ------------------------------------------------------
cp -r "$FIX/export" "$TMP/fixed"
report "$TMP/fixed" markdown >"$TMP/fixed.md"
check export/markdown-golden diff -u "$FIX/export.md" "$TMP/fixed.md"
report "$TMP/fixed" json >"$TMP/fixed.json"
check export/json-parses quiet python3 -m json.tool "$TMP/fixed.json"
check export/json-agrees-with-summary agrees json "$TMP/fixed.json" "$TMP/fixed"
check export/json-typed-parameters [ "$(jsonq "$TMP/fixed.json" \
	'json.dumps(d["runs"][0]["points"][0]["parameters"], sort_keys=True)')" = \
	'{"drop_pct": 10, "fail": "none", "flag": true, "jitter_pct": 0, "mode": "slow", "producers": 0, "rate": 500000, "value_size": 4096, "zero_every": 0}' ]
check export/json-units [ "$(jsonq "$TMP/fixed.json" \
	'[(m["unit"], m["display_unit"]) for m in d["runs"][0]["points"][0]["metrics"].values()]')" = \
	"[('hits/s', 'M/s'), ('drops/s', 'M/s')]" ]
check export/json-baseline-1000ns [ "$(jsonq "$TMP/fixed.json" \
	'round(d["runs"][0]["points"][4]["metrics"]["hits"]["over_base_ns"]["mean"])')" = 1000 ]
check export/json-meta-lists [ "$(jsonq "$TMP/fixed.json" \
	'(d["runs"][0]["meta"]["tag"], d["runs"][0]["tags"], d["runs"][0]["meta"]["host"])')" = \
	"(['machine=test', 'kernel=base'], {'machine': 'test', 'kernel': 'base'}, 'testhost')" ]
check export/json-unsupported-no-metrics [ "$(jsonq "$TMP/fixed.json" \
	'[(p["status"], p["metrics"]) for p in d["runs"][0]["points"][6:]]')" = \
	"[('unsupported', {}), ('unsupported', {})]" ]
report "$TMP/fixed" csv >"$TMP/fixed.csv"
check export/csv-agrees-with-summary agrees csv "$TMP/fixed.csv" "$TMP/fixed"
# the figures are the run's, unrounded: each point's mean rate recomputed here from samples.csv,
# not summary.csv's three decimals (499999.749 of 499999.7487692883)
check export/json-unrounded-from-samples python3 -c '
import csv, json, sys
d = json.load(open(sys.argv[1]))
rates = {}
for r in csv.DictReader(open(sys.argv[2] + "/samples.csv")):
    if r["warmup"] != "1" and int(r["elapsed_ns"]):
        rates.setdefault(int(r["point"]), []).append(int(r["hits"]) * 1e9 / int(r["elapsed_ns"]))
cells = {int(r["point"]): float(r["hits_per_s_mean"])
         for r in csv.DictReader(open(sys.argv[2] + "/summary.csv")) if r["status"] == "ok"}
pts = [p for p in d["runs"][0]["points"] if p["status"] == "ok"]
for p in pts:
    want = sum(rates[p["id"]]) / len(rates[p["id"]])
    got = p["metrics"]["hits"]["mean"]
    assert abs(got - want) <= 1e-9 * want, (p["id"], got, want)
    assert got != cells[p["id"]], (p["id"], got)
assert pts
' "$TMP/fixed.json" "$TMP/fixed"
# the table file stays text whatever the format printed
report "$TMP/fixed" text >"$TMP/fixed.txt"
check export/table-txt-stays-text cmp -s "$TMP/fixed.txt" "$TMP/fixed/table.txt"

# --- a run ------------------------------------------------------------------
$BPFSWEEP run tests/e2e/export.spec --no-plots -o "$TMP/run" -f json >"$TMP/run.json" \
	2>"$TMP/run.err" </dev/null
check export/run-exit-0 [ $? = 0 ]
check export/run-json-parses quiet python3 -m json.tool "$TMP/run.json"
# meta's end line is appended after the table: compare the rest
grep -v '^end: ' "$TMP/run/meta" >"$TMP/meta.noend" && cp "$TMP/run/meta" "$TMP/meta.full" &&
	cp "$TMP/meta.noend" "$TMP/run/meta"
check export/run-json-agrees-with-summary agrees json "$TMP/run.json" "$TMP/run"
cp "$TMP/meta.full" "$TMP/run/meta"
check export/run-table-txt-text grep -q '^=====' "$TMP/run/table.txt"
report "$TMP/run" json >"$TMP/run-report.json"
check export/run-json-is-report-json [ "$(jsonq "$TMP/run.json" 'd["runs"][0]["points"]')" = \
	"$(jsonq "$TMP/run-report.json" 'd["runs"][0]["points"]')" ]
check export/run-progress-on-stderr grep -q '^results: ' "$TMP/run.err"
# the round trip: what the run printed, its directory read back prints again, byte for
# byte (CSV), and the same document but meta's end line (JSON)
$BPFSWEEP run tests/e2e/export.spec --no-plots -o "$TMP/rt" -f csv >"$TMP/rt.csv" 2>/dev/null </dev/null
check export/round-trip-run-exit-0 [ $? = 0 ]
report "$TMP/rt" csv >"$TMP/rt-report.csv"
check export/round-trip-csv-bytes cmp "$TMP/rt.csv" "$TMP/rt-report.csv"
check export/round-trip-json-document python3 -c '
import json, sys
run, back = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
back["runs"][0]["meta"].pop("end")
assert run == back
' "$TMP/run.json" "$TMP/run-report.json"

# --- a merged set: one run each ---------------------------------------------
cp -r "$FIX/export" "$TMP/other" && sed -i 's/^tag: machine=test$/tag: machine=other/' "$TMP/other/meta"
$BPFSWEEP merge "$TMP/fixed" "$TMP/other" -o "$TMP/merged" --no-plots -f json \
	>"$TMP/merged.json" 2>/dev/null </dev/null
check export/merge-json-agrees agrees json "$TMP/merged.json" "$TMP/merged/runs/1" "$TMP/merged/runs/2"
report "$TMP/merged" markdown >"$TMP/merged.md"
check export/merge-markdown-headings [ "$(grep -c '^## run [12]: testhost, x86_64 (Test CPU @ 2.0GHz), kernel 6.18.44-fc-v782, machine=' "$TMP/merged.md")" = 2 ]
report "$TMP/merged" csv >"$TMP/merged.csv"
check export/merge-csv-agrees agrees csv "$TMP/merged.csv" "$TMP/merged/runs/1" "$TMP/merged/runs/2"

# --- an imported set: no intervals; what the bench did not print is null ----
$BPFSWEEP import tests/fixtures/import/002_x86_64.txt -o "$TMP/imported" >/dev/null 2>&1 </dev/null
report "$TMP/imported" json >"$TMP/imported.json"
check export/imported-json-agrees agrees json "$TMP/imported.json" "$TMP/imported"
check export/imported-unknown-is-null [ "$(jsonq "$TMP/imported.json" \
	'[d["runs"][0]["points"][0][k] for k in ("n",)] + [d["runs"][0]["points"][0]["metrics"]["hits"][k] for k in ("median", "ci95")]')" = \
	"[None, None, None]" ]
report "$TMP/imported" csv >"$TMP/imported.csv"
check export/imported-csv-agrees agrees csv "$TMP/imported.csv" "$TMP/imported"
