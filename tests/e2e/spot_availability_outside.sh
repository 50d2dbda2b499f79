#!/bin/sh
# A spot job run outside its type's availability history (#37): the replay
# counts capacity as there outside it, and simulate says so.
# scenarios/spot-availability's history has 960 ticks of 5 minutes from
# 2026-03-02T00:00Z, so it ends 80 h later, 2026-03-05T08:00Z.  Its 48-hour
# run inside it: no warning.  The same run from 2026-03-10: wholly outside,
# so it runs 48 h on spot with no wait, 48 x $10 = $480 (the README's
# $1,251.81 fallback never happens), and the warning names the run and the
# history's span.
set -eu
bin=$1
src=$2
d=$src/scenarios/spot-availability
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" simulate --json --trace "$d/trace.csv" --layout jobs \
    --pricing "$d/pricing" --scenario "$d/scenario.json" \
    > "$out/in.json" 2> "$out/in.err"
sed 's/2026-03-02T00:00:00Z,2026-03-04/2026-03-10T00:00:00Z,2026-03-12/' \
    "$d/trace.csv" > "$out/later.csv"
"$bin" simulate --json --trace "$out/later.csv" --layout jobs \
    --pricing "$d/pricing" --scenario "$d/scenario.json" \
    > "$out/later.json" 2> "$out/later.err"
python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
passed = failed = 0
def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)
want = ("1 of 1 spot job runs of p4d.24xlarge go outside its availability "
        "history (2026-03-02T00:00:00Z to 2026-03-05T08:00:00Z)")
check(want not in open(d + "/in.err").read(), "a warning inside the history")
err = open(d + "/later.err").read()
check(want in err, err)
b = json.load(open(d + "/later.json"))["strategies"][0]["job_runs"][0]
check(b["start"] == "2026-03-10T00:00:00Z", b)
check(abs(b["cost_per_completed_run"] - 48 * 10) < 1e-6 and
      b["wait_h"] == 0, b)
print("spot_availability_outside: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
