#!/bin/sh
# Memory is series x clock hours: a 790 KB trace of 20,000 teams, one row
# in 1997 and the rest in 2026, asks for 20,000 x 254,209 hours x 24 bytes
# = 122.0 GB.  It used to be asked for (and end in "out of memory", or in
# the kernel killing the run); it is refused first, saying why and what to
# do, in well under a second and under a 600 MB memory limit.
set -eu
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/amp.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,instances,team\n")
    f.write("1997-01-01T00:00:00Z,g5.xlarge,1,t0\n")
    for i in range(1, 20000):
        f.write("2026-01-01T00:00:00Z,g5.xlarge,1,t%d\n" % i)
PY
# AddressSanitizer needs terabytes of address space for its shadow memory:
# a sanitizer build runs without the limit (the normal build checks it)
vlimit=600000
ldd "$bin" 2>/dev/null | grep -q libasan && vlimit=unlimited
start=$(date +%s)
rc=0
(ulimit -v "$vlimit"; "$bin" validate --trace "$dir/amp.csv") > /dev/null \
    2> "$dir/err" || rc=$?
end=$(date +%s)
fail=0
[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1"; cat "$dir/err"; fail=1; }
grep -q "amp.csv: 20000 series over 254209 hours need 122.0 GB of memory, more than the .* GB this run may use" "$dir/err" \
    || { echo "unexpected message:"; cat "$dir/err"; fail=1; }
[ $((end - start)) -le 2 ] || { echo "took $((end - start)) s"; fail=1; }
[ "$fail" -eq 0 ] && echo "memory_refused_early: 1 passed, 0 failed"
exit $fail
