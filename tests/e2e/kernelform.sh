#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# A kernel's one form (docs/kernel.md, "One form for a kernel") writes the
# text forms on disk as before, byte for byte, so that a result directory
# of an earlier bpfsweep resumes with this one: the spec as run of a sweep
# over kernels (OUT/spec) and of each kernel's sub-run (OUT/runs/<n>/spec),
# which --resume compares byte for byte, and OUT/meta's kernel and run
# lines, which --resume reads back.  The goldens in tests/fixtures/kernelform
# are what main's binary at 3d056e7 wrote (before the one form) for
#   run tests/e2e/kernel.spec --kernel tests/fixtures/kernelform/bzImage \
#       --kernel host $SETS
# bzImage is a file with a bzImage header and nothing else: it never boots.
#
# OLD_BPFSWEEP=PATH (a bpfsweep built from main, say) adds the resumes
# across the two binaries: a sweep over kernels and a kernel's partial
# sub-run made by it, resumed by this one.
#
# Cost: about 2 s without a VM (three runs of the null workload, 50 ms
# points); the sweep over kernels starts qemu on the image that does not
# boot, 2 s of boot timeout: about 4 s more (root and qemu, else skipped).
set -u
cd "$(dirname "$0")/../.."
. tests/lib.sh

FIX=tests/fixtures/kernelform
IMAGE=$FIX/bzImage
SETS=(--set vm_boot_timeout=2s --set repeat=1 --set duration=50ms --set warmup=0
      --set interval=50ms)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run_b NAME BIN ARGS...: BIN ARGS into $TMP/NAME.{out,err}, status in $TMP/NAME.rc
run_b() {
	local name=$1 bin=$2
	shift 2
	"$bin" "$@" </dev/null >"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}
rc_is() { [ "$(cat "$TMP/$1.rc")" = "$2" ] || { tail -n 8 "$TMP/$1.err" | sed 's/^/  | /'; false; }; }
statuses() { csv_col "$1" status | sort | uniq -c | tr -s ' ' | tr '\n' ';'; }

# --- the spec as run: --kernel A --kernel B into the spec's kernel key ------
run_b saved "$BPFSWEEP" check tests/e2e/kernel.spec --kernel "$IMAGE" --kernel host "${SETS[@]}" \
	--save-spec "$TMP/saved.spec"
check kernelform/sweep-spec-as-before cmp "$TMP/saved.spec" "$FIX/sweep.spec"

# --- a kernel's sub-run: its settings say guest-of; its spec as run is the --
# --- sweep's with kernel = host, as before; its meta names its kernel -------
printf 'guest-of = host\nonly = first\nno-plots = yes\n' >"$TMP/host-first.settings"
printf 'guest-of = host\nno-plots = yes\n' >"$TMP/host.settings"
run_b sub "$BPFSWEEP" run "$FIX/sweep.spec" --subrun "$TMP/host-first.settings" -o "$TMP/sub"
check kernelform/sub-run-exit-0 rc_is sub 0
check kernelform/sub-run-spec-as-before cmp "$TMP/sub/spec" "$FIX/run.spec"
check kernelform/sub-run-meta-names-its-kernel grep -qx 'kernel: host' "$TMP/sub/meta"
run_b subrest "$BPFSWEEP" run "$FIX/sweep.spec" --subrun "$TMP/host.settings" --resume "$TMP/sub"
check kernelform/sub-run-resumed rc_is subrest 0
check kernelform/sub-run-resumed-every-point [ "$(statuses "$TMP/sub/summary.csv")" = " 3 ok;" ]
# the image's sub-run, whose points ran nowhere (fail-all): no VM here
printf 'guest-of = %s\nfail-all = it did not boot\nno-plots = yes\n' "$IMAGE" \
	>"$TMP/image.settings"
run_b subimg "$BPFSWEEP" run "$FIX/sweep.spec" --subrun "$TMP/image.settings" -o "$TMP/subimg"
check kernelform/image-sub-run-failed-rows rc_is subimg 1
check kernelform/image-sub-run-spec-as-before cmp "$TMP/subimg/spec" "$FIX/run.spec"
check kernelform/image-sub-run-meta-names-its-kernel grep -qx "kernel: $IMAGE" "$TMP/subimg/meta"
# the settings' one kernel fact: the line before guest-of said the same again
printf 'kernel = host\nguest-of = host\n' >"$TMP/twice.settings"
run_b twice "$BPFSWEEP" run "$FIX/sweep.spec" --subrun "$TMP/twice.settings" -o "$TMP/twice"
check kernelform/settings-kernel-line-refused rc_is twice 2
check kernelform/settings-kernel-line-said grep -qF "unknown setting 'kernel'" "$TMP/twice.err"
step_time "kernelform.sh: without a VM"

# --- the sweep over kernels: qemu starts on the image that does not boot -----
why=$(qemu_missing)
if [ -n "$why" ]; then
	skip kernelform/sweep "$why"
	exit 0
fi
run_b sweep "$BPFSWEEP" run tests/e2e/kernel.spec --kernel "$IMAGE" --kernel host "${SETS[@]}" \
	-o "$TMP/sweep" --no-plots
check kernelform/sweep-exit-1 rc_is sweep 1
check kernelform/sweep-out-spec-as-before cmp "$TMP/sweep/spec" "$FIX/sweep.spec"
check kernelform/sweep-runs-spec-as-before cmp "$TMP/sweep/runs/2/spec" "$FIX/run.spec"
grep -E '^(kernel|kernel_sweep|run):' "$TMP/sweep/meta" >"$TMP/meta-lines"
check kernelform/sweep-meta-lines-as-before cmp "$TMP/meta-lines" "$FIX/meta-lines"
check kernelform/sweep-settings-say-guest-of [ "$(grep -h '^guest-of = \|^kernel = ' \
	"$TMP/sweep/subrun/1.settings" "$TMP/sweep/subrun/2.settings")" = \
	"guest-of = $IMAGE
guest-of = host" ]
step_time "kernelform.sh: a sweep over kernels"

# --- across binaries: made by OLD_BPFSWEEP, resumed by this one --------------
if [ -z "${OLD_BPFSWEEP:-}" ]; then
	skip kernelform/old-binary "OLD_BPFSWEEP not set (a bpfsweep built from main)"
	exit 0
fi
run_b oldsweep "$OLD_BPFSWEEP" run tests/e2e/kernel.spec --kernel "$IMAGE" --kernel host \
	"${SETS[@]}" -o "$TMP/oldsweep" --no-plots
check kernelform/old-sweep-made rc_is oldsweep 1
run_b resume "$BPFSWEEP" run tests/e2e/kernel.spec --kernel "$IMAGE" --kernel host "${SETS[@]}" \
	--resume "$TMP/oldsweep" --no-plots
check kernelform/old-sweep-resumed rc_is resume 0
check kernelform/old-sweep-resumed-quietly not grep -q 'cannot resume' "$TMP/resume.err"
check kernelform/old-sweep-host-finished grep -qF 'kernel host: all 3 points finished before' \
	"$TMP/resume.err"
check kernelform/old-sweep-rows [ "$(statuses "$TMP/oldsweep/summary.csv")" = " 3 failed; 3 ok;" ]
# a kernel's sub-run stopped after its first experiment, with the settings then
printf 'kernel = host\nguest-of = host\nonly = first\nno-plots = yes\n' >"$TMP/old.settings"
run_b oldsub "$OLD_BPFSWEEP" run "$FIX/sweep.spec" --subrun "$TMP/old.settings" -o "$TMP/oldsub"
check kernelform/old-sub-run-made rc_is oldsub 0
run_b oldsubrest "$BPFSWEEP" run "$FIX/sweep.spec" --subrun "$TMP/host.settings" \
	--resume "$TMP/oldsub"
check kernelform/old-sub-run-resumed rc_is oldsubrest 0
check kernelform/old-sub-run-every-point [ "$(statuses "$TMP/oldsub/summary.csv")" = " 3 ok;" ]
step_time "kernelform.sh: resumed across binaries"
