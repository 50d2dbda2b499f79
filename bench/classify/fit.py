#!/usr/bin/env python3
"""Fit the shape model of src/classify_decide.c (gp_classify_shape) on the
evaluation set, and measure the whole verdict leaving one source out.

Input: `gpuplan classify --json` output on eval.csv (the features and the
evidence of every series, as the program computes them) and truth.csv
(make_eval.py).

The shape model is a log-odds of training, a weighted sum of the features
below (their definitions must match model_inputs() in the C file), tapered
by the series' shape_weight and clamped to +-SHAPE_CAP (+-SHORT_CAP under
two days).  It is fitted by iteratively reweighted least squares with an
L2 penalty (LAMBDA, intercept not penalised), the other evidence terms
(prior, jobs, utilization, labels, interruptible: stated, not fitted) as an
offset.  Every source gets the same total weight, split over its series,
and training and inference half the weight each.

Held out: one source group at a time (group()): the model is refitted
without it and the group's verdicts scored: accuracy, balanced accuracy,
expected calibration error over 5 confidence bins, the reliability table,
verdicts wrong at 0.9 or more, unknowns.  Then the same with the summed
log-odds scaled by a factor fitted on the other groups' held-out verdicts,
and the coefficients fitted on everything, printed as C.

Usage:  python3 fit.py OUT.json TRUTH.csv [--no-prior]
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


def fit(xs, ys, ws, offs, scale):
    """L2-penalised weighted logistic regression by IRLS, the linear
    predictor offs + scale * beta.x (the shape weight tapers the model)."""
    k = len(xs[0])
    beta = [0.0] * k
    xs = [[v * c for v in x] for x, c in zip(xs, scale)]
    for _ in range(50):
        h = [[0.0] * k for _ in range(k)]
        g = [0.0] * k
        for x, y, w, o in zip(xs, ys, ws, offs):
            z = o + sum(b * v for b, v in zip(beta, x))
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


def group(source):
    """The source group a series is held out with (leave one source out):
    every view of one cluster or client population together."""
    for prefix in ("helios-vc6YE", "helios-vcpDC"):
        if source.startswith(prefix):
            return prefix
    if source in ("servegen-share", "servegen-fleet", "servegen-all"):
        return "servegen-m-large"
    if source.startswith("mix"):
        return "mixtures"
    return source


SHORT_CAP = 0.405    # SHORT_MAX_LOG_ODDS in src/classify_decide.c
UNKNOWN_BELOW = 0.7  # GP_CLASSIFY_UNKNOWN_BELOW
SHAPE_CAP = 2.5      # SHAPE_MAX_LOG_ODDS


def shape_z(beta, r):
    """The shape evidence as gp_classify_shape computes it."""
    if r["span"] < MIN_SHORT_HOURS or not r["weight"] > 0:
        return 0.0
    z = sum(b * v for b, v in zip(beta, features(r["f"], r["short"])))
    cap = SHORT_CAP if r["short"] else SHAPE_CAP
    return max(-cap, min(cap, z)) * r["weight"]


def fit_offset(rows):
    """Fits the long and short shape models with the other evidence as an
    offset: IRLS on (x, y) where the offset enters the linear predictor."""
    betas = {}
    for short in (False, True):
        sub = [r for r in rows if r["short"] == short and
               r["span"] >= MIN_SHORT_HOURS and r["weight"] > 0]
        betas[short] = fit([features(r["f"], short) for r in sub],
                           [r["y"] for r in sub], weights(sub),
                           [r["offset"] for r in sub],
                           [r["weight"] for r in sub])
    return betas


def metrics(preds, title):
    """Accuracy, balanced accuracy, ECE, reliability table, confident
    mistakes, unknowns: preds is [(p_training, y, source)]."""
    n = len(preds)
    right = sum((p > 0.5) == bool(y) for p, y, _ in preds)
    rec = []
    for cls in (1, 0):
        m = [(p > 0.5) == bool(y) for p, y, _ in preds if y == cls]
        rec.append(sum(m) / max(1, len(m)))
    bins = [[0, 0.0, 0] for _ in range(5)]   # n, sum conf, right
    for p, y, _ in preds:
        c = max(p, 1 - p)
        k = min(4, int((c - 0.5) / 0.1))
        bins[k][0] += 1
        bins[k][1] += c
        bins[k][2] += (p > 0.5) == bool(y)
    ece = sum(abs(b[2] - b[1]) for b in bins) / n
    sure_wrong = [(p, y, s) for p, y, s in preds
                  if max(p, 1 - p) >= 0.9 and (p > 0.5) != bool(y)]
    unk = [(p, y, s) for p, y, s in preds if max(p, 1 - p) < UNKNOWN_BELOW]
    dec = [(p, y, s) for p, y, s in preds if max(p, 1 - p) >= UNKNOWN_BELOW]
    dright = sum((p > 0.5) == bool(y) for p, y, _ in dec)
    print("%s: %d series, accuracy %.1f%%, balanced %.1f%%, ECE %.3f, "
          "wrong at >= 0.9: %d" % (title, n, 100.0 * right / n,
                                   50.0 * sum(rec), ece, len(sure_wrong)))
    print("  unknown (confidence < %.1f): %d (%.1f%%); accuracy of the "
          "rest %d/%d = %.1f%%" % (UNKNOWN_BELOW, len(unk),
                                   100.0 * len(unk) / n, dright, len(dec),
                                   100.0 * dright / max(1, len(dec))))
    print("  confidence   series  mean conf  accuracy")
    for k, b in enumerate(bins):
        if b[0]:
            print("  %.1f-%.1f    %6d     %.3f     %.3f"
                  % (0.5 + k / 10, 0.6 + k / 10, b[0], b[1] / b[0],
                     b[2] / b[0]))
    for p, y, src in sure_wrong[:10]:
        print("  sure and wrong: %s p(training) %.3f truth %s"
              % (src, p, "training" if y else "inference"))
    return ece


def by_group(preds):
    acc = {}
    for p, y, src in preds:
        a = acc.setdefault(group(src), [0, 0])
        a[0] += (p > 0.5) == bool(y)
        a[1] += 1
    for g in sorted(acc):
        print("  %-28s %4d/%-4d %5.1f%%" % (g, acc[g][0], acc[g][1],
                                           100.0 * acc[g][0] / acc[g][1]))


def scale_fit(zy):
    """The a of p = logistic(a z) that maximises the likelihood (Newton)."""
    a = 1.0
    for _ in range(50):
        g = h = 0.0
        for z, y in zy:
            p = logistic(a * z)
            g += (y - p) * z
            h += p * (1 - p) * z * z
        step = g / max(h, 1e-12)
        a += step
        if abs(step) < 1e-9:
            break
    return a


def logistic(z):
    return 1.0 / (1.0 + math.exp(-max(min(z, 35), -35)))


def load(out_json, truth_csv):
    truth = {(r["team"], r["project"]): r
             for r in csv.DictReader(open(truth_csv, encoding="utf-8"))}
    rows = []
    for s in json.load(open(out_json))["classified"]["decided"]:
        t = truth[(s["team"], s["project"])]
        f = s["features"]
        ev = {e["term"]: e["log_odds"] for e in s["evidence"]}
        span = f["span_hours"] or 0.0
        rows.append({"f": f, "y": 1 if t["workload"] == "training" else 0,
                     "source": t["source"], "project": s["project"],
                     "span": span, "short": span < MIN_HOURS,
                     "weight": f["shape_weight"] or 0.0,
                     "ev": ev, "offset": sum(v for k, v in ev.items()
                                             if k != "shape")})
    return rows


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    rows = load(argv[1], argv[2])
    if len(argv) == 4 and argv[3] == "--no-prior":
        for r in rows:
            r["offset"] -= r["ev"]["prior"]
    preds = []
    for g in sorted({group(r["source"]) for r in rows}):
        tr = [r for r in rows if group(r["source"]) != g]
        betas = fit_offset(tr)
        for r in rows:
            if group(r["source"]) == g:
                z = r["offset"] + shape_z(betas[r["short"]], r)
                preds.append((logistic(z), r["y"], r["source"]))
    metrics(preds, "leave one source out")
    by_group(preds)
    # a calibration scale a (p = logistic(a z)), itself held out: for each
    # group, a is fitted on the other groups' held-out z
    zs = [(math.log(p / (1 - p)), y, s) for p, y, s in preds]
    cal = []
    for g in sorted({group(s) for _, _, s in zs}):
        a = scale_fit([(z, y) for z, y, s in zs if group(s) != g])
        cal += [(logistic(a * z), y, s) for z, y, s in zs if group(s) == g]
    print("calibration scale on all held-out z: %.3f"
          % scale_fit([(z, y) for z, y, _ in zs]))
    metrics(cal, "leave one source out, scaled")
    betas = fit_offset(rows)
    ins = [(logistic(r["offset"] + shape_z(betas[r["short"]], r)), r["y"],
            r["source"]) for r in rows]
    metrics(ins, "in sample (fitted on all)")
    for short in (False, True):
        name = "short" if short else "full"
        print("static const double %s_beta[%d] = {%s};"
              % (name, len(betas[short]),
                 ", ".join("%.4f" % b for b in betas[short])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
