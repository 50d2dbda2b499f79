#!/usr/bin/env python3
"""The forecaster's accuracy on the shared real traces (issue #5), as a
Markdown table (bench/README.md, "Forecast").

  python3 bench/forecast-accuracy/accuracy.py GPUPLAN TRACE_DIR [--earlier]
      [--clients DATA_DIR [--short]]

For every trace converted by bench/backtest/convert.py (Helios vc6YE and
vcpDC: a month; Philly: ten weeks; ServeGen m-large: fourteen days), the
final week (final four days for ServeGen) is held out: gpuplan forecast
--train-until (end - hold-out) --horizon (hold-out) --json forecasts it from
the data before, and the hold-out block of the JSON scores the forecast
against what happened.  The cut is computed here from the trace's last
timestamp (end = last row + step_s, to the hour).  Printed per series: the
method chosen by gpuplan's rolling-origin backtest, its hold-out MAE, the
MAE of the last week and the last day repeated, their ratios (target:
relative MAE against the last week repeated at most 0.8), MASE, MAPE and the
share of held-out hours inside P10..P90 (target 70-90%), and the wall time
of the run.

With --earlier, the same is done again at earlier cuts, each trace's
hold-out moved back step by step (Helios: 3 days, Philly: a week,
ServeGen: a day) while enough history is left, and a second table gives
each cut's relative MAE and coverage and their geometric mean and mean:
one week decides little, and a change that helps only the final week is
tuning to it.

With --clients DATA_DIR, the same at three cuts (the final four days, and
a day and two days earlier) for every ServeGen m-large client with demand
in at least 90% of its hours and a mean of at least 0.05 instances (rate /
9 req/s, the converter's service rate, as fractional instances: the
client's share of a fleet): 25 real inference series that no method was
chosen on, summarized as the geometric mean and median relative MAE, the
share of forecasts at most 0.8 and under 1, and the mean coverage per
cut.

With --short as well, short histories: every one of those series is cut to
start 0, 48, ..., 240 hours in and forecast from its first 48, 72, ...,
192 hours, one, two, four and seven days ahead; a table gives per
history and horizon the mean P10-P90 coverage and the geometric mean
relative MAE against the last day repeated (the last week is not there to
repeat).  Python 3 standard library only.
"""

import csv
import datetime as dt
import json
import math
import os
import subprocess
import sys
import time

TRACES = [  # name, hold-out hours, step and number of the earlier cuts
    ("helios-vc6YE", 168, 72, 3),
    ("helios-vcpDC", 168, 72, 3),
    ("philly", 168, 168, 5),
    ("servegen-m-large", 96, 24, 2),
]


def trace_end(path):
    """The end of the trace: its last row's start + step_s, to the hour."""
    last = None
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            t = dt.datetime.fromisoformat(row["timestamp"].replace("Z", "+00:00"))
            end = t + dt.timedelta(seconds=float(row.get("step_s") or 3600))
            if last is None or end > last:
                last = end
    if last.minute or last.second:
        last = last.replace(minute=0, second=0) + dt.timedelta(hours=1)
    return last


def fmt(v, digits=3):
    return "-" if v is None else f"{v:.{digits}f}"


def forecast(gpuplan, path, cut, hold):
    """gpuplan forecast from the data before `cut`, `hold` hours ahead,
    scored on the trace after it: (JSON document, wall time in s)."""
    cmd = [gpuplan, "forecast", "--quiet", "--json", "--trace", path,
           "--train-until", cut.strftime("%Y-%m-%dT%H:%M:%SZ"),
           "--horizon", f"{hold}h"]
    t0 = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - t0
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    return json.loads(out.stdout), seconds


def final_week(gpuplan, folder):
    """The table of the final hold-out."""
    print("| trace | workload | method (backtest) | hold-out h | MAE | "
          "MAE last week | MAE last day | rel. MAE vs week | rel. MAE vs "
          "day | MASE | MAPE % | P10-P90 coverage | backtest coverage | "
          "time s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, hold, _, _ in TRACES:
        path = f"{folder}/{name}.csv"
        cut = trace_end(path) - dt.timedelta(hours=hold)
        doc, seconds = forecast(gpuplan, path, cut, hold)
        for s in doc["series"]:
            h, b = s["holdout"], s["backtest"]
            method = s["method"]
            if s.get("level_window_hours"):
                method += f" ({s['level_window_hours']} h)"
            print(f"| {name} | {s['workload']} | {method} | {h['points']} | "
                  f"{fmt(h['mae'])} | {fmt(h['naive_168h_mae'])} | "
                  f"{fmt(h['naive_24h_mae'])} | {fmt(h['relative_mae'])} | "
                  f"{fmt(h['relative_mae_day'])} | {fmt(h['mase'])} | "
                  f"{fmt(h['mape'], 1)} | {fmt(100 * h['coverage'], 0)}% | "
                  f"{fmt(100 * b['coverage'], 0)}% | {seconds:.2f} |")


def earlier_cuts(gpuplan, folder):
    """Relative MAE / coverage at the final cut and the earlier ones."""
    print("| trace | cuts (latest first): rel. MAE vs week / coverage | "
          "geometric mean rel. MAE | mean coverage |")
    print("|---|---|---|---|")
    for name, hold, step, n_earlier in TRACES:
        path = f"{folder}/{name}.csv"
        end = trace_end(path)
        cells, log_sum, cover_sum, n = [], 0.0, 0.0, 0
        for i in range(n_earlier + 1):
            cut = end - dt.timedelta(hours=hold + i * step)
            doc, _ = forecast(gpuplan, path, cut, hold)
            for s in doc["series"]:
                h = s["holdout"]
                cells.append(f"{fmt(h['relative_mae'])} / "
                             f"{fmt(100 * h['coverage'], 0)}%")
                if h["relative_mae"]:
                    log_sum += math.log(h["relative_mae"])
                    cover_sum += h["coverage"]
                    n += 1
        print(f"| {name} | {', '.join(cells)} | "
              f"{fmt(math.exp(log_sum / n) if n else None)} | "
              f"{fmt(100 * cover_sum / n if n else None, 0)}% |")


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "backtest"))
import convert  # noqa: E402  (bench/backtest/convert.py)

CLIENT_WINDOWS = 2016          # 14 days of 10-minute windows
CLIENT_RATE = float(convert.SERVICE_RATE_AT_TARGET_RPS)  # 9 req/s


def client_traces(data_dir, folder):
    """Writes folder/servegen-client-<id>.csv for the clients described in
    the module's docstring; returns their paths, by client id."""
    paths = []
    clients = convert.servegen_clients(data_dir, "m-large",
                                       "chunk-*-trace.csv")
    for cid, rates in sorted(clients.items()):
        rates = (rates + [0.0] * CLIENT_WINDOWS)[:CLIENT_WINDOWS]
        hours = [sum(rates[6 * h:6 * h + 6]) / 6 / CLIENT_RATE
                 for h in range(CLIENT_WINDOWS // 6)]
        active = sum(1 for v in hours if v > 0) / len(hours)
        if active < 0.9 or sum(hours) / len(hours) < 0.05:
            continue
        rows = [[convert.iso(convert.SERVEGEN_START +
                             dt.timedelta(seconds=convert.STEP_S * i)),
                 convert.STEP_S, convert.PROVIDER, convert.REGION,
                 convert.SERVEGEN_TYPE, "inference", "", repr(r / CLIENT_RATE),
                 "", "platform", f"servegen-client-{cid}", "false"]
                for i, r in enumerate(rates)]
        paths.append(convert.write(folder, f"servegen-client-{cid}.csv",
                                   rows))
    return paths


def clients(gpuplan, data_dir, folder):
    """The summary table of the ServeGen clients at three cuts."""
    paths = client_traces(data_dir, folder)
    print(f"| ServeGen m-large clients ({len(paths)}), cut | geometric mean "
          "rel. MAE vs week | median | vs day (geometric mean) | share <= "
          "0.8 | share < 1 | mean P10-P90 coverage |")
    print("|---|---|---|---|---|---|---|")
    for i, label in enumerate(["final 4 days", "a day earlier",
                               "two days earlier"]):
        rel, rel_day, cover = [], [], []
        for path in paths:
            cut = trace_end(path) - dt.timedelta(hours=96 + 24 * i)
            doc, _ = forecast(gpuplan, path, cut, 96)
            for s in doc["series"]:
                h = s["holdout"]
                if h["relative_mae"] and h["relative_mae_day"]:
                    rel.append(h["relative_mae"])
                    rel_day.append(h["relative_mae_day"])
                    cover.append(h["coverage"])
        gm = math.exp(sum(map(math.log, rel)) / len(rel))
        gd = math.exp(sum(map(math.log, rel_day)) / len(rel_day))
        med = sorted(rel)[len(rel) // 2] if len(rel) % 2 else \
            sum(sorted(rel)[len(rel) // 2 - 1:len(rel) // 2 + 1]) / 2
        print(f"| {label} | {gm:.3f} | {med:.3f} | {gd:.3f} | "
              f"{100 * sum(r <= 0.8 for r in rel) / len(rel):.0f}% | "
              f"{100 * sum(r < 1 for r in rel) / len(rel):.0f}% | "
              f"{100 * sum(cover) / len(cover):.0f}% |")


SHORT_HISTORIES = [48, 72, 96, 120, 144, 168, 192]  # hours of history
SHORT_AHEAD = [24, 48, 96, 168]                       # hours ahead
SHORT_STARTS = range(0, 241, 48)                     # hours into the trace


def short_histories(gpuplan, data_dir, folder):
    """Coverage and accuracy with two to eight days of history: every
    series (the four traces and the clients) cut to start 0, 48, ..., 240
    hours in, then forecast from its first L hours, 1 to 7 days ahead."""
    paths = [f"{folder}/{name}.csv" for name, _, _, _ in TRACES]
    paths += client_traces(data_dir, folder)
    cells = {}  # (L, H) -> [coverage...], [rel. MAE vs day...]
    for path in paths:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        header, rows = rows[0], rows[1:]
        times = [dt.datetime.fromisoformat(r[0].replace("Z", "+00:00"))
                 for r in rows]
        first, end = times[0], trace_end(path)
        span = int((end - first).total_seconds()) // 3600
        for s0 in SHORT_STARTS:
            start = first + dt.timedelta(hours=s0)
            cut_path = f"{folder}/short-{s0}-{os.path.basename(path)}"
            with open(cut_path, "w", newline="") as f:
                w = csv.writer(f, lineterminator="\n")
                w.writerow(header)
                w.writerows(r for r, t in zip(rows, times) if t >= start)
            for L in SHORT_HISTORIES:
                for H in SHORT_AHEAD:
                    if s0 + L + H > span:
                        continue
                    doc, _ = forecast(gpuplan, cut_path,
                                      start + dt.timedelta(hours=L), H)
                    cover, rel = cells.setdefault((L, H), ([], []))
                    for s in doc["series"]:
                        h = s["holdout"]
                        cover.append(h["coverage"])
                        if h["relative_mae_day"]:
                            rel.append(h["relative_mae_day"])
            os.remove(cut_path)
    print("| history h | ahead h | forecasts | mean P10-P90 coverage | "
          "geometric mean rel. MAE vs last day |")
    print("|---|---|---|---|---|")
    for (L, H), (cover, rel) in sorted(cells.items()):
        print(f"| {L} | {H} | {len(cover)} | "
              f"{100 * sum(cover) / len(cover):.1f}% | "
              f"{math.exp(sum(map(math.log, rel)) / len(rel)):.3f} |")


def main():
    argv = sys.argv[1:]
    data_dir = None
    if "--clients" in argv:
        i = argv.index("--clients")
        if i + 1 >= len(argv):
            sys.exit(__doc__)
        data_dir = argv[i + 1]
        del argv[i:i + 2]
    args = [a for a in argv if a not in ("--earlier", "--short")]
    if len(args) != 2:
        sys.exit(__doc__)
    final_week(args[0], args[1])
    if "--earlier" in argv:
        print()
        earlier_cuts(args[0], args[1])
    if data_dir:
        print()
        clients(args[0], data_dir, args[1])
    if data_dir and "--short" in argv:
        print()
        short_histories(args[0], data_dir, args[1])


if __name__ == "__main__":
    main()
