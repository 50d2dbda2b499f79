#!/usr/bin/env python3
"""Compute the sample's statistics straight from trace.csv -> summary.json.

Independent of convert.py (it imports nothing from it): it re-reads the
trace as written, by header name, and applies SPEC section 2's billing
rules: a row contributes instances x step_s/3600 instance-hours, with
instances = ceil(gpus / gpus_per_instance) when only gpus is given; useful
GPU-hours = gpus x gpu_util/100 x hours.  Exact decimal arithmetic, so the
numbers do not depend on summation order.

The mean request rate is taken from the raw ServeGen files (a second,
separate reading of the source), and also reconstructed from the trace's
inference rows as a cross-check.

Usage:  python3 summarize.py [DATA_DIR]     (default ../shared/data from the
repository root).  Writes summary.json next to this script.
"""

import csv
import glob
import json
import os
import sys
from collections import defaultdict
from decimal import ROUND_CEILING, Decimal
from fractions import Fraction

GPUS_PER_INSTANCE = {"p4d.24xlarge": 8, "g6e.xlarge": 1}
SERVICE_RATE_AT_100PCT_RPS = Decimal("12")  # must match convert.py

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))


def rnd(x, places=6):
    return float(round(Fraction(x), places))


def main(argv):
    data_dir = argv[1] if len(argv) > 1 else os.path.join(
        REPO_ROOT, "..", "shared", "data")
    stats = defaultdict(lambda: {"rows": 0, "instance_hours": Fraction(0),
                                 "gpu_hours": Fraction(0),
                                 "useful_gpu_hours": Fraction(0),
                                 "peak_instances": 0, "first": None,
                                 "last_end": None})
    reconstructed_rps = []
    with open(os.path.join(HERE, "trace.csv"), newline="",
              encoding="utf-8") as f:
        for rec in csv.DictReader(f):
            w = rec["workload"]
            s = stats[w]
            per = GPUS_PER_INSTANCE[rec["instance_type"]]
            hours = Fraction(int(rec["step_s"]), 3600)
            if rec.get("instances", ""):
                inst = Fraction(Decimal(rec["instances"]))
                gpus = inst * per
            else:
                gpus = Fraction(Decimal(rec["gpus"]))
                inst = Fraction(int((Decimal(rec["gpus"]) / per)
                                    .to_integral_value(rounding=ROUND_CEILING)))
            s["rows"] += 1
            s["instance_hours"] += inst * hours
            s["gpu_hours"] += gpus * hours
            if rec["gpu_util"] != "":
                util = Fraction(Decimal(rec["gpu_util"]))
                s["useful_gpu_hours"] += gpus * util / 100 * hours
            if w == "inference":
                reconstructed_rps.append(
                    inst * Fraction(SERVICE_RATE_AT_100PCT_RPS)
                    * Fraction(Decimal(rec["gpu_util"])) / 100)
            s["peak_instances"] = max(s["peak_instances"], inst)
            ts = rec["timestamp"]
            s["first"] = ts if s["first"] is None else min(s["first"], ts)
            s["last_end"] = ts if s["last_end"] is None else max(s["last_end"], ts)

    # Independent reading of the raw source for the mean request rate.
    per_window = defaultdict(float)
    for path in glob.glob(os.path.join(data_dir, "traces", "servegen",
                                       "m-large", "chunk-*-trace.csv")):
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.strip().split(",")
                if len(parts) >= 2 and parts[0] != "":
                    per_window[int(float(parts[0]))] += float(parts[1])
    rates = list(per_window.values())

    tr, inf = stats["training"], stats["inference"]
    summary = {
        "source": "computed by summarize.py from trace.csv as written",
        "window": {"start": "2026-05-01T00:00:00Z",
                   "end": "2026-05-15T00:00:00Z", "hours": 336},
        "rows": tr["rows"] + inf["rows"],
        "training_rows": tr["rows"],
        "inference_rows": inf["rows"],
        "training_instance_hours": rnd(tr["instance_hours"]),
        "inference_instance_hours": rnd(inf["instance_hours"]),
        "training_gpu_hours": rnd(tr["gpu_hours"]),
        "inference_gpu_hours": rnd(inf["gpu_hours"]),
        "useful_gpu_hours_inference": rnd(inf["useful_gpu_hours"]),
        "peak_instances_training": int(tr["peak_instances"]),
        "peak_instances_inference": int(inf["peak_instances"]),
        "mean_instances_training": rnd(tr["instance_hours"] / 336, 3),
        "mean_instances_inference": rnd(inf["instance_hours"] / 336, 3),
        "mean_gpus_training": rnd(tr["gpu_hours"] / 336, 3),
        "inference_mean_util_pct_weighted": rnd(
            100 * inf["useful_gpu_hours"] / inf["gpu_hours"], 2),
        "mean_req_per_s": round(sum(rates) / len(rates), 3) if rates else None,
        "min_req_per_s": round(min(rates), 3) if rates else None,
        "max_req_per_s": round(max(rates), 3) if rates else None,
        "mean_req_per_s_reconstructed_from_trace": rnd(
            sum(reconstructed_rps) / len(reconstructed_rps), 3),
        "first_row": min(tr["first"], inf["first"]),
        "last_row": max(tr["last_end"], inf["last_end"]),
    }
    out = os.path.join(HERE, "summary.json")
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
