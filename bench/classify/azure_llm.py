#!/usr/bin/env python3
"""Turn the Azure LLM inference request arrivals of 2023-11-16
(/work/shared/data/traces/azure-llm-2023, Patel et al., Splitwise, ISCA 2024,
CC-BY-4.0) into a gpuplan trace: one row per minute per service (code,
conversation), workload inference.

The one assumption, stated here and nowhere else:

  SERVICE_RATE_RPS = 2   requests per second that one p4d.24xlarge
                         (8x A100 40 GB) serving a GPT-class model sustains
                         at its target utilization, for these prompts (code:
                         mean 2,048 context tokens, conversation: 1,155).

instances = requests in the minute / 60 / SERVICE_RATE_RPS, fractional (the
share of a fleet the service kept busy), so the shape of demand is the
shape of the arrivals.  The traces cover about one hour each (18:15 to 19:15
UTC), so gpuplan classify sees one or two clock hours: its short-series
fallback decides them.

Usage:  python3 azure_llm.py DATA_DIR OUT.csv [LABEL]
        LABEL is written into `workload` ("" for unlabelled, the default).
Python 3 standard library only; deterministic.
"""

import csv
import datetime as dt
import os
import sys
from decimal import Decimal

SERVICE_RATE_RPS = Decimal(2)
INSTANCE_TYPE = "p4d.24xlarge"
SERVICES = (("code", "AzureLLMInferenceTrace_code.csv"),
            ("conversation", "AzureLLMInferenceTrace_conv.csv"))
COLUMNS = ["timestamp", "step_s", "provider", "region", "instance_type",
           "workload", "instances", "team", "project"]


def minutes(path):
    """{minute start (naive UTC datetime): requests} of one service."""
    counts = {}
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        for line, rec in enumerate(reader, start=2):
            try:
                t = dt.datetime.strptime(rec["TIMESTAMP"][:19],
                                         "%Y-%m-%d %H:%M:%S")
            except (KeyError, TypeError, ValueError):
                sys.exit("azure_llm.py: %s:%d: bad TIMESTAMP" % (path, line))
            m = t.replace(second=0)
            counts[m] = counts.get(m, 0) + 1
    return counts


def rows(data_dir, label, project_prefix="azure-llm"):
    """The trace rows of both services, minute by minute from each one's
    first to its last minute with a request (quiet minutes as 0)."""
    out = []
    for service, name in SERVICES:
        counts = minutes(os.path.join(data_dir, "traces", "azure-llm-2023",
                                      name))
        t, end = min(counts), max(counts)
        while t <= end:
            rate = Decimal(counts.get(t, 0)) / Decimal(60)
            inst = (rate / SERVICE_RATE_RPS).quantize(Decimal("0.000001"))
            out.append([t.strftime("%Y-%m-%dT%H:%M:%SZ"), 60, "aws",
                        "us-east-1", INSTANCE_TYPE, label, str(inst),
                        "azure", "%s-%s" % (project_prefix, service)])
            t += dt.timedelta(minutes=1)
    return out


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    label = argv[3] if len(argv) == 4 else ""
    with open(argv[2], "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        w.writerows(rows(argv[1], label))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
