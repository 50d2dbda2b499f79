#!/bin/sh
# A run stopped while it writes its outputs leaves no temporary behind,
# and a run stopped without the chance (kill -9, a crash) has its
# temporary folder removed by the next run that writes in the same folder.
#  1. a folder .gpuplan-tmp-<PID>-XXXXXX of a process that is gone, with a
#     half-written workbook in it, is removed by the next `--out` there; one
#     of a live process (this shell's) is left alone;
#  2. simulate --out --csv stopped with SIGTERM and SIGINT at several
#     moments: no .gpuplan-tmp-* is left, and an output that exists is
#     whole (the workbook opens as a zip, the tables are a set or none).
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
gone=$(sh -c 'echo $$')
mkdir "$dir/.gpuplan-tmp-$gone-abc123" "$dir/.gpuplan-tmp-$$-live12"
echo half > "$dir/.gpuplan-tmp-$gone-abc123/r.xlsx"
"$bin" simulate --quiet --out "$dir/r.xlsx" > /dev/null
fail=0
[ ! -e "$dir/.gpuplan-tmp-$gone-abc123" ] || { echo "the stale folder stays"; fail=1; }
[ -d "$dir/.gpuplan-tmp-$$-live12" ] || { echo "a live process's folder was removed"; fail=1; }
rmdir "$dir/.gpuplan-tmp-$$-live12"
python3 "$src/bench/make_trace.py" --out "$dir/t.csv" --size-mb 20 --seed 5 > /dev/null 2>&1
for sig in TERM INT; do
    for delay in 0.2 0.5 0.8 1.1 1.4; do
        rm -rf "$dir/out" "$dir/x.xlsx"
        "$bin" simulate --quiet --trace "$dir/t.csv" --runs 200 \
            --out "$dir/x.xlsx" --csv "$dir/out" > /dev/null 2>&1 &
        pid=$!
        sleep "$delay"
        kill -"$sig" "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        if ls -a "$dir" "$dir/out" 2>/dev/null | grep -q '^\.gpuplan-tmp-'; then
            echo "SIG$sig after $delay s left a temporary:"; ls -a "$dir"; fail=1
        fi
        if [ -e "$dir/x.xlsx" ]; then
            python3 -c "import zipfile,sys; zipfile.ZipFile(sys.argv[1]).testzip()" \
                "$dir/x.xlsx" || { echo "a broken workbook"; fail=1; }
        fi
    done
done
[ "$fail" -eq 0 ] && echo "stopped_runs_leave_no_temporary: 2 passed, 0 failed"
exit $fail
