#!/usr/bin/env python3
"""Fit the logistic model of src/classify.c (gp_classify_decide) on the
evaluation set, and measure it on held-out series first.

Input: `gpuplan classify --json --relabel` output on eval.csv (the features
of every series, as the program computes them) and truth.csv (make_eval.py).

The model is the log-odds of training as a weighted sum of the features
below (their definitions must match model_inputs() in src/classify.c).  It is
fitted by iteratively reweighted least squares with an L2 penalty
(LAMBDA, intercept not penalised).  Every source (helios-vc6YE-demand,
servegen-share, ...) gets the same total weight, split evenly over its
series, and training and inference get half the weight each, so that the
445 ServeGen client windows do not outvote the 17 of a Helios variant.

Held-out measurement: two folds by origin, so that no cluster or client is
on both sides:
  A: Helios vc6YE (all variants) and even-numbered ServeGen clients
  B: Helios vcpDC, Philly, odd-numbered ServeGen clients, Azure, mixtures
Fit on A, test on B; fit on B, test on A.  Then the final coefficients are
fitted on everything and printed as C for src/classify.c.

Usage:  python3 fit.py OUT.json TRUTH.csv
Python 3 standard library only.
"""

import csv
import json
import math
import re
import sys

LAMBDA = 1.0
MIN_HOURS = 48       # GP_CLASSIFY_MIN_HOURS
MIN_SHORT_HOURS = 6  # below this, no model: inference at 0.5


def nz(v):
    return 0.0 if v is None else v


def features(f, short):
    """The model's inputs, as model_inputs() in src/classify.c builds
    them."""
    run = min(max(nz(f["mean_on_run_hours"]) or 1.0, 1.0), 168.0)
    x = [1.0,
         math.log(nz(f["cv"]) + 0.01),
         nz(f["roughness"]),
         math.log(nz(f["roughness"]) + 0.01),
         max(min(nz(f["skewness"]), 5.0), -5.0),
         min(nz(f["trough"]), 1.0),
         nz(f["duty_cycle"]),
         math.log(run) / math.log(168.0)]
    if not short:
        ah = f["acf_half_day"]
        ad = f["acf_daily"]
        x += [nz(ah),
              (ad - ah) if ad is not None and ah is not None else 0.0,
              nz(f["daily_strength"])]
    return x


def solve(a, b):
    """Gaussian elimination with partial pivoting: a x = b."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[c][c] != 0:
                k = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= k * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(xs, ys, ws):
    """L2-penalised weighted logistic regression by IRLS."""
    k = len(xs[0])
    beta = [0.0] * k
    for _ in range(50):
        h = [[0.0] * k for _ in range(k)]
        g = [0.0] * k
        for x, y, w in zip(xs, ys, ws):
            z = sum(b * v for b, v in zip(beta, x))
            p = 1.0 / (1.0 + math.exp(-max(min(z, 35), -35)))
            for i in range(k):
                g[i] += w * (y - p) * x[i]
                for j in range(k):
                    h[i][j] += w * p * (1 - p) * x[i] * x[j]
        for i in range(1, k):
            g[i] -= LAMBDA * beta[i]
            h[i][i] += LAMBDA
        step = solve(h, g)
        beta = [b + s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return beta


def weights(rows):
    """Equal weight per source, then per class."""
    per_src, per_cls = {}, {}
    for r in rows:
        per_src[r["source"]] = per_src.get(r["source"], 0) + 1
    srcs_in = {}
    for r in rows:
        srcs_in.setdefault(r["y"], set()).add(r["source"])
    return [1.0 / per_src[r["source"]] / len(srcs_in[r["y"]]) *
            len(rows) / 2.0 for r in rows]


def fold(r):
    src, proj = r["source"], r["project"]
    if src.startswith("helios-vc6YE"):
        return "A"
    m = re.search(r"servegen-(?:share|fleet|r1)-(\d+)", proj)
    if m and not src.startswith("mix"):
        return "A" if int(m.group(1)) % 2 == 0 else "B"
    return "B"


def predict(beta, x):
    return sum(b * v for b, v in zip(beta, x)) > 0


def load(out_json, truth_csv):
    truth = {(r["team"], r["project"]): r
             for r in csv.DictReader(open(truth_csv, encoding="utf-8"))}
    rows = []
    for s in json.load(open(out_json))["classified"]["decided"]:
        t = truth[(s["team"], s["project"])]
        f = s["features"]
        rows.append({"f": f, "y": 1 if t["workload"] == "training" else 0,
                     "source": t["source"], "project": s["project"],
                     "span": f["span_hours"]})
    return rows


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    rows = load(argv[1], argv[2])
    for short in (False, True):
        sub = [r for r in rows
               if (MIN_SHORT_HOURS <= r["span"] < MIN_HOURS) == short and
               r["span"] >= MIN_SHORT_HOURS]
        name = "short" if short else "long"
        correct = total = 0
        for train_f, test_f in (("A", "B"), ("B", "A")):
            tr = [r for r in sub if fold(r) == train_f]
            te = [r for r in sub if fold(r) == test_f]
            if not tr or not te or len({r["y"] for r in tr}) < 2:
                continue
            beta = fit([features(r["f"], short) for r in tr],
                       [r["y"] for r in tr], weights(tr))
            ok = sum(predict(beta, features(r["f"], short)) == bool(r["y"])
                     for r in te)
            print("%s: fit on %s (%d), held-out %s: %d/%d = %.1f%%"
                  % (name, train_f, len(tr), test_f, ok, len(te),
                     100.0 * ok / len(te)))
            correct += ok
            total += len(te)
        if total:
            print("%s: held-out accuracy %d/%d = %.1f%%"
                  % (name, correct, total, 100.0 * correct / total))
        beta = fit([features(r["f"], short) for r in sub],
                   [r["y"] for r in sub], weights(sub))
        ok = sum(predict(beta, features(r["f"], short)) == bool(r["y"])
                 for r in sub)
        print("%s: in-sample %d/%d = %.1f%%" % (name, ok, len(sub),
                                                100.0 * ok / len(sub)))
        print("static const double %s_beta[%d] = {%s};"
              % (name, len(beta), ", ".join("%.4f" % b for b in beta)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
