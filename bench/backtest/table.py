#!/usr/bin/env python3
"""Read the JSON documents bench/backtest/run.sh wrote and print the
backtest table (Markdown) on stdout.

Usage: python3 bench/backtest/table.py OUT_DIR NAME...
For each NAME it reads OUT_DIR/NAME.in.json (`recommend --json` over the
whole trace), OUT_DIR/NAME.oos.json (the same with --train-until) and, when
present, OUT_DIR/NAME.seconds (wall time of the two runs).
"""

import json
import os
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def money(x):
    return "${:,.0f}".format(x)


def frac(x, denominator=None):
    # a hindsight optimum of 0 makes the fraction 1 by definition: show it
    if denominator is not None and abs(denominator) < 0.005:
        return "n/a (0 of 0)"
    return "{:.3f}".format(x)


def actions(doc):
    kinds = {"routing": 0, "reserved": 0, "savings_plan": 0}
    for a in doc["actions"]:
        kinds[a["type"]] += 1
    parts = []
    if kinds["routing"]:
        parts.append("spot")
    if kinds["reserved"]:
        parts.append("%d RI" % kinds["reserved"])
    if kinds["savings_plan"]:
        parts.append("%d SP" % kinds["savings_plan"])
    return "%d (%s)" % (len(doc["actions"]), ", ".join(parts) or "none")


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    print("| trace | hours | policy cost | in-sample captured | actions "
          "| train until | test h | OOS plan savings | OOS hindsight savings "
          "| OOS captured (all) | OOS commitments savings "
          "| OOS hindsight commitments | OOS captured (commitments) "
          "| OOS actions | seconds |")
    print("|" + "---|" * 15)
    for name in argv[2:]:
        full = load(os.path.join(out, name + ".in.json"))
        oos = load(os.path.join(out, name + ".oos.json"))
        bt = oos["backtest"]
        sec_path = os.path.join(out, name + ".seconds")
        secs = open(sec_path).read().split() if os.path.exists(sec_path) \
            else ["?", "?"]
        print("| %s | %d | %s | %s | %s | %s | %d | %s | %s | %s | %s | %s "
              "| %s | %s | %s + %s |" % (
                  name, full["window"]["hours"],
                  money(full["baseline"]["policy_cost"]),
                  frac(full["captured_fraction"],
                       full["hindsight_optimal"]["net_savings"]),
                  actions(full), bt["train_until"][:10], bt["test_hours"],
                  money(bt["plan_net_savings"]),
                  money(bt["hindsight_net_savings"]),
                  frac(bt["captured_fraction"], bt["hindsight_net_savings"]),
                  money(bt["commitment_net_savings"]),
                  money(bt["hindsight_commitment_net_savings"]),
                  frac(bt["commitment_captured_fraction"],
                       bt["hindsight_commitment_net_savings"]),
                  actions(oos), secs[0], secs[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
