#!/usr/bin/env python3
"""forward.py: the forward planner (recommend --forward) backtested on the
traces bench/backtest/run.sh converted, commitments only.

    python3 bench/backtest/forward.py GPUPLAN OUT_DIR

OUT_DIR is run.sh's output folder (default /tmp/gpuplan-backtest): for each
"-no-spot" trace it reads the backtest's cut T and test hours from
<trace>-no-spot.oos.json, keeps the trace's rows before T, runs
`recommend --forward <test hours>h` on them (a plan bought for the
forecast of the test period), then bills the test period of the whole
trace with that plan as a strategy (`simulate`), and prints what the plan
saved against the hindsight-optimal commitments of the test period, next
to the history-based plan's figure.  recommend refuses --forward with
--train-until, so the cut is made here.
"""
import csv
import datetime
import json
import os
import subprocess
import sys

gpuplan = sys.argv[1]
out = sys.argv[2] if len(sys.argv) > 2 else "/tmp/gpuplan-backtest"
traces = [("helios-vc6YE", "helios-vc6YE.csv"),
          ("helios-vcpDC", "helios-vcpDC.csv"),
          ("philly", "philly.csv"),
          ("servegen-m-large", "servegen-m-large.csv")]
print("| trace | test h | forward plan saved | hindsight commitments | "
      "forward captured | history-based captured |")
print("|---|---|---|---|---|---|")
for name, csvname in traces:
    bt = json.load(open(os.path.join(out, name + "-no-spot.oos.json")))
    bt = bt["backtest"]
    cut, hours = bt["train_until"], bt["test_hours"]
    t0 = datetime.datetime.fromisoformat(cut.replace("Z", "+00:00"))
    end = (t0 + datetime.timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")
    rows = list(csv.reader(open(os.path.join(out, csvname))))
    col = rows[0].index("timestamp")
    before = os.path.join(out, name + ".before.csv")
    with open(before, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(rows[0])
        w.writerows(r for r in rows[1:] if r[col] < cut)
    rec = json.loads(subprocess.run(
        [gpuplan, "recommend", "--json", "--quiet", "--trace", before,
         "--scenario", os.path.join(out, "no-spot.json"),
         "--forward", "%dh" % hours],
        check=True, capture_output=True, text=True).stdout)
    plan = [p for p in rec["plans"] if p.get("recommended")] or \
        [rec["plans"][1]]
    scn = {"schema": "gpuplan-scenario/1", "name": "forward",
           "window": {"start": cut, "end": end},
           "adjustments": {"spot_price_factor": 10},
           "strategies": [{"name": "forward",
                           "add_commitments": plan[0]["commitments"]}]}
    path = os.path.join(out, name + ".forward.json")
    json.dump(scn, open(path, "w"))
    sim = json.loads(subprocess.run(
        [gpuplan, "simulate", "--json", "--quiet", "--trace",
         os.path.join(out, csvname), "--scenario", path],
        check=True, capture_output=True, text=True).stdout)
    saved = (sim["strategies"][0]["total_cost"]
             - sim["strategies"][1]["total_cost"])
    best = bt["hindsight_commitment_net_savings"]
    print("| %s | %d | $%s | $%s | %.3f | %.3f |" % (
        name, hours, format(round(saved), ","), format(round(best), ","),
        saved / best if best > 0 else 1.0,
        bt["commitment_captured_fraction"]))
