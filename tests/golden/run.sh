#!/bin/sh
# Runs one golden case: gpuplan with the arguments in $2/args (one per line),
# from inside $2, and compares exit status, stderr and (if present) stdout
# with the expected files.  GPUPLAN_TODAY pins "today" so staleness
# warnings do not change with the calendar.
bin=$1
dir=$2
cd "$dir" || exit 1
GPUPLAN_TODAY=${GPUPLAN_TODAY:-2026-11-21}
export GPUPLAN_TODAY
# read the arguments, one per line, into the positional parameters
set --
while IFS= read -r line || [ -n "$line" ]; do
    set -- "$@" "$line"
done < args
out=$(mktemp) err=$(mktemp)
if [ -f stdin ]; then
    "$bin" "$@" < stdin > "$out" 2> "$err"
else
    "$bin" "$@" < /dev/null > "$out" 2> "$err"
fi
status=$?
fail=0
expected_status=$(cat status 2>/dev/null || echo 0)
if [ "$status" != "$expected_status" ]; then
    echo "exit status $status, expected $expected_status"
    fail=1
fi
if ! diff -u stderr "$err"; then
    fail=1
fi
if [ -f stdout ] && ! diff -u stdout "$out"; then
    fail=1
fi
rm -f "$out" "$err"
exit $fail
