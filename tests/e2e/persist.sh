#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The result directory: never overwritten, headers on disk before the first
# point, a full disk that fails the point's persistence instead of leaving a
# lie, and --resume / --only.  Null workload, no root (the tmpfs test needs it).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/e2e/resultset.sh

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

SPEC=tests/e2e/persist.spec
BIG=tests/e2e/persist_big.spec	# 26 points: 24 rates ok, then fail=none ok, fail=setup failed
PER_POINT=8		# 2 repetitions × (1 warmup + 3 measured intervals)
run() { $BPFSWEEP "$@" </dev/null; }

# --- a result directory is new ---------------------------------------------
D=$TMP/old
mkdir "$D"
echo keep >"$D/table.txt"
run $SPEC --no-plots -o "$D" >/dev/null 2>"$TMP/err"
check persist/existing-dir-exit-2 [ $? = 2 ]
check persist/existing-dir-said grep -q "cannot create result directory $D: File exists" "$TMP/err"
check persist/existing-dir-untouched [ "$(ls "$D"; cat "$D/table.txt")" = "table.txt
keep" ]
# "D/" and "D/." name D too (-o / is the unit test's: a failing run here would write into /)
run $SPEC --no-plots -o "$D/" >/dev/null 2>&1
check persist/existing-dir-slash-exit-2 [ $? = 2 ]
run $SPEC --no-plots -o "$D/." >/dev/null 2>&1
check persist/existing-dir-dot-exit-2 [ $? = 2 ]
check persist/existing-dir-still-untouched [ "$(ls "$D")" = table.txt ]
echo keep >"$TMP/file"
run $SPEC --no-plots -o "$TMP/file" >/dev/null 2>&1
check persist/file-exit-2 [ $? = 2 ]
check persist/file-untouched [ "$(cat "$TMP/file")" = keep ]
run $SPEC --no-plots -o "$TMP/file/sub" >/dev/null 2>&1
check persist/under-file-exit-2 [ $? = 2 ]
run $SPEC --no-plots --only rates --set rate=1000 -o "$TMP/new/a/b/" >/dev/null 2>&1
check persist/parents-made-exit-0 [ $? = 0 ]
check persist/parents-made consistent "$TMP/new/a/b" $PER_POINT

# --- headers are on disk before the first point ends -------------------------
D=$TMP/early
run tests/e2e/slow.spec --no-plots -o "$D" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ -e "$D/summary.csv" ] && break
	sleep 0.02
done
{ kill -KILL $pid && wait $pid; } 2>/dev/null
check persist/early-samples-header has_header "$D/samples.csv"
check persist/early-summary-header has_header "$D/summary.csv"
check persist/early-no-point-yet [ -z "$(csv_col "$D/summary.csv" point)" ]

# --- a file size limit: the point fails to persist, nothing lies -------------
# 4 KiB: above meta (written first, whole or not at all), below the CSVs of BIG
D=$TMP/efbig
(ulimit -f 4 && exec $BPFSWEEP $BIG --no-plots -o "$D" </dev/null >/dev/null 2>"$TMP/err")
status=$?
check persist/efbig-exit-1 [ "$status" = 1 ]
check persist/efbig-said grep -q \
	"cannot save point [0-9]* .*: File too large; its rows were removed" \
	"$TMP/err"
check persist/efbig-consistent consistent "$D" $PER_POINT
check persist/efbig-within-limit [ "$(stat -c %s "$D/samples.csv")" -le 4096 ]
check persist/efbig-stopped [ "$(rows "$D" | wc -l)" -lt 26 ]
check persist/efbig-table-of-saved [ "$(grep -c M/s "$D/table.txt")" = "$(rows "$D" | wc -l)" ]

# --- and --resume finishes it: the CSVs stay one set --------------------------
run $BIG --no-plots --resume "$D" >/dev/null 2>"$TMP/err"
check persist/resume-after-efbig-exit-1 [ $? = 1 ]
check persist/resume-consistent consistent "$D" $PER_POINT
check persist/resume-every-point [ "$(rows "$D" | tr '\n' ' ')" = \
	"$(printf '%d ok ' $(seq 0 24))25 failed " ]
check persist/resume-one-header-samples one_header "$D/samples.csv"
check persist/resume-one-header-summary one_header "$D/summary.csv"
check persist/resume-table-whole [ "$(grep -c M/s "$D/table.txt")" = 25 ]

# the failed point runs again: its old row leaves, its new one comes
run $BIG --no-plots --resume "$D" >/dev/null 2>"$TMP/err"
check persist/resume-reruns-failed grep -q "25 of 26 points keep their rows, 1 to run" "$TMP/err"
check persist/resume-failed-once [ "$(csv_col "$D/summary.csv" status | grep -c failed)" = 1 ]
check persist/resume-no-tmp no_tmp "$D"
# meta keeps the first start, says when each resume began, and ends in an end
check persist/resume-meta-start [ "$(grep -c '^start: ' "$D/meta")" = 1 ]
check persist/resume-meta-resumed [ "$(grep -c '^resumed: ' "$D/meta")" = 2 ]
check persist/resume-meta-end-last [ "$(tail -n 1 "$D/meta" | cut -d: -f1)" = end ]

# --- --resume refuses another spec, other options, another directory ----------
sum_before=$(cat "$D"/*.csv | md5sum)
run $BIG --no-plots --set rate=9 --resume "$D" >/dev/null 2>"$TMP/err"
check persist/resume-other-spec-exit-2 [ $? = 2 ]
check persist/resume-other-spec-said grep -q "its spec differs at line" "$TMP/err"
run $BIG --no-plots --quick --resume "$D" >/dev/null 2>"$TMP/err"
check persist/resume-quick-exit-2 [ $? = 2 ]
check persist/resume-quick-said grep -q "it was run with warmup 20ms, this run has 0.25s" "$TMP/err"
check persist/resume-refusal-writes-nothing [ "$(cat "$D"/*.csv | md5sum)" = "$sum_before" ]
mkdir "$TMP/junk" && echo x >"$TMP/junk/x"
run $SPEC --no-plots --resume "$TMP/junk" >/dev/null 2>"$TMP/err"
check persist/resume-not-a-run-exit-2 [ $? = 2 ]
run $SPEC --no-plots --resume "$TMP/none" >/dev/null 2>&1
check persist/resume-missing-exit-2 [ $? = 2 ]

# --- no two runs write one directory: a resume of a running run is refused ------
D2=$TMP/running
$BPFSWEEP tests/e2e/slow.spec --no-plots -o "$D2" </dev/null >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
	[ -s "$D2/summary.csv" ] && break
	sleep 0.1
done
sum_before=$(cat "$D2"/*.csv | md5sum)
run tests/e2e/slow.spec --no-plots --resume "$D2" >/dev/null 2>"$TMP/err"
check persist/resume-running-exit-2 [ $? = 2 ]
check persist/resume-running-said grep -q "cannot resume $D2: another bpfsweep is running there" \
	"$TMP/err"
check persist/resume-running-writes-nothing [ "$(cat "$D2"/*.csv | md5sum)" = "$sum_before" ]
kill -TERM $pid
wait $pid
check persist/resume-running-run-one-header one_header "$D2/summary.csv"

# --- a row that claims another point is refused, not matched by row number ----
D2=$TMP/moved
cp -r "$D" "$D2"
sed -i 's/^\([0-9]*\),3,rates,1,4000,/\1,3,rates,1,4001,/' "$D2/summary.csv"
run $BIG --no-plots --resume "$D2" >/dev/null 2>"$TMP/err"
check persist/resume-tuple-mismatch-exit-2 [ $? = 2 ]
check persist/resume-tuple-mismatch-said grep -q \
	"point 3 is not the same point: rate=4001 there, rate=4000 now" "$TMP/err"

# a quality cell bpfsweep does not write is named, before any row is dropped
D2=$TMP/badquality
cp -r "$D" "$D2"
python3 - "$D2/summary.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
rows[1][rows[0].index("quality")] = "junk"
csv.writer(open(sys.argv[1], "w"), lineterminator="\n").writerows(rows)
PY
sum_before=$(cat "$D2"/*.csv | md5sum)
run $BIG --no-plots --resume "$D2" >/dev/null 2>"$TMP/err"
check persist/resume-bad-quality-exit-2 [ $? = 2 ]
check persist/resume-bad-quality-said grep -q \
	"summary.csv:2:[0-9]*: error: quality is 'junk', not quality flags as bpfsweep writes them" "$TMP/err"
check persist/resume-bad-quality-writes-nothing [ "$(cat "$D2"/*.csv | md5sum)" = "$sum_before" ]

# --- --only runs one [params] block; --resume then completes the spec ---------
D=$TMP/only
run $SPEC --no-plots --only failures -o "$D" >/dev/null 2>&1
check persist/only-exit-1 [ $? = 1 ]
check persist/only-one-block [ "$(csv_col "$D/summary.csv" experiment | sort -u)" = failures ]
run $SPEC --no-plots --only rates --resume "$D" >/dev/null 2>&1
check persist/only-resume-exit-0 [ $? = 0 ]
check persist/only-resume-adds-block [ "$(rows "$D" | wc -l)" = 10 ]
check persist/only-resume-consistent consistent "$D" $PER_POINT

# charts of the blocks --only did not run are not warned about; a block that
# ran and has no ok point is
printf '%s\n' '[sweep]' 'workload = null' 'warmup = 0ms' 'duration = 20ms' 'interval = 10ms' \
	'[report]' 'plot = rate vs hits' '[params "a"]' 'rate = 1000 2000' '[params "b"]' \
	'fail = setup' >"$TMP/charts.spec"
run "$TMP/charts.spec" --only a -o "$TMP/charts-a" >/dev/null 2>"$TMP/err"
check persist/only-charts-exit-0 [ $? = 0 ]
check persist/only-charts-no-warning [ "$(grep -c 'nothing to draw' "$TMP/err")" = 0 ]
run "$TMP/charts.spec" --only b -o "$TMP/charts-b" >/dev/null 2>"$TMP/err"
check persist/only-charts-warns-ran [ "$(grep -c 'chart 2-hits-vs-rate: no point finished ok' \
	"$TMP/err")" = 1 ]

# a run killed as it created meta left it empty (and no CSVs yet, which
# come after it): --resume writes it anew
D=$TMP/emptymeta
run "$TMP/charts.spec" --only a --no-plots -o "$D" >/dev/null 2>&1
: >"$D/meta"
rm "$D/samples.csv" "$D/summary.csv" "$D/table.txt"
run "$TMP/charts.spec" --only a --no-plots --resume "$D" >/dev/null 2>"$TMP/err"
check persist/resume-empty-meta-exit-0 [ $? = 0 ]
check persist/resume-empty-meta-rewritten grep -qx 'workload: null' "$D/meta"
check persist/resume-empty-meta-ends [ "$(tail -n 1 "$D/meta" | cut -d: -f1)" = end ]
check persist/resume-empty-meta-ran [ "$(csv_col "$D/summary.csv" status | tr '\n' ' ')" = "ok ok " ]

# --- a full tmpfs (root: a private mount namespace) ---------------------------
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	skip persist/enospc "needs root and unshare -m"
else
	# 5 pages: spec, meta, columns.csv, summary.csv and one page of samples,
	# which the third point's 2 × (2 + 20) rows of about 45 bytes overflow
	mkdir "$TMP/mnt"
	unshare -m bash -c 'mount -t tmpfs -o size=20k tmpfs "$1" || exit 99
		"$2" "$3" --no-plots -o "$1/r" --set duration=200ms --set interval=10ms \
			</dev/null >/dev/null 2>"$1/../enospc.err"
		echo $? >"$1/../enospc.status"
		cp -r "$1/r" "$1/../enospc"' _ "$TMP/mnt" "$BPFSWEEP" $SPEC
	check persist/enospc-exit-1 [ "$(cat "$TMP/enospc.status")" = 1 ]
	check persist/enospc-said grep -q "No space left on device; its rows were removed" \
		"$TMP/enospc.err"
	check persist/enospc-consistent consistent "$TMP/enospc" 44
	check persist/enospc-kept-some [ "$(rows "$TMP/enospc" | wc -l)" -ge 1 ]
fi
