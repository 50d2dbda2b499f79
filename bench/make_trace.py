#!/usr/bin/env python3
"""make_trace.py: write a large, realistic, valid gpuplan trace CSV.

    python3 bench/make_trace.py --out /tmp/trace.csv [--size-mb 1100]
        [--seed 1] [--time epoch|iso] [--jobs 300] [--start 2026-01-05]

The trace is what a cluster exporter (Slurm sacct polled every 5 minutes, or
a Kubernetes/DCGM scrape) would write: one row per running job per 300 s
step, columns

    timestamp,step_s,instance_type,workload,instances,gpu_util,team,project,job_id

A few hundred jobs run at once (the target swings with the time of day and
the weekday); each job keeps its instance type, workload, team and project
for its whole life and has a row at every step from its start to its end,
so one job_id's consecutive rows form one run.  Rows are in time order.

  training   p4d.24xlarge, p5.48xlarge, g5.12xlarge, g6e.xlarge: 1-16
             instances for hours to days, gpu_util 70-99 with dips
             (checkpoints, data stalls);
  inference  g5.xlarge, g6e.xlarge, g5.12xlarge: services that live for
             days, instance count and gpu_util follow the day;
  notebooks  g5.xlarge, g6e.xlarge: 1 instance for an hour or two, low
             and bursty gpu_util, workload left empty (classify decides).

Every instance type is in pricing/aws/us-east-1.json, and no region or
provider column is needed: that catalog is the only one that knows them.
The same --seed and arguments give the same bytes (Python's random.Random
is stable across versions for random(), gauss() and the like used here).
Standard library only.
"""

import argparse
import calendar
import math
import random
import sys
import time

STEP = 300

TEAMS = {
    "research": ["llm-pretrain", "llm-rlhf", "multimodal", "scaling-laws"],
    "platform": ["serving-core", "embeddings", "eval-harness"],
    "ads": ["ctr-model", "creative-gen", "bidding"],
    "search": ["ranker", "query-embed", "rag-index"],
    "vision": ["detector-v7", "video-understanding", "segmentation"],
    "speech": ["asr-large", "tts"],
    "recsys": ["two-tower", "feed-ranker", "candidate-gen"],
    "nlp": ["translation", "summarize", "safety-classifier"],
}
TEAM_NAMES = sorted(TEAMS)

# (instance_type, weight, min instances, max instances) per kind
TRAINING_TYPES = [("p4d.24xlarge", 5, 1, 16), ("p5.48xlarge", 3, 1, 8),
                  ("g5.12xlarge", 3, 1, 8), ("g6e.xlarge", 2, 1, 4)]
INFERENCE_TYPES = [("g5.xlarge", 5, 2, 24), ("g6e.xlarge", 4, 2, 16),
                   ("g5.12xlarge", 2, 1, 6)]
NOTEBOOK_TYPES = [("g5.xlarge", 3, 1, 1), ("g6e.xlarge", 1, 1, 1)]
KINDS = [("training", 65), ("inference", 10), ("notebook", 25)]


def pick(rng, items):
    """Weighted choice over (item..., weight, ...) tuples, weight at [1]."""
    total = sum(it[1] for it in items)
    x = rng.random() * total
    for it in items:
        x -= it[1]
        if x < 0:
            return it
    return items[-1]


class Job:
    __slots__ = ("kind", "end", "mid", "tail", "n", "nmax", "util", "phase")


def new_job(rng, serial, now):
    j = Job()
    kind = pick(rng, KINDS)[0]
    j.kind = kind
    team = TEAM_NAMES[int(rng.random() * len(TEAM_NAMES))]
    project = rng.choice(TEAMS[team])
    if kind == "training":
        itype, _, lo, hi = pick(rng, TRAINING_TYPES)
        # lognormal: median ~6 h, long tail to several days
        hours = min(rng.lognormvariate(math.log(6), 1.1), 14 * 24)
        # powers of two, as data-parallel jobs ask for
        sizes = [s for s in (1, 2, 4, 8, 16) if lo <= s <= hi]
        j.n = rng.choice(sizes)
        j.util = rng.uniform(78, 96)
        workload = "training"
        prefix = "train"
    elif kind == "inference":
        itype, _, lo, hi = pick(rng, INFERENCE_TYPES)
        hours = min(rng.lognormvariate(math.log(48), 0.9), 30 * 24)
        j.n = rng.randint(lo, hi)
        j.util = rng.uniform(35, 70)
        workload = "inference"
        prefix = "svc"
    else:
        itype, _, lo, hi = pick(rng, NOTEBOOK_TYPES)
        hours = rng.uniform(0.5, 4)
        j.n = 1
        j.util = rng.uniform(5, 30)
        workload = ""
        prefix = "nb"
    steps = max(1, int(hours * 3600 / STEP))
    j.end = now + steps * STEP
    j.nmax = j.n
    j.phase = rng.random() * 2 * math.pi
    j.mid = ",%d,%s,%s," % (STEP, itype, workload)
    j.tail = ",%s,%s,%s-%07d\n" % (team, project, prefix, serial)
    return j


def day_factor(t):
    """0..1 load of the cluster by UTC hour of day and weekday."""
    hour = (t % 86400) / 3600.0
    wday = (t // 86400 + 3) % 7  # 1970-01-01 was a Thursday; 0 = Monday
    f = 0.5 + 0.5 * math.sin((hour - 9) / 24 * 2 * math.pi)
    if wday >= 5:
        f *= 0.6
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="file to write (- = stdout)")
    ap.add_argument("--size-mb", type=float, default=1100,
                    help="stop after this many MB (10^6 bytes); default 1100")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", choices=["epoch", "iso"], default="epoch")
    ap.add_argument("--jobs", type=int, default=300,
                    help="mean number of concurrent jobs (default 300)")
    ap.add_argument("--start", default="2026-01-05",
                    help="first day, UTC (default 2026-01-05, a Monday)")
    a = ap.parse_args()

    rng = random.Random(a.seed)
    t = calendar.timegm(time.strptime(a.start, "%Y-%m-%d"))
    limit = int(a.size_mb * 1e6)
    out = sys.stdout if a.out == "-" else open(a.out, "w", newline="",
                                               buffering=1 << 20)
    header = ("timestamp,step_s,instance_type,workload,instances,gpu_util,"
              "team,project,job_id\n")
    out.write(header)
    written = len(header)
    rows = 0
    serial = 0
    jobs = []
    peak = 0
    gauss = rng.gauss
    random_ = rng.random
    sin = math.sin
    while written < limit:
        if a.time == "epoch":
            ts = str(t)
        else:
            ts = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))
        load = day_factor(t)
        # jobs that have ended leave; new ones arrive up to the target
        jobs = [j for j in jobs if j.end > t]
        target = int(a.jobs * (0.75 + 0.5 * load))
        while len(jobs) < target:
            serial += 1
            jobs.append(new_job(rng, serial, t))
        peak = max(peak, len(jobs))
        parts = []
        for j in jobs:
            if j.kind == "training":
                u = j.util + gauss(0, 3)
                if random_() < 0.02:  # checkpoint or input stall
                    u *= 0.2
                n = j.n
            elif j.kind == "inference":
                wave = 0.5 + 0.5 * sin(t / 86400 * 2 * math.pi + j.phase)
                n = max(1, round(j.nmax * (0.4 + 0.6 * wave)))
                u = j.util * (0.6 + 0.6 * load) + gauss(0, 4)
            else:
                n = 1
                u = j.util + gauss(0, 10) if random_() < 0.7 else 0.0
            if u < 0:
                u = 0.0
            elif u > 100:
                u = 100.0
            parts.append("%s%s%d,%.1f%s" % (ts, j.mid, n, u, j.tail))
        chunk = "".join(parts)
        out.write(chunk)
        written += len(chunk)  # ASCII only: characters = bytes
        rows += len(parts)
        t += STEP
    if out is not sys.stdout:
        out.close()
    print("make_trace: %d bytes, %d rows, %d jobs, %.1f days, peak %d "
          "concurrent jobs" % (written, rows, serial, (t - calendar.timegm(
              time.strptime(a.start, "%Y-%m-%d"))) / 86400, peak),
          file=sys.stderr)


if __name__ == "__main__":
    main()
