#!/bin/sh
# --skip-bad keeps its rejected rows compact, in $TMPDIR (#42 item 4).
#
# 1. 20 MB of short bad rows (about 540,000 rows "...,g5.xlarge,1,x", a
#    gpu_util that is not a number): each kept a whole error record
#    (about 500 bytes) in a scratch file, about 280 MB.  Now 32 bytes a
#    row, about 18 MB: the scratch file (seen in /proc while it lives)
#    must stay under 40 MB, and the rejects file must still give each
#    row, in order, with its line, column, field and reason.
# 2. The scratch file is made in $TMPDIR (tmpfile() used /tmp whatever
#    it said): a TMPDIR that does not exist is an error naming it.
# 3. An 8.5 MB trace whose 3 MB quoted team (lines "abc") runs across a
#    place where the reader cuts the text for its threads, after a row
#    with a stray quote (which made counting quotes take the wrong side):
#    the range after the cut was read as 750,000 bad rows, 560 MB of
#    scratch file and 1.8 s.  Now the cut follows libcsv's quoting and
#    the run writes under 64 MB in all; the only row rejected is the
#    stray quote's (line 2), with 1 thread and with 2 alike.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
P="$src/tests/data/engine/aws-test.json"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# runs gpuplan and prints the bytes it wrote (write calls) and the largest
# size seen of a removed scratch file of its in $TMPDIR, polled from /proc
# every 10 ms (the scratch file lives while rows are read), or "failed"
watched() {
    python3 -c '
import os, subprocess, sys, time
tmp = os.environ["TMPDIR"] + "/gpuplan-"
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
wrote = scratch = 0
while p.poll() is None:
    try:
        for line in open("/proc/%d/io" % p.pid):
            if line.startswith("wchar:"):
                wrote = max(wrote, int(line.split()[1]))
        fds = "/proc/%d/fd/" % p.pid
        for fd in os.listdir(fds):
            if os.readlink(fds + fd).startswith(tmp):
                scratch = max(scratch, os.stat(fds + fd).st_size)
    except OSError:
        pass
    time.sleep(0.01)
print("failed" if p.returncode else "%d %d" % (wrote, scratch))' "$bin" "$@"
}
python3 - "$out" <<'PY'
import sys
d = sys.argv[1]
with open(d + "/bad.csv", "w") as f:
    f.write("timestamp,instance_type,instances,gpu_util\n")
    f.write("2026-01-01T00:00:00Z,g5.xlarge,1,50\n")
    i = 0
    while f.tell() < 20_000_000:
        f.write("2026-01-01T%02d:00:00Z,g5.xlarge,1,x\n" % (i % 24))
        i += 1
with open(d + "/quoted.csv", "w") as f:
    f.write("timestamp,instance_type,instances,team\n")
    f.write('2026-01-01T00:00:00Z,g5.xlarge,1,a"b\n')
    while f.tell() < 3_000_000:
        f.write("2026-01-01T00:00:00Z,g5.xlarge,1,a\n")
    f.write('2026-01-01T01:00:00Z,g5.xlarge,1,"start\n')
    while f.tell() < 6_000_000:
        f.write("abc\n")
    f.write('end"\n')
    while f.tell() < 8_500_000:
        f.write("2026-01-01T02:00:00Z,g5.xlarge,1,b\n")
PY
mkdir "$out/tmp"
# 1: the bad rows, 2 threads: a scratch file in $TMPDIR, under 40 MB (the
# rejects file itself is about 74 MB)
set -- $(TMPDIR="$out/tmp" watched validate --quiet --pricing "$P" \
             --trace "$out/bad.csv" --skip-bad --threads 2 \
             --rejects "$out/rejects.csv")
if [ "$1" != failed ] && [ "$2" -gt 0 ] && [ "$2" -lt $((40 << 20)) ]; then
    ok
else
    bad "20 MB of bad rows: $* (bytes written, scratch file in TMPDIR)"
fi
# every row but the first is rejected: lines 3, 4, ... in order, each
# with its reason (made again from the row) and its text, across the
# ranges the 2 threads read
if python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))[1:]
text = open(sys.argv[2]).read().split("\n")[2:-1]
assert len(rows) == len(text) > 500000, (len(rows), len(text))
for i, r in enumerate(rows):
    assert r[1:] == [str(i + 3), "4", "gpu_util",
                     "expected a percent 0..100, got \"x\"", text[i]], (i, r)
' "$out/rejects.csv" "$out/bad.csv"; then
    ok
else
    bad "the rejects file"
fi
# 2: TMPDIR is where the scratch file goes
if TMPDIR="$out/none" "$bin" validate --quiet --pricing "$P" \
        --trace "$out/bad.csv" --skip-bad --rejects "$out/r2.csv" \
        > /dev/null 2> "$out/err2"; then
    bad "a TMPDIR that does not exist was not used"
elif grep -q "temporary file in $out/none" "$out/err2"; then
    ok
else
    bad "TMPDIR error: $(cat "$out/err2")"
fi
# 3: the quoted field across a cut: under 64 MB written (the trace is
# 8.5 MB; the rejects file a line)
for t in 1 2; do
    set -- $(TMPDIR="$out/tmp" watched validate --quiet --pricing "$P" \
                 --trace "$out/quoted.csv" --skip-bad --threads "$t" \
                 --rejects "$out/q$t.csv")
    if [ "$1" != failed ] && [ "$1" -lt $((64 << 20)) ]; then
        ok
    else
        bad "quoted field, $t threads: $* (bytes written)"
    fi
    # the header line and the one rejected row, line 2
    if [ "$(wc -l < "$out/q$t.csv")" -eq 2 ] &&
            grep -q '^"[^"]*quoted.csv",2,' "$out/q$t.csv"; then
        ok
    else
        bad "quoted field, $t threads: rejects $(head -c 300 "$out/q$t.csv")"
    fi
done
echo "skip_bad_scratch_bounded: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
