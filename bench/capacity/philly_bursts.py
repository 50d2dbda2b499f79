#!/usr/bin/env python3
"""Philly's job-sized bursts as a jobs-layout trace for recommend's capacity
actions (docs/recommend.md, "Capacity per large job run").

Usage: python3 bench/backtest/convert.py DATA OUT && \
       python3 bench/capacity/philly_bursts.py OUT/philly.csv > bursts.csv
The same works on scenarios/sample/trace.csv (its training rows).
"""
# Philly's job-sized bursts: hourly mean GPUs; baseline = the 10th
# percentile; a burst = a maximal stretch of hours whose excess over the
# baseline is >= 64 GPUs (8 x 8-GPU instances), kept when >= 24 h; its
# size = the stretch's lowest excess, re-hosted on p4d.24xlarge (8 GPUs).
import csv, math, sys, collections, datetime as dt
rows = list(csv.DictReader(open(sys.argv[1])))
hour = collections.defaultdict(list)
for r in rows:
    # training rows only (the bundled sample also has inference)
    if r.get("workload", "training") == "training" and r["gpus"]:
        hour[r["timestamp"][:13]].append(float(r["gpus"]))
keys = sorted(hour)
g = [sum(hour[k]) / len(hour[k]) for k in keys]
base = sorted(g)[len(g) // 10]
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["job_id", "start", "end", "instance_type", "instances", "workload"])
i = n = 0
while i < len(g):
    if g[i] - base < 64:
        i += 1; continue
    j = i
    while j < len(g) and g[j] - base >= 64:
        j += 1
    if j - i >= 24:
        low = min(g[i:j]) - base
        n += 1
        s = dt.datetime.strptime(keys[i], "%Y-%m-%dT%H")
        e = s + dt.timedelta(hours=j - i)
        out.writerow(["burst%d" % n, s.strftime("%Y-%m-%dT%H:00:00Z"),
                      e.strftime("%Y-%m-%dT%H:00:00Z"), "p4d.24xlarge",
                      int(low // 8), "training"])
    i = j
print("baseline GPUs %.0f, bursts %d" % (base, n), file=sys.stderr)
