#!/bin/sh
# A report that cannot be written to standard output (a full disk: Linux's
# /dev/full refuses every write with ENOSPC) fails the run with the reason,
# exit 1, for the terminal tables as for --json; it used to exit 0 having
# written nothing.  Each command is run as a user would redirect it.
set -eu
bin=$1
src=$2
[ -w /dev/full ] || exit 77
cd "$src"
pass=0
fail=0
check() { # want-message command args...: want is said after "gpuplan <command>: "
    want="gpuplan $2: $1"
    shift
    if "$bin" "$@" --quiet > /dev/full 2> "$err"; then
        echo "exit 0 for: gpuplan $* > /dev/full"; fail=$((fail + 1)); return
    else
        rc=$?
    fi
    if [ "$rc" -ne 1 ] || [ "$(cat "$err")" != "$want" ]; then
        echo "gpuplan $* > /dev/full: exit $rc, stderr:"; cat "$err"
        fail=$((fail + 1)); return
    fi
    pass=$((pass + 1))
}
err=$(mktemp)
trap 'rm -f "$err"' EXIT
table="standard output: cannot write: No space left on device"
json="standard output: cannot write: No space left on device"
check "$table" simulate
check "$json" simulate --json
check "$table" recommend
check "$json" recommend --json
check "$table" forecast
check "$json" forecast --json
check "$table" validate --trace scenarios/sample/trace.csv
check "$table" classify --trace scenarios/sample/trace.csv
check "$table" recommend --help
echo "stdout_full: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
