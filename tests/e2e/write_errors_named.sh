#!/bin/sh
# A write that fails part-way (a full disk; here a file size limit, which
# fails the same write() with EFBIG) names the file and the system's
# reason, exits 1 and leaves no temporary behind.  --csv DIR used to say
# "unknown error" and import --out "cannot write the trace".
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
python3 - <<'PY'
import datetime
t = datetime.datetime(2026, 1, 5)
with open("smi.csv", "w") as f:
    f.write("timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n")
    for i in range(200):
        f.write((t + datetime.timedelta(minutes=i)).strftime("%Y/%m/%d %H:%M:%S.000")
                + ", 0, NVIDIA A100-SXM4-40GB, 50 %, 1000 MiB\n")
PY
fail=0
limited() { # expected-stderr command...: run with files capped at 1 block
    want=$1
    shift
    rc=0
    (trap '' XFSZ; ulimit -f 1; "$@") > /dev/null 2> err.txt || rc=$?
    if [ "$rc" -ne 1 ] || [ "$(cat err.txt)" != "$want" ]; then
        echo "$*: exit $rc, stderr:"; cat err.txt
        echo "expected: $want"; fail=1
    fi
    if ls -a | grep -q '^\.gpuplan-tmp-'; then
        echo "$*: a temporary folder is left"; ls -a; fail=1
    fi
}
limited "gpuplan simulate: out/hourly.csv: cannot write: File too large" \
    "$bin" simulate --quiet --csv out
[ ! -e out ] || { echo "a half set of tables was left in out/"; fail=1; }
limited "gpuplan import: t.csv: cannot write the trace: File too large" \
    "$bin" import nvidia-smi smi.csv --instance-type p4d.24xlarge --quiet \
    --out t.csv
[ ! -e t.csv ] || { echo "a half trace was left"; fail=1; }
[ "$fail" -eq 0 ] && echo "write_errors_named: 2 passed, 0 failed"
exit $fail
