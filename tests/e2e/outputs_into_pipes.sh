#!/bin/sh
# An output named by an existing path that is not a regular file (a pipe,
# or a device such as /dev/null or /dev/stdout) is written into, not
# replaced.  Every output is first written to a temporary file and renamed
# into place, so that a failed run leaves no half-written file; renaming
# over /dev/null as root replaced the device itself with a regular file,
# and every program on the machine that wrote to /dev/null then filled it.
# Such a target now gets a copy of the finished file, and stays what it was.
#
# A symbolic link is written through the same way: renamed over, the link
# became a file of its own (and /dev/stdout, a link to /proc/self/fd/1,
# a regular file in /dev).
#
# Checked with named pipes (mkfifo), which take the same path as a device
# and need no root: for each kind of output writer, a reader copies what
# arrives on the pipe; the pipe must still be a pipe afterwards and the
# copy must equal the same run's output into a regular file:
#   simulate --out x.xlsx       the workbook (compared by its sheets and
#                               their cells, read with openpyxl; the zip
#                               holds the time it was made)
#   classify --out x.csv        gp_write_atomic, byte for byte
#   simulate --csv DIR          the all-or-nothing set, one table a pipe
#   validate --skip-bad --rejects   the rejected rows
# Trace: tests/e2e/data/one-pool.csv (150 hours of p4d.24xlarge), with one
# bad row added for the rejects.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
reader=
trap '[ -n "$reader" ] && kill "$reader" 2>/dev/null; rm -rf "$dir"' EXIT
fail() {
    echo "outputs_into_pipes: $*" >&2
    exit 1
}
export GPUPLAN_TODAY=2026-11-21
trace=$src/tests/e2e/data/one-pool.csv
pricing=$src/pricing/aws/us-east-1.json

# through_pipe PATH COMMAND...: makes PATH a pipe, runs the command with a
# reader copying the pipe into got-NAME beside it, and checks PATH is a
# pipe after.
through_pipe() {
    p=$1
    shift
    mkfifo "$p"
    cat "$p" > "$(dirname "$p")/got-$(basename "$p")" &
    reader=$!
    if "$@"; then st=0; else st=$?; fi
    if [ ! -p "$p" ]; then
        kill "$reader" 2>/dev/null || true
        reader=
        fail "$p was replaced (no longer a pipe) by: $*"
    fi
    if [ "$st" -ne 0 ]; then
        # free the reader if the run never opened the pipe
        python3 -c 'import os, sys
try: os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK))
except OSError: pass' "$p"
        wait "$reader" || true
        reader=
        fail "exit $st: $*"
    fi
    wait "$reader"
    reader=
}

# the workbook
"$bin" simulate --quiet --trace "$trace" --pricing "$pricing" \
    --out "$dir/file.xlsx" > /dev/null
through_pipe "$dir/pipe.xlsx" "$bin" simulate --quiet --trace "$trace" \
    --pricing "$pricing" --out "$dir/pipe.xlsx" > /dev/null
/usr/bin/python3 - "$dir/file.xlsx" "$dir/got-pipe.xlsx" <<'PY' ||
import sys, openpyxl
def cells(path):
    wb = openpyxl.load_workbook(path)
    return [(ws.title, [[c.value for c in row] for row in ws.iter_rows()])
            for ws in wb.worksheets]
a, b = cells(sys.argv[1]), cells(sys.argv[2])
assert [t for t, _ in a] == [t for t, _ in b], ([t for t, _ in a],
                                                [t for t, _ in b])
for (t, x), (_, y) in zip(a, b):
    assert x == y, t
assert len(a) > 3, a
PY
    fail "the workbook through a pipe differs from the one in a file"

# gp_write_atomic
"$bin" classify --quiet --trace "$trace" --pricing "$pricing" \
    --out "$dir/file.csv" > /dev/null
through_pipe "$dir/pipe.csv" "$bin" classify --quiet --trace "$trace" \
    --pricing "$pricing" --out "$dir/pipe.csv" > /dev/null
cmp "$dir/file.csv" "$dir/got-pipe.csv" ||
    fail "classify --out through a pipe differs"
[ "$(wc -l < "$dir/file.csv")" -eq 151 ] ||
    fail "classify --out: $(wc -l < "$dir/file.csv") lines, not 151"

# through a symbolic link: the link stays, its target gets the output
: > "$dir/target.csv"
ln -s target.csv "$dir/link.csv"
"$bin" classify --quiet --trace "$trace" --pricing "$pricing" \
    --out "$dir/link.csv" > /dev/null
[ -L "$dir/link.csv" ] || fail "--out replaced the symbolic link"
cmp "$dir/file.csv" "$dir/target.csv" ||
    fail "classify --out through a symbolic link differs"

# a link whose target cannot be written: exit 1, the error names the
# link, and the temporary file in $TMPDIR is removed
ln -s no-such-folder/x.csv "$dir/dangling.csv"
mkdir "$dir/tmp"
st=0
TMPDIR=$dir/tmp "$bin" classify --quiet --trace "$trace" \
    --pricing "$pricing" --out "$dir/dangling.csv" > /dev/null \
    2> "$dir/dangling.err" || st=$?
[ "$st" -eq 1 ] || fail "a dangling link: exit $st, not 1"
grep -qx "gpuplan classify: $dir/dangling.csv: cannot write: No such file or directory" \
    "$dir/dangling.err" || fail "a dangling link: $(cat "$dir/dangling.err")"
[ -z "$(ls -A "$dir/tmp")" ] || fail "left in TMPDIR: $(ls -A "$dir/tmp")"

# the --csv set: monthly.csv is a pipe, the rest files
"$bin" simulate --quiet --trace "$trace" --pricing "$pricing" \
    --csv "$dir/files" > /dev/null
mkdir "$dir/set"
through_pipe "$dir/set/monthly.csv" "$bin" simulate --quiet \
    --trace "$trace" --pricing "$pricing" --csv "$dir/set" > /dev/null
cmp "$dir/files/monthly.csv" "$dir/set/got-monthly.csv" ||
    fail "--csv: monthly.csv through a pipe differs"
cmp "$dir/files/hourly.csv" "$dir/set/hourly.csv" ||
    fail "--csv: hourly.csv beside the pipe differs"

# --rejects
{ cat "$trace"; echo "2026-01-12T00:00:00Z,p4d.24xlarge,lots"; } \
    > "$dir/bad.csv"
"$bin" validate --quiet --trace "$dir/bad.csv" --pricing "$pricing" \
    --skip-bad --rejects "$dir/file.rej" > /dev/null
through_pipe "$dir/pipe.rej" "$bin" validate --quiet --trace "$dir/bad.csv" \
    --pricing "$pricing" --skip-bad --rejects "$dir/pipe.rej" > /dev/null
cmp "$dir/file.rej" "$dir/got-pipe.rej" || fail "--rejects through a pipe differs"
grep -q ',152,3,"instances",' "$dir/file.rej" || fail "--rejects: no rejected row"

# a $TMPDIR that does not exist cannot take the copy: the workbook and
# --rejects each fail with the target named and mkstemp's reason, exit 1
for out in "--out $dir/pipe.xlsx" "--skip-bad --rejects $dir/pipe.rej"; do
    st=0
    TMPDIR=$dir/no-such-tmp "$bin" simulate --quiet --trace "$dir/bad.csv" \
        --pricing "$pricing" $out > /dev/null 2> "$dir/notmp.err" || st=$?
    [ "$st" -eq 1 ] || fail "no \$TMPDIR ($out): exit $st, not 1"
    target=${out##* }
    grep -qx "gpuplan simulate: $target: cannot write: No such file or directory" \
        "$dir/notmp.err" || fail "no \$TMPDIR ($out): $(cat "$dir/notmp.err")"
done
echo ok
