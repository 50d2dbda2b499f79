#!/usr/bin/env python3
"""Turn the shared real GPU traces into gpuplan traces for the recommender
backtests (bench/backtest/run.sh, bench/README.md "Recommender backtests").

  helios-vc6YE.csv   SenseTime Helios vc6YE, all of May 2020, training
  helios-vcpDC.csv   SenseTime Helios vcpDC, all of May 2020, training
                     GPUs = running_gpu_num + pending_gpu_num (the queue is
                     demand), 10-minute means, on p4d.24xlarge (8x A100;
                     gpuplan bills ceil(gpus/8) per row), +6 years:
                     2020-05-01 (Fri) -> 2026-05-01 (Fri).
  philly.csv         Microsoft Philly, per-minute active nodes, training,
                     73 whole days 2017-10-03 .. 2017-12-14, shifted by
                     470 weeks to 2026-10-06 .. 2026-12-17 (Tuesdays both);
                     one node = NODE_GPUS GPUs of p3.2xlarge (see below).
  servegen-m-large.csv
                     Alibaba ServeGen m-large, 162 clients, all 14 days,
                     inference on g6e.xlarge, ceil(req/s / 9) instances per
                     10-minute window: the same rows as the inference half
                     of scenarios/sample/trace.csv.

Usage:  python3 bench/backtest/convert.py [DATA_DIR [OUT_DIR]]
        DATA_DIR defaults to ../shared/data relative to the repository root,
        OUT_DIR to /tmp/gpuplan-backtest.
Python 3 standard library only; deterministic (fixed order, exact decimal
arithmetic, no clocks, LF line endings).  Exits 1 with a message, and writes
nothing for that trace, when an input is missing or malformed.
"""

import csv
import datetime as dt
import glob
import math
import os
import re
import sys
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_DATA = os.path.join(REPO_ROOT, "..", "shared", "data")
DEFAULT_OUT = "/tmp/gpuplan-backtest"

STEP_S = 600                              # 10-minute rows everywhere
PROVIDER, REGION = "aws", "us-east-1"

# --- Helios --------------------------------------------------------------
HELIOS_YEAR_SHIFT = 6                     # 2020-05-01 Fri -> 2026-05-01 Fri
HELIOS_START = dt.datetime(2020, 5, 1)
HELIOS_DAYS = 31
HELIOS_TYPE = "p4d.24xlarge"              # 8x A100 40 GB, as in the sample

# --- Philly ----------------------------------------------------------------
# Philly's servers had 2 GPUs (12 GB) or 8 GPUs (24 GB) of the Pascal
# generation (P100/P40), and the node sequence does not say which nodes were
# which.  We take 4 GPUs per active node (between the two server shapes) and
# run them on the catalog's closest training GPU, the V100 of p3.2xlarge
# (1 GPU, $3.06/h): the trace's `gpus` = 4 x mean active nodes, and gpuplan
# bills ceil(gpus) p3.2xlarge per row.  The count only scales the dollars;
# the shape of demand, the type's discounts and its spot terms are what the
# recommender reacts to.
PHILLY_NODE_GPUS = 4
PHILLY_TYPE = "p3.2xlarge"
PHILLY_START = dt.datetime(2017, 10, 3)  # a Tuesday
PHILLY_DAYS = 73                          # whole days; 12-15 is cut at 18:42
PHILLY_WEEK_SHIFT = 470                   # -> 2026-10-06, a Tuesday

# --- ServeGen (the sample's service rate: scenarios/sample/README.md) ------
SERVICE_RATE_AT_100PCT_RPS = Decimal("12")
TARGET_UTILIZATION = Decimal("0.75")
SERVICE_RATE_AT_TARGET_RPS = SERVICE_RATE_AT_100PCT_RPS * TARGET_UTILIZATION
SERVEGEN_START = dt.datetime(2026, 5, 1)  # ts 0 (a midnight) -> Friday
SERVEGEN_DAYS = 14
SERVEGEN_CLIENTS = 162
SERVEGEN_TYPE = "g6e.xlarge"

COLUMNS = ["timestamp", "step_s", "provider", "region", "instance_type",
           "workload", "gpus", "instances", "gpu_util", "team", "project",
           "interruptible"]


def die(msg):
    sys.stderr.write("convert.py: " + msg + "\n")
    sys.exit(1)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def per_minute(path, value, start, days):
    """{minute offset from start: int} for rows of a per-minute CSV with a
    `time` column inside [start, start + days)."""
    end = start + dt.timedelta(days=days)
    out = {}
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if "time" not in (reader.fieldnames or []):
            die("%s: no `time` column" % path)
        for line, rec in enumerate(reader, start=2):
            try:
                t = dt.datetime.strptime(rec["time"], "%Y-%m-%d %H:%M:%S")
                v = value(rec)
            except (ValueError, KeyError, TypeError):
                die("%s:%d: bad time or count" % (path, line))
            if t < start or t >= end:
                continue
            if t.second or v < 0:
                die("%s:%d: not on a minute, or negative" % (path, line))
            m = int((t - start).total_seconds()) // 60
            if m in out:
                die("%s:%d: duplicate minute" % (path, line))
            out[m] = v
    return out


def ten_minute_means(minutes, days, path, allow_gaps):
    """Exact sum and count of the minutes present per 10-minute window."""
    per = STEP_S // 60
    n = days * 86400 // STEP_S
    sums, counts = [0] * n, [0] * n
    for m, v in minutes.items():
        sums[m // per] += v
        counts[m // per] += 1
    missing = sum(per - c for c in counts)
    if missing and not allow_gaps:
        die("%s: %d minutes missing" % (path, missing))
    return sums, counts, missing


def fmt_decimal(x):
    """Shortest exact text of a Decimal: 196.3, 170."""
    s = format(x.normalize(), "f")
    return s


def write(out_dir, name, rows):
    path = os.path.join(out_dir, name)
    tmp = path + ".tmp"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in rows:
            w.writerow(r)
    os.replace(tmp, path)
    return path


def helios(data_dir, out_dir, vc):
    path = os.path.join(data_dir, "traces", "helios", vc + ".csv")
    mins = per_minute(
        path, lambda r: int(r["running_gpu_num"]) + int(r["pending_gpu_num"]),
        HELIOS_START, HELIOS_DAYS)
    sums, counts, _ = ten_minute_means(mins, HELIOS_DAYS, path, False)
    start = HELIOS_START.replace(year=HELIOS_START.year + HELIOS_YEAR_SHIFT)
    if start.weekday() != HELIOS_START.weekday():
        die("Helios shift does not keep the weekday")
    rows = []
    for i, (s, c) in enumerate(zip(sums, counts)):
        t = start + dt.timedelta(seconds=i * STEP_S)
        gpus = fmt_decimal(Decimal(s) / Decimal(c))
        rows.append([iso(t), STEP_S, PROVIDER, REGION, HELIOS_TYPE,
                     "training", gpus, "", "", "research", "helios-" + vc,
                     "true"])
    p = write(out_dir, "helios-%s.csv" % vc, rows)
    return p, len(rows), ""


def philly(data_dir, out_dir):
    path = os.path.join(data_dir, "traces", "philly",
                        "philly_node_sequence.csv")
    mins = per_minute(path, lambda r: int(r["active"]), PHILLY_START,
                      PHILLY_DAYS)
    sums, counts, missing = ten_minute_means(mins, PHILLY_DAYS, path, True)
    start = PHILLY_START + dt.timedelta(weeks=PHILLY_WEEK_SHIFT)
    if start.weekday() != PHILLY_START.weekday():
        die("Philly shift does not keep the weekday")
    rows, empty = [], 0
    for i, (s, c) in enumerate(zip(sums, counts)):
        t = start + dt.timedelta(seconds=i * STEP_S)
        if c == 0:
            # No minute recorded in the window (the sequence has one such
            # gap, 2017-10-25 14:01 to 23:59, after which it resumes at 0
            # active nodes): written as 0, what the cluster recorded on
            # either side of the outage, rather than invented demand.
            gpus = "0"
            empty += 1
        else:
            gpus = fmt_decimal(Decimal(PHILLY_NODE_GPUS * s) / Decimal(c))
        rows.append([iso(t), STEP_S, PROVIDER, REGION, PHILLY_TYPE,
                     "training", gpus, "", "", "research", "philly", "true"])
    p = write(out_dir, "philly.csv", rows)
    note = ("%d minutes missing; %d windows with no minute written as 0"
            % (missing, empty)) if missing else ""
    return p, len(rows), note


def chunk_id(path):
    return int(re.search(r"chunk-(\d+)-trace\.csv$", path).group(1))


def servegen_clients(data_dir, sub, pattern):
    """{client id: [10-minute rates]} of a ServeGen folder (one row per
    10-minute window; windows a file leaves out are 0).  Also used by
    bench/classify/make_eval.py and bench/forecast-accuracy/accuracy.py."""
    out = {}
    for path in glob.glob(os.path.join(data_dir, "traces", "servegen", sub,
                                       pattern)):
        cid = chunk_id(path)
        rates = {}
        with open(path, newline="", encoding="utf-8") as f:
            for rec in csv.reader(f):
                rates[int(float(rec[0]))] = float(rec[1])
        n = max(rates) // STEP_S + 1
        out[cid] = [rates.get(i * STEP_S, 0.0) for i in range(n)]
    return out


def servegen(data_dir, out_dir):
    pattern = os.path.join(data_dir, "traces", "servegen", "m-large",
                           "chunk-*-trace.csv")
    files = sorted(glob.glob(pattern), key=chunk_id)
    if len(files) != SERVEGEN_CLIENTS:
        die("%s: expected %d client files, found %d"
            % (pattern, SERVEGEN_CLIENTS, len(files)))
    per_window = {}
    for path in files:
        with open(path, newline="", encoding="utf-8") as f:
            for line, rec in enumerate(csv.reader(f), start=1):
                if len(rec) != 6:
                    die("%s:%d: expected 6 columns" % (path, line))
                ts, rate = float(rec[0]), float(rec[1])
                if ts != int(ts) or int(ts) % STEP_S or \
                        not math.isfinite(rate) or rate < 0:
                    die("%s:%d: bad timestamp or rate" % (path, line))
                per_window.setdefault(int(ts), []).append(rate)
    expected = list(range(0, SERVEGEN_DAYS * 86400, STEP_S))
    if sorted(per_window) != expected:
        die("%s: windows are not 0..%d step %d"
            % (pattern, expected[-1], STEP_S))
    rows = []
    for ts in expected:
        rates = per_window[ts]
        if len(rates) != len(files):
            die("%s: window %d in %d of %d files"
                % (pattern, ts, len(rates), len(files)))
        rate = Decimal(repr(math.fsum(rates))).quantize(Decimal("0.000001"))
        inst = int((rate / SERVICE_RATE_AT_TARGET_RPS)
                   .to_integral_value(rounding=ROUND_CEILING))
        inst = max(inst, 1)
        util = Decimal(100) * rate / (inst * SERVICE_RATE_AT_100PCT_RPS)
        util = min(max(util, Decimal(0)), Decimal(100))
        util = util.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
        t = SERVEGEN_START + dt.timedelta(seconds=ts)
        rows.append([iso(t), STEP_S, PROVIDER, REGION, SERVEGEN_TYPE,
                     "inference", "", str(inst), str(util), "platform",
                     "servegen-m-large", "false"])
    p = write(out_dir, "servegen-m-large.csv", rows)
    return p, len(rows), ""


def main(argv):
    if len(argv) > 3 or (len(argv) >= 2 and argv[1] in ("-h", "--help")):
        sys.stderr.write(__doc__)
        return 2
    data_dir = argv[1] if len(argv) >= 2 else DEFAULT_DATA
    out_dir = argv[2] if len(argv) == 3 else DEFAULT_OUT
    if not os.path.isdir(data_dir):
        die("data directory not found: " + data_dir)
    os.makedirs(out_dir, exist_ok=True)
    for job in (lambda: helios(data_dir, out_dir, "vc6YE"),
                lambda: helios(data_dir, out_dir, "vcpDC"),
                lambda: philly(data_dir, out_dir),
                lambda: servegen(data_dir, out_dir)):
        path, n, note = job()
        sys.stderr.write("convert.py: wrote %d rows to %s%s\n"
                         % (n, path, "; " + note if note else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
