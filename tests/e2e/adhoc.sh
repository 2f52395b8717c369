#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Ad hoc runs (docs/adhoc.md): `bpfsweep run WORKLOAD` with the kernel
# bench's options is a spec run of the spec they amount to: the same
# result files with the same columns, the rate per producer beside the
# total, --save-spec giving a spec that runs the same points, and specs
# found by name from a checkout.  ringbuf's part needs root.
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

BIN=$(realpath "$BPFSWEEP")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

header() { head -1 "$1"; }

# The first line of each CSV: its columns.
same_columns() {
	[ "$(header "$1/summary.csv")" = "$(header "$2/summary.csv")" ] &&
		[ "$(header "$1/samples.csv")" = "$(header "$2/samples.csv")" ]
}

# per_prod_row TABLE MEAN PRODUCERS: a row shows the total's mean rate (from
# summary.csv) divided among the producers, to the bench's three decimals
# (after "M/s ± n/a" when one interval was measured: no spread).
per_prod_row() {
	local want
	want=$(awk -v m="$2" -v n="$3" 'BEGIN { printf "%.3fM/prod", m / 1e6 / n }')
	grep -Eq "( ± [0-9.]+M/s|M/s ± n/a) \\($want[,)]" "$1"
}

# --- null: one point, default directory, the bench's options in the spec ------
mkdir "$TMP/cwd"
(cd "$TMP/cwd" && "$BIN" run null -w 0 -d 0.5 -a --set interval=250ms --no-plots \
	>"$TMP/null.out" 2>"$TMP/null.err" </dev/null)
check adhoc/null-exit-0 [ $? = 0 ]
D=$(ls -d "$TMP"/cwd/results/null/*/ 2>/dev/null | head -1)
check adhoc/null-default-dir [ "$(ls "$TMP/cwd/results/null" | grep -cE '^[0-9]{8}-[0-9]{6}$')" = 1 ]
D=${D%/}
check adhoc/null-files [ -s "$D/summary.csv" ] && [ -s "$D/samples.csv" ] && [ -s "$D/meta" ]
check adhoc/null-spec-affinity grep -qx 'affinity = on' "$D/spec"
check adhoc/null-spec-warmup grep -qx 'warmup = 0s' "$D/spec"
check adhoc/null-spec-duration grep -qx 'duration = 0.5s' "$D/spec"
check adhoc/null-one-point [ "$(csv_col "$D/summary.csv" status)" = ok ]
check adhoc/null-table-on-stdout grep -q ' ± .*M/s (1\.000M/prod, drops ' "$TMP/null.out"

# the same point from the spec it amounts to: the same columns
cat >"$TMP/null.spec" <<'EOF'
[sweep]
workload = null
warmup   = 0s
duration = 500ms
interval = 250ms
affinity = on
EOF
$BPFSWEEP run "$TMP/null.spec" -o "$TMP/null-spec" --no-plots >/dev/null 2>&1 </dev/null
check adhoc/null-spec-run-exit-0 [ $? = 0 ]
check adhoc/null-same-columns same_columns "$D" "$TMP/null-spec"

# --- count: a small sweep from the command line, charts, --save-spec ------------
A=$TMP/count
$BPFSWEEP run count -p 1..2 -w 0 -d 0.5 --set interval=250ms --save-spec "$TMP/saved.spec" \
	-o "$A" >"$TMP/count.out" 2>&1 </dev/null
check adhoc/count-exit-0 [ $? = 0 ]
check adhoc/count-two-points [ "$(csv_col "$A/summary.csv" producers | tr '\n' ' ')" = "1 2 " ]
check adhoc/count-chart is_png "$(ls "$A"/plots/*.png 2>/dev/null | head -1)"
check adhoc/count-per-prod per_prod_row "$A/table.txt" \
	"$(csv_col "$A/summary.csv" hits_per_s_mean producers 2)" 2
check adhoc/save-spec-written grep -qx 'producers = 1..2' "$TMP/saved.spec"
# the saved spec, by another name, expands to the same points and runs them
$BPFSWEEP expand "$TMP/saved.spec" | grep -E '^ +[0-9]+  ' >"$TMP/saved.points"
$BPFSWEEP expand count -p 1..2 -w 0 -d 0.5 --set interval=250ms | grep -E '^ +[0-9]+  ' \
	>"$TMP/adhoc.points"
check adhoc/save-spec-same-points cmp -s "$TMP/saved.points" "$TMP/adhoc.points"
check adhoc/save-spec-has-points [ "$(wc -l <"$TMP/saved.points")" = 2 ]
$BPFSWEEP run "$TMP/saved.spec" -o "$TMP/saved" --no-plots >/dev/null 2>&1 </dev/null
check adhoc/save-spec-run-exit-0 [ $? = 0 ]
check adhoc/save-spec-same-columns same_columns "$A" "$TMP/saved"
check adhoc/save-spec-same-rows [ "$(csv_col "$TMP/saved/summary.csv" producers | tr '\n' ' ')" = \
	"$(csv_col "$A/summary.csv" producers | tr '\n' ' ')" ]
check adhoc/save-spec-same-spec cmp -s "$A/spec" "$TMP/saved/spec"
# the saved spec is not overwritten, and a symlink there is not followed
$BPFSWEEP check count -p 1 --save-spec "$TMP/saved.spec" >/dev/null 2>"$TMP/again.err" </dev/null
check adhoc/save-spec-exists-exit-2 [ $? = 2 ]
check adhoc/save-spec-exists-said grep -q "saved.spec exists; not overwritten" "$TMP/again.err"
check adhoc/save-spec-kept grep -qx 'producers = 1..2' "$TMP/saved.spec"
ln -s "$TMP/target.spec" "$TMP/dangling.spec"
$BPFSWEEP check count -p 1 --save-spec "$TMP/dangling.spec" >/dev/null 2>&1 </dev/null
check adhoc/save-spec-no-follow-exit-2 [ $? = 2 ]
check adhoc/save-spec-no-follow [ ! -e "$TMP/target.spec" ]

# --- specs by name from a checkout, from any directory -------------------------
if [ -f "$(dirname "$BIN")/specs/ringbuf_overwrite.spec" ]; then
	(cd "$TMP" && "$BIN" check ringbuf_overwrite) >"$TMP/byname" 2>&1
	check adhoc/spec-by-name grep -q \
		"^$(dirname "$BIN")/specs/ringbuf_overwrite.spec: ok: workload ringbuf" "$TMP/byname"
	(cd "$TMP" && "$BIN" check ringbuf_overwrite.spec) >"$TMP/byname2" 2>&1
	check adhoc/spec-by-file-name cmp -s "$TMP/byname" "$TMP/byname2"
	(cd "$TMP" && "$BIN" ringbuf_overwrit --no-plots) >/dev/null 2>"$TMP/typo"
	check adhoc/spec-name-typo grep -q "did you mean 'ringbuf_overwrite'" "$TMP/typo"
else
	skip adhoc/spec-by-name "$BIN is not the binary at the top of a checkout"
fi

# --- ringbuf, as the bench runs it: total and M/prod ---------------------------
if [ "$(id -u)" -ne 0 ]; then
	skip adhoc/ringbuf "needs root to load BPF programs"
	exit 0
fi
R=$TMP/rb
$BPFSWEEP run ringbuf -p 2 -d 1 -w 0 -o "$R" --no-plots >"$TMP/rb.out" 2>&1 </dev/null
check adhoc/ringbuf-exit-0 [ $? = 0 ]
check adhoc/ringbuf-per-prod per_prod_row "$R/table.txt" \
	"$(csv_col "$R/summary.csv" hits_per_s_mean)" 2
cat >"$TMP/rb.spec" <<'EOF'
[sweep]
workload = ringbuf
warmup   = 0s
duration = 1s
[params]
producers = 2
EOF
$BPFSWEEP run "$TMP/rb.spec" -o "$TMP/rb-spec" --no-plots >/dev/null 2>&1 </dev/null
check adhoc/ringbuf-spec-run-exit-0 [ $? = 0 ]
check adhoc/ringbuf-same-columns same_columns "$R" "$TMP/rb-spec"
