#!/usr/bin/env python3
"""gpuplan's forecasts against simple and R anchors over many rolling
origins (issue #35; bench/README.md, "Forecast").

  python3 bench/forecast-accuracy/rolling.py GPUPLAN TRACE_DIR DATA_DIR
      [--jobs N] [--r-seconds S] [--no-r] [--only NAME]

The series: the four traces bench/backtest/convert.py wrote to TRACE_DIR
(Helios vc6YE and vcpDC, Philly, ServeGen m-large) and the 25 ServeGen
m-large clients of accuracy.py --clients, each one pool's hourly demand
(check_optimum.hourly_demand, as SPEC section 2 bills it).  Origins every
24 h from 60% of the series (rounded up to a whole day) while the horizon
fits: 168 h ahead, 96 h for a series of 14 days or less.  At each origin
gpuplan forecast --train-until ORIGIN --horizon H --json forecasts from the
history before it; the anchors are the last day and the last week
repeated, the last value, and R's forecast package (rforecasts.R: ets,
auto.arima, thetaf, stlf, tbats), run in the same invocation.  R's
forecasts are cached in bench/forecast-accuracy/cache/ (gitignored), one
file per series and method, named by a hash of the values, the origins,
the horizon, the time limit and rforecasts.R itself: a rerun only
recomputes gpuplan.  A fit over --r-seconds (default 120) or failing counts
as the last day repeated (its count is printed).

Score of a method on a series: the geometric mean over origins of
MAE(P50) / MAE(last day repeated); each group's figure is the geometric
mean over its series.  Coverage: the share of hours inside P10..P90 (R: its
80% interval); Winkler: the mean 80% interval score over the last day
repeated's MAE.  "late" repeats the scores on the last third of each
series' origins.  Python 3 standard library and Rscript only.
"""

import concurrent.futures as cf
import datetime as dt
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "backtest"))
from accuracy import TRACES, client_traces, trace_end  # noqa: E402
from check_optimum import hourly_demand  # noqa: E402

R_METHODS = ["ets", "auto.arima", "thetaf", "stlf", "tbats"]
SIMPLE = ["naive-24h", "naive-168h", "last"]
CACHE = os.path.join(HERE, "cache")


def series_of(path):
    """(first hour, [hourly demand]) from the trace's first hour to its end."""
    (demand,) = hourly_demand(path).values()
    end = trace_end(path).replace(tzinfo=None)
    first = min(demand)
    n = int((end - first).total_seconds()) // 3600
    return first, [demand.get(first + dt.timedelta(hours=i), 0.0)
                   for i in range(n)]


def protocol(n):
    """(origins, horizon) of a series of n hours."""
    h = 96 if n <= 14 * 24 else 168
    o = -(-int(math.ceil(0.6 * n)) // 24) * 24
    return list(range(o, n - h + 1, 24)), h


def simple(name, y, o, h):
    if name == "naive-24h":
        m = [y[o - 24 + k % 24] for k in range(h)]
    elif name == "naive-168h":
        m = [y[o - 168 + k % 168] if o >= 168 else y[o - 24 + k % 24]
             for k in range(h)]
    else:
        m = [y[o - 1]] * h
    return m, m, m


def gpuplan(binary, path, first, o, h):
    cut = first + dt.timedelta(hours=o)
    cmd = [binary, "forecast", "--quiet", "--json", "--trace", path,
           "--train-until", cut.strftime("%Y-%m-%dT%H:%M:%SZ"),
           "--horizon", f"{h}h"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    (s,) = json.loads(out.stdout)["series"]
    pts = s["points"]
    return ([p["p50"] for p in pts], [p["p10"] for p in pts],
            [p["p90"] for p in pts])


def r_forecasts(y, origins, h, method, seconds):
    """{origin: (mean, lo80, hi80)} and the number of failed fits."""
    with open(os.path.join(HERE, "rforecasts.R"), "rb") as f:
        script = f.read()
    key = hashlib.sha256(script + repr((y, origins, h, method, seconds))
                         .encode()).hexdigest()[:20]
    path = os.path.join(CACHE, f"{method}-{key}.csv")
    if not os.path.exists(path):
        os.makedirs(CACHE, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            vals = os.path.join(tmp, "y.txt")
            with open(vals, "w") as f:
                f.write("\n".join(repr(v) for v in y) + "\n")
            subprocess.run(["Rscript", os.path.join(HERE, "rforecasts.R"),
                            vals, ",".join(map(str, origins)), str(h),
                            method, str(seconds), path + ".part"],
                           check=True, capture_output=True)
        os.replace(path + ".part", path)
    out, fails, secs = {}, set(), 0.0
    with open(path) as f:
        next(f)
        for line in f:
            o, k, m, lo, hi, status, s = line.strip().split(",")
            o = int(o)
            e = out.setdefault(o, ([], [], []))
            e[0].append(float(m))
            e[1].append(float(lo))
            e[2].append(float(hi))
            if status != "ok":
                fails.add(o)
            if int(k) == 0:
                secs += float(s)
    return out, len(fails), secs


def score(y, o, h, fc):
    """(MAE ratio to the last day repeated, coverage, Winkler ratio)."""
    m, lo, hi = ([max(0.0, v) for v in x] for x in fc)
    act = y[o:o + h]
    base = sum(abs(a - y[o - 24 + k % 24]) for k, a in enumerate(act)) / h
    base = max(base, 1e-9 * (sum(y[:o]) / o + 1e-12))
    mae = sum(abs(a - p) for a, p in zip(act, m)) / h
    cover = sum(lo[k] <= a <= hi[k] for k, a in enumerate(act)) / h
    wink = sum(hi[k] - lo[k] + 10 * max(0.0, lo[k] - a) +
               10 * max(0.0, a - hi[k]) for k, a in enumerate(act)) / h
    return mae / base, cover, wink / base


def gmean(xs):
    xs = [max(x, 1e-9) for x in xs]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def main(argv):
    opts = {"--jobs": "2", "--r-seconds": "120", "--only": None}
    args, i = [], 0
    while i < len(argv):
        if argv[i] in opts:
            opts[argv[i]] = argv[i + 1]
            i += 2
        else:
            args.append(argv[i])
            i += 1
    no_r = "--no-r" in args
    args = [a for a in args if a != "--no-r"]
    if len(args) != 3:
        sys.exit(__doc__)
    binary, folder, data = args
    paths = [(n, f"{folder}/{n}.csv") for n, _, _, _ in TRACES]
    paths += [(os.path.basename(p)[:-4].replace("servegen-", ""), p)
              for p in client_traces(data, folder)]
    if opts["--only"]:
        paths = [(n, p) for n, p in paths if opts["--only"] in n]
    methods = ["gpuplan"] + SIMPLE + ([] if no_r else R_METHODS)
    series = []
    for name, path in paths:
        first, y = series_of(path)
        origins, h = protocol(len(y))
        series.append((name, path, first, y, origins, h))

    rjobs = {}
    with cf.ThreadPoolExecutor(int(opts["--jobs"])) as pool:
        if not no_r:
            for name, _, _, y, origins, h in series:
                for m in R_METHODS:
                    rjobs[(name, m)] = pool.submit(
                        r_forecasts, y, origins, h, m,
                        float(opts["--r-seconds"]))
        results = {}
        for name, path, first, y, origins, h in series:
            for o in origins:
                results[(name, "gpuplan", o)] = score(
                    y, o, h, gpuplan(binary, path, first, o, h))
                for m in SIMPLE:
                    results[(name, m, o)] = score(y, o, h, simple(m, y, o, h))
        fails, rsecs = {}, {}
        for (name, m), fut in rjobs.items():
            fc, nf, secs = fut.result()
            fails[m] = fails.get(m, 0) + nf
            rsecs[m] = rsecs.get(m, 0.0) + secs
            y, h = next((s[3], s[5]) for s in series if s[0] == name)
            for o, f in fc.items():
                results[(name, m, o)] = score(y, o, h, f)
    report(series, methods, results, fails, rsecs)


def report(series, methods, results, fails, rsecs):
    rmeth = [m for m in methods if m in R_METHODS]
    head = (["series", "h", "origins"] + methods +
            (["best R (hindsight)"] if rmeth else []) +
            ["gpuplan coverage", "gpuplan Winkler"] +
            [f"{m} coverage" for m in rmeth])
    print("| " + " | ".join(head) + " |")
    print("|---" * len(head) + "|")
    groups = {"traces (4)": [], "clients (25)": [], "all": []}
    late = {m: [] for m in methods}
    per = {}
    for name, _, _, y, origins, h in series:
        row = {}
        for m in methods:
            sc = [results[(name, m, o)] for o in origins]
            row[m] = (gmean([s[0] for s in sc]),
                      sum(s[1] for s in sc) / len(sc),
                      gmean([s[2] for s in sc]))
            tail = sc[len(sc) - max(1, len(sc) // 3):]
            late[m].append(gmean([s[0] for s in tail]))
        per[name] = row
        best = min(row[m][0] for m in rmeth) if rmeth else None
        cells = [f"{row[m][0]:.3f}" for m in methods]
        if rmeth:
            cells.append(f"{best:.3f}")
        cells += [f"{100 * row['gpuplan'][1]:.0f}%",
                  f"{row['gpuplan'][2]:.2f}"]
        cells += [f"{100 * row[m][1]:.0f}%" for m in rmeth]
        print(f"| {name} | {h} | {len(origins)} | " + " | ".join(cells)
              + " |")
        groups["clients (25)" if name.startswith("client") else
               "traces (4)"].append(name)
        groups["all"].append(name)
    for g, names in groups.items():
        if not names:
            continue
        cells = [f"**{gmean([per[n][m][0] for n in names]):.3f}**"
                 for m in methods]
        if rmeth:
            cells.append(f"{gmean([min(per[n][m][0] for m in rmeth) for n in names]):.3f}")
        cov = sum(per[n]["gpuplan"][1] for n in names) / len(names)
        cells += [f"{100 * cov:.0f}%",
                  f"{gmean([per[n]['gpuplan'][2] for n in names]):.2f}"]
        cells += [f"{100 * sum(per[n][m][1] for n in names) / len(names):.0f}%"
                  for m in rmeth]
        print(f"| geometric mean, {g} | | | " + " | ".join(cells) + " |")
    print("| all, last third of origins | | | " +
          " | ".join(f"{gmean(late[m]):.3f}" for m in methods) + " |")
    worst = max(per, key=lambda n: per[n]["gpuplan"][0])
    over = sum(per[n]["gpuplan"][0] > 1.05 for n in per)
    bad_cov = sum(not 0.7 <= per[n]["gpuplan"][1] <= 0.9 for n in per)
    print(f"\ngpuplan: {over} series above 1.05 (worst {worst} "
          f"{per[worst]['gpuplan'][0]:.3f}); {bad_cov} series with coverage "
          "outside 70-90%.")
    if rmeth:
        print("R: failed or timed-out fits (counted as the last day "
              "repeated): " + ", ".join(f"{m} {fails.get(m, 0)}"
                                        for m in rmeth)
              + "; fit seconds: " + ", ".join(f"{m} {rsecs.get(m, 0):.0f}"
                                             for m in rmeth))


if __name__ == "__main__":
    main(sys.argv[1:])
