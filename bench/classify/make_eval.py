#!/usr/bin/env python3
"""Build the classify evaluation set from the shared real traces: hundreds
of series whose workload is known from where they came from, written with
the label stripped (eval.csv) and the answers kept apart (truth.csv).

Training (the sources are training clusters; bench/backtest/convert.py
reads them the same way and its constants are reused):
  helios-<vc>-demand   Helios vc6YE / vcpDC, GPUs running + pending
  helios-<vc>-running  ... GPUs running only (what a bill would show)
  helios-<vc>-large    ... running + pending of jobs on >= 8 GPUs
  helios-<vc>-small    ... running + pending of jobs on < 8 GPUs
  philly               Philly, 4 GPUs per active node
Inference:
  servegen-share-<id>  ServeGen m-large client <id>: rate / 9 req/s
                       instances, fractional (its share of a shared fleet)
  servegen-fleet-<id>  ... max(1, ceil(rate / 9)) instances (a dedicated,
                       autoscaled endpoint that never scales to zero)
  servegen-all         all 162 m-large clients summed, fleet instances (the
                       bundled sample's inference half)
  servegen-r1-<id>     ServeGen deepseek-r1 client <id> (one day), share
  azure-llm-<service>  Azure LLM 2023 code / conversation (about an hour),
                       bench/classify/azure_llm.py
Mixtures (label = the source that supplies at least 75% of the
instance-hours): a Helios or Philly window plus a ServeGen client scaled to
a fifth of its instance-hours, and the reverse.

Every long series is also cut into non-overlapping windows of 3, 7 and 14
days (and 28 for Philly; 1 day for Philly and the Helios demand and small
variants, which the short-series fallback decides), each its own series
(its own `project`), so that short and long histories are both measured.  gpu_util is left out on
purpose: the classifier must work from the shape of demand alone.

Usage:  python3 make_eval.py DATA_DIR OUT_DIR
Python 3 standard library only; deterministic.
"""

import csv
import datetime as dt
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "backtest"))
import convert  # noqa: E402  (bench/backtest/convert.py)
import azure_llm  # noqa: E402
import synth_cases  # noqa: E402

STEP_S = convert.STEP_S
WINDOW_DAYS = (3, 7, 14)
COLUMNS = ["timestamp", "step_s", "provider", "region", "instance_type",
           "workload", "instances", "gpus", "team", "project", "gpu_util",
           "job_id"]
SERVICE_RATE = 9.0  # convert.py's SERVICE_RATE_AT_TARGET_RPS (12 x 0.75)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def helios_columns(data_dir, vc):
    """{variant: [10-minute mean GPUs]} of one Helios virtual cluster."""
    path = os.path.join(data_dir, "traces", "helios", vc + ".csv")
    variants = {
        "demand": lambda r: int(r["running_gpu_num"]) +
        int(r["pending_gpu_num"]),
        "running": lambda r: int(r["running_gpu_num"]),
        "large": lambda r: int(r["running_gpu_num_noless_8"]) +
        int(r["pending_gpu_num_noless_8"]),
        "small": lambda r: int(r["running_gpu_num_less_8"]) +
        int(r["pending_gpu_num_less_8"]),
    }
    out = {}
    for name, fn in variants.items():
        mins = convert.per_minute(path, fn, convert.HELIOS_START,
                                  convert.HELIOS_DAYS)
        sums, counts, _ = convert.ten_minute_means(mins, convert.HELIOS_DAYS,
                                                   path, False)
        out[name] = [s / c for s, c in zip(sums, counts)]
    return out


def philly_column(data_dir):
    path = os.path.join(data_dir, "traces", "philly",
                        "philly_node_sequence.csv")
    mins = convert.per_minute(path, lambda r: int(r["active"]),
                              convert.PHILLY_START, convert.PHILLY_DAYS)
    sums, counts, _ = convert.ten_minute_means(mins, convert.PHILLY_DAYS,
                                               path, True)
    return [convert.PHILLY_NODE_GPUS * s / c if c else 0.0
            for s, c in zip(sums, counts)]


class Writer:
    """Rows of every series into eval.csv, answers into truth.csv."""

    def __init__(self, out_dir):
        self.f = open(os.path.join(out_dir, "eval.csv"), "w", newline="",
                      encoding="utf-8")
        self.w = csv.writer(self.f, lineterminator="\n")
        self.w.writerow(COLUMNS)
        self.tf = open(os.path.join(out_dir, "truth.csv"), "w", newline="",
                       encoding="utf-8")
        self.truth = csv.writer(self.tf, lineterminator="\n")
        self.truth.writerow(["team", "project", "workload", "source",
                             "days", "name"])
        self.n = 0

    def neutral(self):
        """The next series' team and project: names that say nothing of
        the workload (the classifier reads words in labels)."""
        return "fleet", "s%05d" % self.n

    def series(self, team, project, label, source, start, values, itype,
               unit):
        """One series: 10-minute values from `start`; unit is `gpus` or
        `instances`.  Series with no demand are left out.  `team` and
        `project` are kept in truth.csv's `name` only."""
        if not any(v > 0 for v in values):
            return
        nteam, nproj = self.neutral()
        for i, v in enumerate(values):
            t = start + dt.timedelta(seconds=i * STEP_S)
            val = "%.6g" % v
            row = [iso(t), STEP_S, "aws", "us-east-1", itype, "",
                   val if unit == "instances" else "",
                   val if unit == "gpus" else "", nteam, nproj, "", ""]
            self.w.writerow(row)
        days = len(values) * STEP_S / 86400.0
        self.truth.writerow([nteam, nproj, label, source, "%g" % days,
                             "%s/%s" % (team, project)])
        self.n += 1

    def close(self):
        self.f.close()
        self.tf.close()


def windows(values, days_list):
    """(name, offset, slice) for the whole series and for non-overlapping
    windows of each length in days_list."""
    per_day = 86400 // STEP_S
    n = len(values)
    yield "all", 0, values
    for d in days_list:
        w = d * per_day
        for k in range(n // w):
            if w == n:
                continue
            yield "%dd%d" % (d, k), k * w, values[k * w:(k + 1) * w]


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    data_dir, out_dir = argv[1], argv[2]
    os.makedirs(out_dir, exist_ok=True)
    out = Writer(out_dir)
    step = dt.timedelta(seconds=STEP_S)
    train = {}  # source -> (start, values, type, unit), for mixtures

    h_start = convert.HELIOS_START.replace(
        year=convert.HELIOS_START.year + convert.HELIOS_YEAR_SHIFT)
    for vc in ("vc6YE", "vcpDC"):
        for variant, vals in helios_columns(data_dir, vc).items():
            src = "helios-%s-%s" % (vc, variant)
            train[src] = (h_start, vals, convert.HELIOS_TYPE, "gpus")
            days = WINDOW_DAYS + ((1,) if variant in ("demand", "small")
                                  else ())
            for name, off, sl in windows(vals, days):
                out.series("research", "%s-%s" % (src, name), "training",
                           src, h_start + off * step, sl,
                           convert.HELIOS_TYPE, "gpus")
    p_start = convert.PHILLY_START + dt.timedelta(
        weeks=convert.PHILLY_WEEK_SHIFT)
    vals = philly_column(data_dir)
    train["philly"] = (p_start, vals, convert.PHILLY_TYPE, "gpus")
    for name, off, sl in windows(vals, (1,) + WINDOW_DAYS + (28,)):
        out.series("research", "philly-%s" % name, "training", "philly",
                   p_start + off * step, sl, convert.PHILLY_TYPE, "gpus")

    s_start = convert.SERVEGEN_START
    clients = convert.servegen_clients(data_dir, "m-large",
                                      "chunk-*-trace.csv")
    for cid in sorted(clients):
        rates = clients[cid]
        share = [r / SERVICE_RATE for r in rates]
        for name, off, sl in windows(share, (7,)):
            out.series("serving", "servegen-share-%d-%s" % (cid, name),
                       "inference", "servegen-share",
                       s_start + off * step, sl, convert.SERVEGEN_TYPE,
                       "instances")
        if any(r > 0 for r in rates):
            fleet = [max(1, math.ceil(r / SERVICE_RATE - 1e-9))
                     for r in rates]
            out.series("serving", "servegen-fleet-%d" % cid, "inference",
                       "servegen-fleet", s_start, fleet,
                       convert.SERVEGEN_TYPE, "instances")
    # all 162 clients together, whole instances: the inference half of the
    # bundled sample (convert.py's servegen-m-large.csv)
    total = [math.fsum(clients[c][i] for c in clients)
             for i in range(len(clients[min(clients)]))]
    fleet = [max(1, math.ceil(r / SERVICE_RATE - 1e-9)) for r in total]
    for name, off, sl in windows(fleet, (1,) + WINDOW_DAYS):
        out.series("serving", "servegen-all-%s" % name, "inference",
                   "servegen-all", s_start + off * step, sl,
                   convert.SERVEGEN_TYPE, "instances")
    r1 = convert.servegen_clients(data_dir, "reason", "*/chunk-*-trace.csv")
    for cid in sorted(r1):
        out.series("serving", "servegen-r1-%d" % cid, "inference",
                   "servegen-r1", s_start,
                   [r / SERVICE_RATE for r in r1[cid]],
                   convert.SERVEGEN_TYPE, "instances")

    # mixtures: a dominant source plus a fifth as much of the other kind
    top = sorted(clients, key=lambda c: -sum(clients[c]))[:8]
    mix_days = 7
    per = mix_days * 86400 // STEP_S
    for i, src in enumerate(sorted(train)):
        t0, tv, itype, _ = train[src]
        cid = top[i % len(top)]
        sv = [r / SERVICE_RATE for r in clients[cid][:per]]
        base = tv[:per]
        # both as instance-hours of the training type's GPUs
        scale = sum(base) / max(sum(sv), 1e-9) / 5.0
        mixed = [a + b * scale for a, b in zip(base, sv)]
        out.series("mixed", "mix-%s-plus-servegen-%d" % (src, cid),
                   "training", "mix-training", t0, mixed, itype, "gpus")
        scale = sum(sv) / max(sum(base), 1e-9) / 5.0
        mixed = [b + a * scale for a, b in zip(base, sv)]
        out.series("mixed", "mix-servegen-%d-plus-%s" % (cid, src),
                   "inference", "mix-inference", s_start, mixed,
                   convert.SERVEGEN_TYPE, "instances")

    names = {}
    for row in azure_llm.rows(data_dir, ""):
        if row[8] not in names:
            names[row[8]] = out.neutral()
            out.truth.writerow(list(names[row[8]]) + [
                "inference", "azure-llm", "0.04", row[8]])
            out.n += 1
        out.w.writerow(row[:6] + [row[6], ""] + list(names[row[8]]) +
                       ["", ""])
    synth_cases.write(out)
    out.close()
    sys.stderr.write("make_eval.py: %d series in %s\n"
                     % (out.n, os.path.join(out_dir, "eval.csv")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
