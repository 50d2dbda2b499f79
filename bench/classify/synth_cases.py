#!/usr/bin/env python3
"""The synthetic hard cases of the classify evaluation (issue #34): shapes
the real sources lack, each on a 1-GPU inference part (g6e.xlarge) and an
8-GPU training node (p4d.24xlarge), with and without gpu_util, 5 seeds:

  flat-serving     always-on serving: a constant fleet, one replaced
                   instance and a partial first hour; util follows a
                   daily load (35% +- 20)
  saturated-train  a training cluster that is always full: constant, one
                   hour one node short; util 93% +- 2
  small-jobs       sparse small-job training: 1-2 instances for about 10
                   hours at a time, Poisson arrivals (0.05 an hour), mostly
                   idle between; job_id per run; util 85% +- 5 in a run
  flat-noisy-serve serving with no daily cycle: an AR(1) fleet around a
                   level; util 40% +- 25, moving with the fleet

14 days of hourly rows from 2026-03-02 (a Monday).  Deterministic
(random.Random(seed)).  Used by make_eval.py; Python 3 stdlib only.
"""

import datetime as dt
import math
import random

START = dt.datetime(2026, 3, 2)
HOURS = 14 * 24
TYPES = ("g6e.xlarge", "p4d.24xlarge")
KINDS = ("flat-serving", "saturated-train", "small-jobs", "flat-noisy-serve")


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def flat_serving(rng):
    n = rng.randint(2, 40)
    x = [float(n)] * HOURS
    x[0] = n * 0.5                      # a partial first hour
    x[rng.randrange(1, HOURS)] = n - 1  # a replaced instance
    util = [clamp(35 + 20 * math.sin(2 * math.pi * (h % 24 - 8) / 24) +
                  rng.gauss(0, 5), 2, 98) for h in range(HOURS)]
    return [(h, x[h], util[h], "") for h in range(HOURS)]


def saturated_train(rng):
    n = rng.randint(2, 40)
    x = [float(n)] * HOURS
    x[rng.randrange(HOURS)] = n - 1
    return [(h, x[h], clamp(rng.gauss(93, 2), 0, 100), "")
            for h in range(HOURS)]


def small_jobs(rng):
    rows, h, k = [], 0.0, 0
    while True:
        h += rng.expovariate(0.05)
        if h >= HOURS:
            break
        k += 1
        size = rng.choice((1, 1, 2))
        length = max(1, int(rng.expovariate(1 / 10.0)))
        for t in range(int(h), min(HOURS, int(h) + length)):
            rows.append((t, float(size), clamp(rng.gauss(85, 5), 0, 100),
                         "j%d" % k))
    return rows


def flat_noisy_serve(rng):
    level = rng.randint(5, 40)
    v, rows = float(level), []
    for h in range(HOURS):
        v = level + 0.9 * (v - level) + rng.gauss(0, 0.1 * level)
        n = max(1, round(v))
        rows.append((h, float(n),
                     clamp(40 + 25 * (v - level) / level * 3 +
                           rng.gauss(0, 8), 2, 98), ""))
    return rows


MAKERS = {"flat-serving": (flat_serving, "inference"),
          "saturated-train": (saturated_train, "training"),
          "small-jobs": (small_jobs, "training"),
          "flat-noisy-serve": (flat_noisy_serve, "inference")}


def write(out):
    """Writes every synthetic series through make_eval.py's Writer."""
    for kind in KINDS:
        make, label = MAKERS[kind]
        for itype in TYPES:
            for with_util in (False, True):
                for seed in range(5):
                    rng = random.Random("%s/%s/%d/%d" % (kind, itype,
                                                         with_util, seed))
                    team, proj = out.neutral()
                    for h, n, util, job in make(rng):
                        if n <= 0:
                            continue
                        t = START + dt.timedelta(hours=h)
                        out.w.writerow([t.strftime("%Y-%m-%dT%H:%M:%SZ"),
                                        3600, "aws", "us-east-1", itype, "",
                                        "%g" % n, "", team, proj,
                                        "%.1f" % util if with_util else "",
                                        job if with_util else ""])
                    out.truth.writerow([team, proj, label, "synth-" + kind,
                                        "14", "%s/%s/util=%d/%d" % (
                                            kind, itype, with_util, seed)])
                    out.n += 1
