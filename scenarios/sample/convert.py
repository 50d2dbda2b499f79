#!/usr/bin/env python3
"""Build gpuplan's bundled sample trace (scenarios/sample/trace.csv).

Two real public traces become one 14-day gpuplan trace (SPEC section 2):

  training   SenseTime Helios, virtual cluster vc6YE, per-minute GPU counts
             (traces/helios/vc6YE.csv).  Demand = running_gpu_num +
             pending_gpu_num, averaged over 10 minutes, run as AWS us-east-1
             p4d.24xlarge (8 GPUs each; gpuplan bills ceil(gpus/8)).
  inference  Alibaba ServeGen, language model "m-large", 162 clients,
             req/s per 10-minute window (traces/servegen/m-large/).
             Total req/s -> whole AWS us-east-1 g6e.xlarge instances (1x L40S)
             at the service rate below.

Usage:  python3 convert.py [DATA_DIR]
        DATA_DIR defaults to ../shared/data relative to the repository root.
Writes trace.csv next to this script.  Python 3 standard library only; the
output is byte-for-byte deterministic (fixed file order, exact sums, no
clocks, LF line endings).  See README.md for the reasoning behind every
constant.
"""

import csv
import datetime as dt
import glob
import math
import os
import re
import sys
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal

# --- Inference capacity assumption (read README.md, "Service rate") --------
# Requests per second ONE g6e.xlarge (1x NVIDIA L40S 48 GB, an 8B-class model
# in FP8 under vLLM-style continuous batching) sustains at 100% of its
# usable serving capacity, i.e. the highest rate that still meets an
# interactive latency objective.
SERVICE_RATE_AT_100PCT_RPS = Decimal("12")
# The autoscaler sizes the fleet so that each instance runs at this fraction
# of SERVICE_RATE_AT_100PCT_RPS (headroom for bursts inside a window).
TARGET_UTILIZATION = Decimal("0.75")
# => requests per second one instance carries at the target: 9 req/s.
SERVICE_RATE_AT_TARGET_RPS = SERVICE_RATE_AT_100PCT_RPS * TARGET_UTILIZATION
# A serving fleet never scales to zero in this sample (never reached here:
# the lowest total rate in the window is 48 req/s).
MIN_INFERENCE_INSTANCES = 1

# --- Calendar ---------------------------------------------------------------
START = dt.datetime(2026, 5, 1)          # 2026-05-01T00:00:00Z, a Friday
DAYS = 14
STEP_S = 600                             # 10-minute rows for both workloads
HELIOS_YEAR_SHIFT = 6                    # 2020-05-01 (Friday) -> 2026-05-01

# --- Pools and labels ---------------------------------------------------------
PROVIDER = "aws"
REGION = "us-east-1"
TRAINING = {"instance_type": "p4d.24xlarge", "gpus_per_instance": 8,
            "team": "research", "project": "helios-vc6YE",
            "interruptible": "true"}
INFERENCE = {"instance_type": "g6e.xlarge", "gpus_per_instance": 1,
             "team": "platform", "project": "servegen-m-large",
             "interruptible": "false"}

COLUMNS = ["timestamp", "step_s", "provider", "region", "instance_type",
           "workload", "gpus", "instances", "gpu_util", "team", "project",
           "interruptible"]

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_DATA = os.path.join(REPO_ROOT, "..", "shared", "data")


def die(msg):
    sys.stderr.write("convert.py: " + msg + "\n")
    sys.exit(1)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def fmt_tenths(total):
    """Exact decimal text of total/10 for a non-negative integer total:
    1963 -> '196.3', 1960 -> '196'."""
    whole, tenth = divmod(total, 10)
    return str(whole) if tenth == 0 else "%d.%d" % (whole, tenth)


def training_rows(data_dir):
    """Helios vc6YE, first 14 days, as 10-minute mean GPU demand."""
    path = os.path.join(data_dir, "traces", "helios", "vc6YE.csv")
    end = START + dt.timedelta(days=DAYS)
    bins = {}                            # bin start -> [sum of demand, minutes]
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        for need in ("time", "running_gpu_num", "pending_gpu_num"):
            if need not in (reader.fieldnames or []):
                die("%s: missing column %s" % (path, need))
        for line, rec in enumerate(reader, start=2):
            src = dt.datetime.strptime(rec["time"], "%Y-%m-%d %H:%M:%S")
            t = src.replace(year=src.year + HELIOS_YEAR_SHIFT)
            if t < START or t >= end:
                continue
            try:
                demand = int(rec["running_gpu_num"]) + int(rec["pending_gpu_num"])
            except ValueError:
                die("%s:%d: GPU counts are not integers" % (path, line))
            if demand < 0:
                die("%s:%d: negative GPU demand" % (path, line))
            offset = int((t - START).total_seconds())
            b = START + dt.timedelta(seconds=offset - offset % STEP_S)
            acc = bins.setdefault(b, [0, set()])
            if t in acc[1]:
                die("%s:%d: duplicate minute %s" % (path, line, rec["time"]))
            acc[0] += demand
            acc[1].add(t)
    minutes = STEP_S // 60
    expected = DAYS * 86400 // STEP_S
    if len(bins) != expected:
        die("%s: expected %d ten-minute windows, got %d"
            % (path, expected, len(bins)))
    rows = []
    for b in sorted(bins):
        total, seen = bins[b]
        if len(seen) != minutes:
            die("%s: window %s has %d of %d minutes"
                % (path, iso(b), len(seen), minutes))
        # mean over 10 one-minute samples = total / 10, exact in one decimal
        rows.append((b, "training", {"gpus": fmt_tenths(total)}))
    return rows


def chunk_id(path):
    m = re.search(r"chunk-(\d+)-trace\.csv$", path)
    return int(m.group(1))


def servegen_total_rate(data_dir):
    """Sum of req/s over all m-large clients, per window offset (seconds)."""
    pattern = os.path.join(data_dir, "traces", "servegen", "m-large",
                           "chunk-*-trace.csv")
    files = sorted(glob.glob(pattern), key=chunk_id)
    if len(files) != 162:
        die("%s: expected 162 client files, found %d" % (pattern, len(files)))
    per_window = {}
    for path in files:
        with open(path, newline="", encoding="utf-8") as f:
            for line, rec in enumerate(csv.reader(f), start=1):
                if len(rec) != 6:
                    die("%s:%d: expected 6 columns" % (path, line))
                ts, rate = float(rec[0]), float(rec[1])
                if ts != int(ts) or int(ts) % STEP_S or not math.isfinite(rate) \
                        or rate < 0:
                    die("%s:%d: bad timestamp or rate" % (path, line))
                per_window.setdefault(int(ts), []).append(rate)
    expected = list(range(0, DAYS * 86400, STEP_S))
    if sorted(per_window) != expected:
        die("%s: windows are not 0..%d step %d"
            % (pattern, expected[-1], STEP_S))
    for ts, rates in per_window.items():
        if len(rates) != len(files):
            die("%s: window %d present in %d of %d files"
                % (pattern, ts, len(rates), len(files)))
    # math.fsum is exactly rounded, so the total does not depend on order
    return {ts: math.fsum(r) for ts, r in per_window.items()}


def inference_rows(data_dir):
    rows = []
    totals = servegen_total_rate(data_dir)
    for ts in sorted(totals):
        rate = Decimal(repr(totals[ts])).quantize(Decimal("0.000001"))
        instances = int((rate / SERVICE_RATE_AT_TARGET_RPS)
                        .to_integral_value(rounding=ROUND_CEILING))
        instances = max(instances, MIN_INFERENCE_INSTANCES)
        util = Decimal(100) * rate / (instances * SERVICE_RATE_AT_100PCT_RPS)
        util = min(max(util, Decimal(0)), Decimal(100))
        util = util.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
        rows.append((START + dt.timedelta(seconds=ts), "inference",
                     {"instances": str(instances), "gpu_util": str(util)}))
    return rows


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        sys.stderr.write(__doc__)
        return 2
    data_dir = argv[1] if len(argv) == 2 else DEFAULT_DATA
    if not os.path.isdir(data_dir):
        die("data directory not found: " + data_dir)
    rows = training_rows(data_dir) + inference_rows(data_dir)
    order = {"training": 0, "inference": 1}
    rows.sort(key=lambda r: (r[0], order[r[1]]))
    out = os.path.join(HERE, "trace.csv")
    tmp = out + ".tmp"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for t, workload, values in rows:
            pool = TRAINING if workload == "training" else INFERENCE
            w.writerow([iso(t), STEP_S, PROVIDER, REGION,
                        pool["instance_type"], workload,
                        values.get("gpus", ""), values.get("instances", ""),
                        values.get("gpu_util", ""), pool["team"],
                        pool["project"], pool["interruptible"]])
    os.replace(tmp, out)
    sys.stderr.write("convert.py: wrote %d rows to %s\n" % (len(rows), out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
