#!/bin/sh
# A stale forecast is not a headline (#39, item 5): Summary's forecast
# headline carries the stale trace's warning that `gpuplan forecast` prints
# (the forecast starts over 30 days before today), and is left out, a line
# saying why in its place, when the horizon has already ended.
#
# Trace: three weeks (504 hours from 2026-08-01T00:00:00Z) of 10
# p4d.24xlarge for inference; it ends at 2026-08-22T00:00:00Z, the
# trace's line 505 (forecast_stale.sh has the warning's wording).
#   today 2026-09-22, 13 weeks (2184 h = 91 days): 2026-08-22 to
#       2026-11-21, ahead of today but 31 days stale: the headline, with
#       the warning right under its heading (the one stderr gives);
#   recommend at 2026-09-22: its Forecast sheet's 13 weeks, the same;
#   today 2026-09-22, 1 week: 2026-08-22 to 2026-08-29, over before
#       today: no Horizon or demand rows, the "left out" line;
#   today 2026-08-23, 1 week: 1 day after the end, neither stale nor
#       past: the headline, no warning under it, P50 = 10 x 168 = 1680
#       (any method forecasts a constant 10 as 10).
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_forecast_stale_headline
"$PY" - "$dir/trace.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(504):
        f.write("%d,p4d.24xlarge,inference,10\n" % (1785542400 + 3600 * h))
PY
P="$src/tests/data/engine/aws-test.json"
run() { # today, then the command's arguments
    today=$1
    shift
    GPUPLAN_TODAY=$today "$bin" "$@" --pricing "$P" --trace "$dir/trace.csv"
}
run 2026-09-22 forecast --horizon 13w --out "$dir/stale.xlsx" \
    > /dev/null 2> "$dir/stale.err"
run 2026-09-22 recommend --runs 10 --out "$dir/rec.xlsx" > /dev/null 2>&1
run 2026-09-22 forecast --horizon 1w --out "$dir/past.xlsx" > /dev/null 2>&1
run 2026-08-23 forecast --horizon 1w --out "$dir/fresh.xlsx" > /dev/null 2>&1
"$PY" - "$dir" <<'PY'
import datetime as dt, sys, openpyxl
d = sys.argv[1]
failed = checks = 0


def block(name):
    """Summary's rows (column A to D) from the forecast headline's
    heading to the next empty row."""
    rows = list(openpyxl.load_workbook(d + "/" + name)["Summary"].iter_rows(
        max_col=4, values_only=True))
    i = [r[0] for r in rows].index("Forecast headline (see Forecast)")
    out = []
    for r in rows[i + 1:]:
        if not r[0]:
            break
        out.append(r)
    return out


def check(ok, what):
    global failed, checks
    checks += 1
    if not ok:
        failed += 1
        print("FAIL " + what)


want = (d + "/trace.csv:505:1: timestamp: the trace ends at "
        "2026-08-22T00:00:00Z, 31 days before today (2026-09-22): the "
        "forecast is for 2026-08-22T00:00:00Z to 2026-11-21T00:00:00Z, from "
        "the trace's end, not from today; give a recent trace to plan ahead")
err = open(d + "/stale.err").read()
check(err == "gpuplan forecast: warning: " + want + "\n", "stderr: %r" % err)
for name in ("stale.xlsx", "rec.xlsx"):
    b = block(name)
    check(b and b[0][0] == want, "%s: first row %r" % (name, b[:1]))
    horizon = [r[1:3] for r in b if r[0] == "Horizon"]
    check(horizon == [(dt.datetime(2026, 8, 22), dt.datetime(2026, 11, 21))],
          "%s: horizon %r" % (name, horizon))
b = block("past.xlsx")
check(len(b) == 1 and b[0][0].startswith("left out: the forecast runs from "
      "the trace's end, 2026-08-22 to 2026-08-29, which is before today "
      "(2026-09-22)"), "past.xlsx: %r" % b)
b = block("fresh.xlsx")
p50 = [r[1] for r in b if r[0] == "Instance-hours demanded, P50"]
check([r[0] for r in b][0] == "Horizon" and len(p50) == 1
      and abs(p50[0] - 1680) < 1e-6, "fresh.xlsx: %r" % b)
print("xlsx_forecast_stale_headline: %d passed, %d failed"
      % (checks - failed, failed))
sys.exit(1 if failed else 0)
PY
