#!/usr/bin/env python3
"""An independent hindsight optimum for the single-pool backtest traces.

gpuplan's in-sample `hindsight_optimal` is its own balanced plan (for a
window under 26 weeks), so its in-sample `captured_fraction` is 1 by
construction.  For a trace with one pool the true optimum of 1-year
commitments is easy to compute without gpuplan: reservations and the
pool's instance_family savings plan cover the same usage, a compute plan
covers it at a higher rate (so never helps with one pool), and the cost of
covering L instances every hour,

    cost(L) = L * rate * H + on_demand * sum_h max(d_h - L, 0),

is convex and piecewise linear in L, so its minimum is at one of the d_h.
`rate` is the cheapest 1-year effective rate of the type's reservations
and instance_family plans (hourly + upfront / 8760).  The result is exact
when the cheapest reservation and the cheapest instance_family plan have
the same effective rate (true of the bundled catalog, which prices family
plans like reservations); otherwise it is an upper bound on the savings.

Usage: python3 bench/backtest/check_optimum.py PRICING_JSON OUT_DIR NAME...
Reads OUT_DIR/<trace>.csv (the trace of NAME with a "-no-spot" suffix
removed) and OUT_DIR/NAME.{in,oos}.json, and prints a Markdown table:
gpuplan's plan savings against the independent optimum, in sample (the
whole window) and out of sample (the test window of the backtest).
"""

import csv
import datetime as dt
import json
import math
import os
import sys


def parse(t):
    return dt.datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ")


def hourly_demand(path):
    """{instance_type: {clock hour: instance-hours}} as SPEC section 2 bills
    it: a row is instances x step_s/3600, instances = ceil(gpus /
    gpus_per_instance) when only gpus is given.  Rows here are 10-minute
    rows aligned to the hour, so each falls in one clock hour."""
    gpus_per = {"p4d.24xlarge": 8, "p3.2xlarge": 1, "g6e.xlarge": 1}
    out = {}
    with open(path, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            t = parse(r["timestamp"])
            it = r["instance_type"]
            step = int(r["step_s"])
            if r["instances"]:
                n = float(r["instances"])
            else:
                n = math.ceil(float(r["gpus"]) / gpus_per[it])
            h = t.replace(minute=0, second=0)
            pool = out.setdefault(it, {})
            pool[h] = pool.get(h, 0.0) + n * step / 3600
    return out


def best_rate(offer):
    rates = [x["hourly"] + x["upfront"] / (8760 * x["term_years"])
             for x in offer.get("reserved", []) if x["term_years"] == 1]
    rates += [x["hourly"] for x in offer.get("savings_plans", [])
              if x["term_years"] == 1 and x["kind"] == "instance_family"]
    return min(rates)


def optimum(d, od, rate):
    """Largest savings of covering L instances every hour, and that L."""
    base = od * sum(d)
    best = (0.0, 0.0)
    for level in sorted(set(d)):
        cost = level * rate * len(d) + od * sum(max(x - level, 0) for x in d)
        if base - cost > best[0]:
            best = (base - cost, level)
    return best


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    catalog = json.load(open(argv[1], encoding="utf-8"))["instance_types"]
    out = argv[2]
    print("| trace | pool | 1y rate / on demand | in sample: gpuplan plan "
          "| in sample: optimum (level) | in sample: plan / optimum "
          "| test window: gpuplan plan | test window: optimum (level) "
          "| out of sample: plan / optimum | gpuplan's own OOS figure |")
    print("|" + "---|" * 10)
    for name in argv[3:]:
        trace = name[:-len("-no-spot")] if name.endswith("-no-spot") \
            else name
        demand = hourly_demand(os.path.join(out, trace + ".csv"))
        if len(demand) != 1:
            print("| %s | %d pools: not a single-pool trace |||||||||"
                  % (name, len(demand)))
            continue
        (it, series), = demand.items()
        offer = catalog[it]
        od, rate = offer["on_demand"], best_rate(offer)
        full = json.load(open(os.path.join(out, name + ".in.json")))
        oos = json.load(open(os.path.join(out, name + ".oos.json")))
        bt = oos["backtest"]
        cut = parse(bt["train_until"])
        hours = sorted(series)
        whole = [series[h] for h in hours]
        test = [series[h] for h in hours if h >= cut]
        s_in, l_in = optimum(whole, od, rate)
        s_test, l_test = optimum(test, od, rate)
        plan_in = full["plan"]["net_savings"]
        plan_test = bt["plan_net_savings"]
        print("| %s | %s | %.4f | $%s | $%s (%.2f) | %.4f | $%s | $%s (%.2f) "
              "| %.4f | %.4f |" % (
                  name, it, rate / od, format(round(plan_in), ","),
                  format(round(s_in), ","), l_in,
                  plan_in / s_in if s_in else 1.0,
                  format(round(plan_test), ","), format(round(s_test), ","),
                  l_test, plan_test / s_test if s_test else 1.0,
                  bt["captured_fraction"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
