#!/usr/bin/env python3
"""check_xlsx.py: reads gpuplan's Excel workbook with openpyxl, a reader
that shares no code with the program, and checks it against the run's
--json document (and --csv tables) to the cent.

    check_xlsx.py simulate  BOOK JSON CSVDIR   structure and numbers
    check_xlsx.py recommend BOOK JSON CSVDIR   structure and numbers
    check_xlsx.py strip     BOOK OUT           OUT: formulas without cached
                                               values, what-if inputs set
    check_xlsx.py recalc    BOOK RECALCULATED  LibreOffice's values equal
                                               the program's

Every expected value below comes from the JSON or CSV output of the same
run, or from arithmetic on other cells of the workbook stated beside it;
none is copied from the workbook itself.
"""
import csv
import datetime as dt
import json
import math
import os
import re
import sys

import openpyxl

SHEETS = ["Summary", "Recommendations", "Plans", "Savings curve",
          "Monthly cost", "Forecast", "Utilization", "Spot", "Chargeback",
          "Idle", "Inputs", "Forecast data"]
MONEY = "$#,##0.00;-$#,##0.00"
PCT = "0.0%"
# what-if inputs the strip step sets, and what recalc expects of them
WHAT_IF_DISCOUNT = 0.10
WHAT_IF_OD_CHANGE = 0.05
WHAT_IF_DEMAND_CHANGE = 0.20

failures = []


def fail(msg):
    failures.append(msg)


def near(got, want, what, tol=0.005):
    """Equal to the cent (money) or to tol (other numbers)."""
    if want is None:
        if got not in (None, ""):
            fail("%s: %r, expected empty" % (what, got))
        return
    if not isinstance(got, (int, float)) or isinstance(got, bool):
        fail("%s: %r is not a number, expected %r" % (what, got, want))
        return
    if not math.isclose(got, want, rel_tol=0, abs_tol=tol):
        fail("%s: %r, expected %r" % (what, got, want))


def labels(ws):
    """Summary-style rows: column A label -> row number (first match)."""
    out = {}
    for row in ws.iter_rows(min_col=1, max_col=1):
        c = row[0]
        if isinstance(c.value, str) and c.value not in out:
            out[c.value] = c.row
    return out


def table(ws, first_header, values=None):
    """The rows of the sheet's table whose first header is first_header,
    as dicts; `values` is the data_only twin of ws (cached values)."""
    for name, t in ws.tables.items():
        ref = t.ref if hasattr(t, "ref") else t
        lo, hi = ref.split(":")
        c0, r0 = openpyxl.utils.cell.coordinate_from_string(lo)
        c1, r1 = openpyxl.utils.cell.coordinate_from_string(hi)
        a = openpyxl.utils.column_index_from_string(c0)
        z = openpyxl.utils.column_index_from_string(c1)
        heads = [ws.cell(r0, c).value for c in range(a, z + 1)]
        if heads[0] != first_header:
            continue
        src = values if values is not None else ws
        rows = []
        for r in range(r0 + 1, r1 + 1):
            rows.append({h: src.cell(r, a + i).value
                         for i, h in enumerate(heads)})
            rows[-1]["_row"] = r
            rows[-1]["_cells"] = {h: ws.cell(r, a + i)
                                  for i, h in enumerate(heads)}
        return rows
    fail("%s: no table starting with %r" % (ws.title, first_header))
    return []


def check_structure(wb, vb, mode):
    # Budgets, right after Plans, when the scenario has budgets (#38)
    want = list(SHEETS)
    if "Budgets" in wb.sheetnames:
        want.insert(want.index("Plans") + 1, "Budgets")
    if wb.sheetnames != want:
        fail("sheets %r, expected %r" % (wb.sheetnames, want))
    if wb.active.title != "Summary":
        fail("the workbook opens on %r, not Summary" % wb.active.title)
    # the hourly forecast rows are kept out of print (#39): hidden
    if wb["Forecast data"].sheet_state != "hidden":
        fail("Forecast data is %r, not hidden" % wb["Forecast data"].sheet_state)
    charts = sum(len(ws._charts) for ws in wb)
    if charts < 4:
        fail("%d charts, expected at least 4" % charts)
    tables = 0
    for ws in wb:
        for name, t in ws.tables.items():
            tables += 1
            ref = t.ref if hasattr(t, "ref") else t
            if ":" not in ref:
                fail("%s: table %s has ref %r" % (ws.title, name, ref))
                continue
            # Excel repairs a table whose headers are empty or repeated
            lo, hi = ref.split(":")
            c0, r0 = openpyxl.utils.cell.coordinate_from_string(lo)
            c1, _ = openpyxl.utils.cell.coordinate_from_string(hi)
            heads = [ws.cell(r0, c).value for c in range(
                openpyxl.utils.column_index_from_string(c0),
                openpyxl.utils.column_index_from_string(c1) + 1)]
            if any(not h for h in heads) or len(set(heads)) != len(heads):
                fail("%s: table %s headers %r" % (ws.title, name, heads))
    if tables < 8:
        fail("%d tables, expected at least 8" % tables)
    # frozen headers on the long tables
    frozen = ["Plans", "Monthly cost", "Forecast", "Utilization", "Spot",
              "Chargeback"]
    if mode == "recommend":
        frozen.append("Recommendations")
    for name in frozen:
        if not wb[name].freeze_panes:
            fail("%s: header not frozen" % name)
    # column widths set to fit
    for ws in wb:
        if not ws.column_dimensions["A"].width:
            fail("%s: column A has no width" % ws.title)
    # the created date is fixed: the data window's end
    doc = json.load(open(sys.argv[3]))
    end = doc["window"]["end"]
    created = wb.properties.created.strftime("%Y-%m-%dT%H:%M:%SZ")
    if created != end:
        fail("created %s, expected the window's end %s" % (created, end))


def check_summary(wb, vb, doc, mode):
    ws, vs = wb["Summary"], vb["Summary"]
    at = labels(ws)
    if mode == "recommend":
        plan = doc["plan"]
        current = doc["baseline"]["policy_cost"]
        plan_cost = plan["total_cost"]
        near(vs.cell(at["Current cost"], 2).value, current, "current cost")
        key = "Cost with the %s plan" % plan["name"]
        near(vs.cell(at[key], 2).value, plan_cost, "plan cost")
        near(vs.cell(at["Upfront cash to buy the plan"], 2).value,
             plan["upfront"], "upfront")
        near(vs.cell(at["Net savings"], 2).value, plan["net_savings"],
             "net savings")
        near(vs.cell(at["Cost if everything ran on demand"], 2).value,
             doc["baseline"]["all_on_demand_cost"], "all on demand")
        near(vs.cell(at["Share of the hindsight optimum captured"], 2).value,
             doc["captured_fraction"], "captured", 1e-9)
        # the what-if block at no change is the plan's net savings a
        # year: each action's savings are on top of those above it, so the
        # plan's actions (not the renewals on top of it) add up to the plan
        if "forward" not in doc:
            near(vs.cell(at["Annual net savings of the actions"], 2).value,
                 plan["net_savings"] * 8760 / doc["window"]["hours"],
                 "what-if annual net savings", 0.01)
        rows = table(ws, "Action", vs)
        for row, a in zip(rows, doc["actions"]):
            near(row["Net savings"], a["net_savings"], "top action net")
            if not row["Action"].startswith("%d. " % a["rank"]):
                fail("top action %r is not rank %d" % (row["Action"],
                                                       a["rank"]))
    else:
        s = {x["name"]: x for x in doc["strategies"]}
        best = min(doc["strategies"], key=lambda x: x["total_cost"])
        near(vs.cell(at["Current cost"], 2).value,
             s["baseline"]["total_cost"], "current cost")
        key = "Cost with strategy %s (cheapest)" % best["name"]
        near(vs.cell(at[key], 2).value, best["total_cost"], "plan cost")
        near(vs.cell(at["Net savings"], 2).value,
             s["baseline"]["total_cost"] - best["total_cost"], "net savings")
        near(vs.cell(at["Cash paid in the window"], 2).value,
             sum(m["total_cash"] for m in best["months"]), "cash")
        rows = table(ws, "Strategy", vs)
        for row, x in zip(rows, doc["strategies"]):
            near(row["Total cost"], x["total_cost"], "strategy total")
            near(row["Savings"], x["savings"], "strategy savings")
        # the what-if block holds each cost's commitment charges fixed:
        # the reserved and savings-plan costs --json gives
        near(vs.cell(at["Commitment charges in the current cost"], 2).value,
             s["baseline"]["reserved_cost"]
             + s["baseline"]["savings_plan_cost"], "current's commitments")
        near(vs.cell(at["Commitment charges in the plan cost"], 2).value,
             best["reserved_cost"] + best["savings_plan_cost"],
             "plan's commitments")
    # formats: money and percent cells
    if ws.cell(at["Net savings"], 2).number_format != MONEY:
        fail("net savings format %r" % ws.cell(at["Net savings"], 2)
             .number_format)
    if ws.cell(at["Savings"], 2).number_format != PCT:
        fail("savings %% format %r" % ws.cell(at["Savings"], 2).number_format)
    # the headline's live formulas: net = current - plan, % = net / current
    net = ws.cell(at["Net savings"], 2).value
    if not (isinstance(net, str) and net.startswith("=")):
        fail("net savings is not a formula: %r" % net)
    cur = vs.cell(at["Savings"] - 3, 2).value
    pln = vs.cell(at["Savings"] - 2, 2).value
    near(vs.cell(at["Savings"], 2).value, (cur - pln) / cur if cur else 0,
         "savings %", 1e-9)
    # warnings are all there
    warn_row = at.get("Warnings and notes")
    text = [ws.cell(r, 1).value for r in range(warn_row + 1,
                                               ws.max_row + 1)]
    for w in doc["inputs"]["warnings"]:
        if w not in text:
            fail("warning missing from Summary: %r" % w)
    for w in doc.get("notes", []):
        if w not in text:
            fail("note missing from Summary: %r" % w)
    return at


def check_recommendations(wb, vb, doc):
    ws, vs = wb["Recommendations"], vb["Recommendations"]
    rows = table(ws, "Rank", vs)
    if len(rows) != len(doc["actions"]):
        fail("%d recommendations, expected %d" % (len(rows),
                                                  len(doc["actions"])))
    hours = doc["window"]["hours"]
    for row, a in zip(rows, doc["actions"]):
        what = "action %d" % a["rank"]
        near(row["Rank"], a["rank"], what + " rank", 0)
        if row["Type"] != a["type"]:
            fail("%s type %r, expected %r" % (what, row["Type"], a["type"]))
        near(row["Net savings in the window"], a["net_savings"],
             what + " net savings")
        near(row["Savings %"], a["savings_pct"], what + " savings %", 1e-9)
        near(row["Low-demand net savings"], a["downside_net_savings"],
             what + " downside")
        cells = row["_cells"]
        if a["type"] == "routing":
            # not bought at a rate: its annual cost is training's spot
            # spend, the "costs $X" of its reason, scaled to a year, and
            # what it replaces is that plus its net savings
            m = re.search(r"training on spot costs \$([0-9,.]+) instead of "
                          r"\$([0-9,.]+)", a["reason"])
            if not m:
                fail("%s reason %r" % (what, a["reason"]))
                continue
            near(row["Annual cost"], float(m.group(1).replace(",", "")) * 8760 / hours,
                 what + " annual cost", 0.01 * 8760 / hours)
            near(row["On-demand spend replaced per year"],
                 float(m.group(2).replace(",", "")) * 8760 / hours, what + " replaced",
                 0.01 * 8760 / hours)
            near(row["Annual net savings"], a["net_savings"] * 8760 / hours,
                 what + " annual net savings", 0.01)
            continue
        f = cells["Annual cost"].value
        if not (isinstance(f, str) and f.startswith("=")):
            fail("%s annual cost is not a formula: %r" % (what, f))
        near(row["Upfront"], a["upfront"], what + " upfront")
        near(row["Break-even utilization"], a["breakeven_utilization"],
             what + " break-even", 1e-9)
        near(row["Expected utilization"], a["expected_utilization"],
             what + " expected", 1e-9)
        near(row["Term (years)"], a["term_years"], what + " term", 0)
        if row["Payment"] != a["payment"]:
            fail("%s payment %r" % (what, row["Payment"]))
        qty = a["count"] if a["type"] == "reserved" else \
            a["hourly_commitment"]
        near(row["Quantity"], qty, what + " quantity", 1e-9)
        # annual cost = quantity x rate x 8760 (the formula's meaning)
        near(row["Annual cost"], row["Quantity"] * row["Rate per unit ($/h)"]
             * 8760, what + " annual cost")
        # the window's net savings scaled to a year equal the annual net
        # savings: over the whole window, or over the hours left when it
        # starts inside it (a renewal of a commitment that expires there);
        # a renewal that starts after it is valued over the whole window
        on = hours
        t0 = dt.datetime.strptime(a["start"], "%Y-%m-%dT%H:%M:%SZ")
        w0 = dt.datetime.strptime(doc["window"]["start"],
                                  "%Y-%m-%dT%H:%M:%SZ")
        if w0 < t0 < w0 + dt.timedelta(hours=hours):
            on = hours - (t0 - w0).total_seconds() / 3600
        near(row["Annual net savings"], a["net_savings"] * 8760 / on,
             what + " annual net savings", 0.01)
        if cells["Annual cost"].number_format != MONEY:
            fail("%s annual cost format" % what)
        if cells["Savings %"].number_format != PCT:
            fail("%s savings %% format" % what)
    # the plan buys every action but the renewals, which are offered on
    # top of it: "In the plan" says which, and the total under the table
    # sums those rows alone, so its upfront is --json's plan upfront
    for row, a in zip(rows, doc["actions"]):
        want = "no" if a.get("renewal") else "yes"
        if row.get("In the plan") != want:
            fail("action %d in the plan %r, expected %r"
                 % (a["rank"], row.get("In the plan"), want))
    bought = [row for row, a in zip(rows, doc["actions"])
              if not a.get("renewal")]
    total = [r for r in range(1, ws.max_row + 1)
             if ws.cell(r, 2).value == "Total, the plan"]
    if len(total) != 1:
        fail("Recommendations total rows %r" % total)
    elif rows:
        cols = {h: c.column for h, c in rows[0]["_cells"].items()}
        near(vs.cell(total[0], cols["Upfront"]).value,
             doc["plan"]["upfront"], "total upfront")
        for h in ("Annual cost", "On-demand spend replaced per year",
                  "Annual net savings"):
            near(vs.cell(total[0], cols[h]).value,
                 sum(row[h] for row in bought), "total " + h.lower())
    if ws.freeze_panes != "C5":
        fail("Recommendations frozen at %r" % ws.freeze_panes)


def check_plans(wb, vb, doc, mode):
    ws, vs = wb["Plans"], vb["Plans"]
    if mode == "recommend":
        rows = table(ws, "Plan", vs)
        for row, p in zip(rows, doc["plans"]):
            near(row["Total cost"], p["total_cost"], p["name"] + " total")
            near(row["Net savings"], p["net_savings"], p["name"] + " net")
            near(row["Upfront"], p["upfront"], p["name"] + " upfront")
            near(row["Low-demand net savings"], p["downside_net_savings"],
                 p["name"] + " downside")
            near(row["Longest term (years)"], p["max_term_years"],
                 p["name"] + " term", 0)
        if [r["Plan"] for r in rows] != [p["name"] for p in doc["plans"]]:
            fail("plans %r" % [r["Plan"] for r in rows])
        # what each plan buys: one row per commitment of the JSON plans
        n = sum(len(p["commitments"]) for p in doc["plans"])
        bought = [r for r in ws.iter_rows(min_col=2, max_col=2)
                  if r[0].value in ("reserved", "savings_plan")]
        if len(bought) != n:
            fail("%d commitments in the plans, expected %d" % (len(bought),
                                                               n))
    else:
        rows = table(ws, "Strategy", vs)
        keys = {"Total cost": "total_cost", "All on-demand cost":
                "all_on_demand_cost", "Savings": "savings",
                "On-demand": "on_demand_cost", "Reserved": "reserved_cost",
                "Savings plans": "savings_plan_cost", "Spot": "spot_cost"}
        for row, s in zip(rows, doc["strategies"]):
            for col, key in keys.items():
                near(row[col], s[key], "%s %s" % (s["name"], key))
            for col, key in (("Savings %", "savings_pct"),
                             ("Coverage", "coverage"),
                             ("Reserved utilization", "reserved_utilization"),
                             ("Savings-plan utilization",
                              "savings_plan_utilization")):
                near(row[col], s[key], "%s %s" % (s["name"], key), 1e-9)
            near(row["Cost per useful GPU-hour"],
                 s["cost_per_useful_gpu_hour"], s["name"] + " $/useful")


def check_curves(wb, vb, doc):
    rows = table(wb["Savings curve"], "Instrument", vb["Savings curve"])
    want = [(c["instrument"], p["level"], p["net_savings"])
            for c in doc["curves"] for p in c["points"]]
    if len(rows) != len(want):
        fail("%d curve points, expected %d" % (len(rows), len(want)))
    for row, (name, level, net) in zip(rows, want):
        if row["Instrument"] != name:
            fail("curve %r, expected %r" % (row["Instrument"], name))
        near(row["Level"], level, name + " level", 1e-9)
        near(row["Net savings"], net, name + " net savings")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(s):
    return float(s) if s not in ("", None) else None


def check_ledger_sheets(wb, vb, doc, mode, csv_dir):
    # Monthly cost: every row of monthly.csv, to the cent
    rows = table(wb["Monthly cost"], "Strategy", vb["Monthly cost"])
    want = read_csv(os.path.join(csv_dir, "monthly.csv"))
    if len(rows) != len(want):
        fail("%d months, expected %d" % (len(rows), len(want)))
    cols = {"On-demand": "on_demand_cost", "Reserved": "reserved_cost",
            "Savings plans": "savings_plan_cost", "Spot": "spot_cost",
            "Total (amortized)": "total_cost",
            "Reserved (cash)": "reserved_cash",
            "Savings plans (cash)": "savings_plan_cash",
            "Total (cash)": "total_cash"}
    for row, m in zip(rows, want):
        for col, key in cols.items():
            near(row[col], num(m[key]), "%s %s %s" % (m["strategy"],
                                                      m["month"], key))
    if mode == "simulate":
        for s in doc["strategies"]:
            mine = [r for r in rows if r["Strategy"] == s["name"]]
            for row, m in zip(mine, s["months"]):
                near(row["Total (amortized)"], m["total_cost"],
                     s["name"] + " month total")
                near(row["Total (cash)"], m["total_cash"],
                     s["name"] + " month cash")
    # the daily table sums to the proposed ledger's total
    daily = table(wb["Monthly cost"], "Day", vb["Monthly cost"]) or \
        table(wb["Monthly cost"], "Hour", vb["Monthly cost"])
    hourly = read_csv(os.path.join(csv_dir, "hourly.csv"))
    by_strategy = {}
    for h in hourly:
        by_strategy[h["strategy"]] = by_strategy.get(h["strategy"], 0) + \
            num(h["total_cost"])
    title = wb["Monthly cost"].cell(daily[0]["_row"] - 2, 1).value \
        if daily else ""
    name = title.split(": ", 1)[1].split(" (")[0] if ": " in title else ""
    if name not in by_strategy:
        fail("daily table names strategy %r" % name)
    else:
        near(sum(r["Total"] for r in daily), by_strategy[name],
             "daily totals of " + name, 0.01)
    # Spot: the summary per strategy
    rows = table(wb["Spot"], "Strategy", vb["Spot"])
    if mode == "simulate":
        for row, s in zip(rows, doc["strategies"]):
            near(row["Spot cost (mean, at spot)"], s["spot_cost"], s["name"] + " spot")
            near(row["Expected interruptions"],
                 s["spot"]["interruptions_mean"], s["name"] + " int", 1e-9)
            near(row["Failed-attempt cost"],
                 s["spot"]["failed_attempt_cost_mean"], s["name"] + " fail")
            near(row["P50 with fallback"], s["spot"]["cost_p50"], "p50")
            near(row["P95 with fallback"], s["spot"]["cost_p95"], "p95")
    # every job run, spot and on demand, as job_runs.csv lists them
    jobs = read_csv(os.path.join(csv_dir, "job_runs.csv"))
    if jobs:
        got = list(per_job_rows(wb, vb))
        if len(got) != len(jobs):
            fail("%d job rows, expected %d" % (len(got), len(jobs)))
        for row, j in zip(got, jobs):
            near(row["Cost per completed run"],
                 num(j["cost_per_completed_run"]), j["job_id"] + " cost")
            near(row["Interruptions"], num(j["interruptions_mean"]),
                 j["job_id"] + " interruptions", 1e-9)
            near(row["Cost in the window"], num(j["cost_in_window"]),
                 j["job_id"] + " cost in the window")
            near(row["Waited for capacity (h)"], num(j["wait_h"]),
                 j["job_id"] + " wait", 1e-9)
            near(row["Fallback cost"], num(j["fallback_cost"]),
                 j["job_id"] + " fallback cost")
            if (row["Launch"] == "spot") != (j["launch"] == "spot"):
                fail(j["job_id"] + " launch")
    # Chargeback: every row of chargeback.csv; cost per useful GPU-hour
    rows = table(wb["Chargeback"], "Strategy", vb["Chargeback"])
    want = read_csv(os.path.join(csv_dir, "chargeback.csv"))
    if len(rows) != len(want):
        fail("%d chargeback rows, expected %d" % (len(rows), len(want)))
    for row, c in zip(rows, want):
        what = "%s %s %s" % (c["strategy"], c["team"], c["workload"])
        near(row["Cost"], num(c["cost"]), what + " cost")
        near(row["Useful GPU-hours"], num(c["useful_gpu_hours"]),
             what + " useful")
        cpu = num(c["cost_per_useful_gpu_hour"])
        if cpu is not None:
            near(row["Cost per useful GPU-hour"], cpu, what + " $/useful")
            f = row["_cells"]["Cost per useful GPU-hour"].value
            if not (isinstance(f, str) and f.startswith("=")):
                fail(what + " cost per useful GPU-hour is not a formula")
    # Utilization: each commitment's utilization, from commitments.csv
    want = read_csv(os.path.join(csv_dir, "commitments.csv"))
    if want:
        rows = table(wb["Utilization"], "Strategy", vb["Utilization"])
        if len(rows) != len(want):
            fail("%d commitment rows, expected %d" % (len(rows), len(want)))
        for row, c in zip(rows, want):
            near(row["Cost in the window"], num(c["cost"]), "commit cost")
            near(row["Utilization"], num(c["utilization"]),
                 "commit utilization", 1e-9)


def per_job_rows(wb, vb):
    """The rows of the Spot sheet's per-job table (its second column is
    Job), with their cached values."""
    ws = wb["Spot"]
    for name, t in ws.tables.items():
        ref = t.ref if hasattr(t, "ref") else t
        lo = ref.split(":")[0]
        c0, r0 = openpyxl.utils.cell.coordinate_from_string(lo)
        if ws.cell(r0, 2).value == "Job":
            hi = ref.split(":")[1]
            c1, r1 = openpyxl.utils.cell.coordinate_from_string(hi)
            heads = [ws.cell(r0, c).value for c in range(1, 23)]
            for r in range(r0 + 1, r1 + 1):
                yield {h: vb["Spot"].cell(r, i + 1).value
                       for i, h in enumerate(heads)}


def check_idle(wb, vb, doc):
    idle = doc.get("idle")
    ws = vb["Idle"]
    at = labels(wb["Idle"])
    if idle is None:
        return
    near(ws.cell(at["Idle spans"], 2).value, idle["spans_count"], "spans", 0)
    near(ws.cell(at["Idle GPU-hours"], 2).value, idle["gpu_hours"],
         "idle GPU-hours")
    near(ws.cell(at["Cost of idle time"], 2).value, idle["cost"],
         "idle cost")
    if idle["spans"]:
        rows = table(wb["Idle"], "GPU or job", vb["Idle"])
        for row, s in zip(rows, idle["spans"]):
            near(row["Cost at on-demand"], s["cost"], "span cost")
            near(row["Hours"], s["hours"], "span hours")


def check_inputs(wb, vb, doc):
    at = labels(wb["Inputs"])
    ws = vb["Inputs"]
    tr = doc["inputs"]["trace"]
    near(ws.cell(at["Rows read"], 2).value, tr["rows_read"], "rows", 0)
    near(ws.cell(at["Rows rejected"], 2).value, tr["rows_rejected"],
         "rejected", 0)
    near(ws.cell(at["Job runs"], 2).value, tr["job_runs"], "job runs", 0)
    if ws.cell(at["gpuplan version"], 2).value != doc["inputs"]["version"]:
        fail("version")
    if "strategies" in doc and "Monte Carlo runs used" in at:
        # 0 when no job run was replayed, as the JSON's spot.runs: it
        # read 1000 beside the Spot sheet's 0
        want = max(s["spot"]["runs"] for s in doc["strategies"])
        near(ws.cell(at["Monte Carlo runs used"], 2).value, want,
             "Monte Carlo runs used", 0)
    rows = table(wb["Inputs"], "Provider", vb["Inputs"])
    dates = {(c["provider"], c["region"]): c["as_of"]
             for c in doc["inputs"]["catalogs"]}
    paths = {(c["provider"], c["region"]): c["path"]
             for c in doc["inputs"]["catalogs"]}
    # each catalog's sources, a paragraph under the table
    # ("Sources, aws us-east-1: ...")
    texts = [c for r in vb["Inputs"].iter_rows(values_only=True, max_col=1)
             for c in r if isinstance(c, str)]
    for row in rows:
        key = (row["Provider"], row["Region"])
        if "Prices as of" in row and dates.get(key) != row["Prices as of"]:
            fail("catalog %r as of %r" % (key, row["Prices as of"]))
        # every source, from the catalog file itself: a 1,024-byte buffer
        # cut the bundled AWS catalog's 1,110 characters mid-word
        if key in paths:
            with open(paths[key]) as f:
                want = "Sources, %s %s: " % key + "; ".join(
                    json.load(f).get("sources", []))
            if want not in texts:
                fail("catalog %r sources: no row %r" % (key, want))


def structure_and_numbers(mode, book, doc_path, csv_dir):
    wb = openpyxl.load_workbook(book)
    vb = openpyxl.load_workbook(book, data_only=True)
    doc = json.load(open(doc_path))
    check_structure(wb, vb, mode)
    check_summary(wb, vb, doc, mode)
    if mode == "recommend":
        check_recommendations(wb, vb, doc)
        check_curves(wb, vb, doc)
    check_plans(wb, vb, doc, mode)
    check_ledger_sheets(wb, vb, doc, mode, csv_dir)
    check_idle(wb, vb, doc)
    check_inputs(wb, vb, doc)


def formula_cells(wb):
    for ws in wb:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    yield ws.title, c.coordinate


def strip(book, out):
    """A copy whose formulas have no cached values (openpyxl writes none),
    so LibreOffice must compute every one, and whose what-if inputs are
    changed."""
    wb = openpyxl.load_workbook(book)
    at = labels(wb["Summary"])
    if "Extra discount on commitment rates" in at:
        wb["Summary"].cell(at["Extra discount on commitment rates"], 2) \
            .value = WHAT_IF_DISCOUNT
        wb["Summary"].cell(at["Change in on-demand prices"], 2) \
            .value = WHAT_IF_OD_CHANGE
    if "Discount on every price" in at:
        wb["Summary"].cell(at["Discount on every price"], 2) \
            .value = WHAT_IF_DISCOUNT
        wb["Summary"].cell(at["Change in demand"], 2) \
            .value = WHAT_IF_DEMAND_CHANGE
    wb.save(out)


def recalc(book, recalculated, converted=None):
    """Every formula LibreOffice computed equals the value the program
    cached, except the what-if block, which follows its changed inputs.
    `converted` is the unmodified workbook as LibreOffice saved it: its
    sheets, and the program's numbers in them, came through whole."""
    wb = openpyxl.load_workbook(book)
    vb = openpyxl.load_workbook(book, data_only=True)
    rb = openpyxl.load_workbook(recalculated, data_only=True)
    at = labels(wb["Summary"])
    what_if = set()
    if "Extra discount on commitment rates" in at:
        r = at["Extra discount on commitment rates"]
        what_if = {r + 2, r + 3, r + 4}
    elif "Discount on every price" in at:
        r = at["Discount on every price"]
        what_if = {r + 4, r + 5, r + 6}
    n = 0
    for sheet, cell in formula_cells(wb):
        mine = vb[sheet][cell].value
        theirs = rb[sheet][cell].value
        n += 1
        if sheet == "Summary" and wb[sheet][cell].row in what_if:
            continue
        if mine in (None, ""):
            if theirs not in (None, ""):
                fail("%s!%s: LibreOffice %r, program empty" % (sheet, cell,
                                                               theirs))
            continue
        near(theirs, mine, "%s!%s recalculated" % (sheet, cell), 0.005)
    if n < 10:
        fail("only %d formulas" % n)
    if what_if and "Discount on every price" in at:
        # simulate: commitment charges stay, the rest scales with demand,
        # and every price takes the discount
        r = at["Discount on every price"]
        s = vb["Summary"]
        d, g = WHAT_IF_DISCOUNT, WHAT_IF_DEMAND_CHANGE
        fixed = [s.cell(r + 2, 2).value, s.cell(r + 3, 2).value]
        cost = [s.cell(r + 4, 2).value, s.cell(r + 5, 2).value]
        want = [(f + (c - f) * (1 + g)) * (1 - d)
                for f, c in zip(fixed, cost)]
        near(rb["Summary"].cell(r + 4, 2).value, want[0], "what-if current")
        near(rb["Summary"].cell(r + 5, 2).value, want[1], "what-if plan")
        near(rb["Summary"].cell(r + 6, 2).value, want[0] - want[1],
             "what-if net savings")
    elif what_if:
        r = at["Extra discount on commitment rates"]
        s = vb["Summary"]
        cost, repl = s.cell(r + 2, 2).value, s.cell(r + 3, 2).value
        # the what-if block: the commitments' cost x (1 - discount), the
        # routing action's spot spend as it is, replaced x (1 + change)
        routed = sum(row["Annual cost"]
                     for row in table(wb["Recommendations"], "Rank",
                                      vb["Recommendations"])
                     if row["Type"] == "routing")
        cost = (cost - routed) * (1 - WHAT_IF_DISCOUNT) + routed
        near(rb["Summary"].cell(r + 2, 2).value, cost, "what-if annual cost")
        near(rb["Summary"].cell(r + 3, 2).value,
             repl * (1 + WHAT_IF_OD_CHANGE), "what-if replaced")
        near(rb["Summary"].cell(r + 4, 2).value,
             repl * (1 + WHAT_IF_OD_CHANGE) - cost, "what-if net savings")
    # the sheets and tables survived LibreOffice's reading
    if rb.sheetnames != wb.sheetnames:
        fail("LibreOffice sheets %r" % rb.sheetnames)
    if converted:
        cb = openpyxl.load_workbook(converted, data_only=True)
        if cb.sheetnames != wb.sheetnames:
            fail("LibreOffice read sheets %r" % cb.sheetnames)
        at = labels(wb["Summary"])
        for label in ("Current cost", "Net savings"):
            near(cb["Summary"].cell(at[label], 2).value,
                 vb["Summary"].cell(at[label], 2).value,
                 "LibreOffice's " + label)
    print("check_xlsx: %d formulas recalculated by LibreOffice" % n)


def main():
    mode = sys.argv[1]
    if mode in ("simulate", "recommend"):
        structure_and_numbers(mode, sys.argv[2], sys.argv[3], sys.argv[4])
    elif mode == "strip":
        strip(sys.argv[2], sys.argv[3])
    elif mode == "recalc":
        recalc(sys.argv[2], sys.argv[3],
               sys.argv[4] if len(sys.argv) > 4 else None)
    else:
        sys.exit("usage: check_xlsx.py simulate|recommend|strip|recalc ...")
    for f in failures[:40]:
        print("check_xlsx: " + f, file=sys.stderr)
    if failures:
        print("check_xlsx: %d failures" % len(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
