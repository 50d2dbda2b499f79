#!/usr/bin/env python3
"""Build gpuplan's bundled pricing catalogs from public pricing data.

Developer tool, run by hand; the JSON it writes is committed:

    python3 pricing/tools/build_catalogs.py [DATA_DIR] [--out OUT_DIR]

DATA_DIR defaults to ../shared/data relative to the repository root (the
directory two levels above this script's folder); OUT_DIR defaults to the
repository's pricing/ directory. Python 3 standard library only. Output is
deterministic: instance types sorted by name, fixed field order, 2-space
indent, trailing newline.

Writes:
    pricing/aws/us-east-1.json
    pricing/gcp/us-central1.json
    pricing/azure/eastus.json

See pricing/README.md for where every number comes from and which ones are
estimates.
"""

import argparse
import csv
import json
import math
import os
import re
import sys

SCHEMA = "gpuplan-catalog/1"
HOURS_PER_YEAR = 8760

# ---------------------------------------------------------------------------
# Inputs (paths inside DATA_DIR)
# ---------------------------------------------------------------------------
AWS_ONDEMAND_FILE = "pricing/aws-ondemand-history/zz_generated.pricing_aws.go.HEAD"
AWS_ONDEMAND_AS_OF = "2026-07-20"  # "generated at 2026-07-20T13:44:30Z for us-east-1"
AWS_SPOT_ADVISOR_FILE = "pricing/aws-spot-advisor/spot-advisor-data.json"
AWS_SPOT_ADVISOR_DATE = "2025-06-28"  # snapshot date (shared/data/README.md)
GCP_AZURE_FILE = "pricing/gcp-azure/gpu-prices-2026-05-20.csv"
GCP_AZURE_AS_OF = "2026-05-20"

# ---------------------------------------------------------------------------
# Commitment ratio table: effective price as a fraction of on-demand.
#
# Published points (shared/data/README.md, AWS list prices quoted in March
# 2026 articles; only their ratios are used):
#   p4d.24xlarge 1y standard RI no upfront   37% off -> 0.63
#   g5.xlarge    1y standard RI partial      38% off -> 0.62
#   p4d.24xlarge 1y standard RI all upfront  43% off -> 0.57 (effective)
#   g5.xlarge    3y standard RI partial      58% off -> 0.42
# Gaps (3y no upfront, 3y all upfront) are filled by applying the 1-year
# spacing between payment options to the published 3-year partial point:
#   no upfront = partial + 0.01, all upfront = partial - 0.05.
# Savings plans:
#   instance_family plan = standard reservation of the same term/payment.
#   compute plan = reservation ratio + COMPUTE_SP_PREMIUM (6 points less
#   discount: AWS advertises up to 72% off for EC2 Instance Savings Plans
#   and up to 66% off for Compute Savings Plans).
# Every number derived from this table is marked "estimate": true.
# ---------------------------------------------------------------------------
RESERVED_RATIO = {
    (1, "no_upfront"): 0.63,
    (1, "partial_upfront"): 0.62,
    (1, "all_upfront"): 0.57,
    (3, "no_upfront"): 0.43,
    (3, "partial_upfront"): 0.42,
    (3, "all_upfront"): 0.37,
}
COMPUTE_SP_PREMIUM = 0.06
# Partial upfront: this share of the term's effective cost is paid upfront,
# the rest hourly (AWS's partial-upfront offers split about 50/50).
PARTIAL_UPFRONT_SHARE = 0.5

TERMS = (1, 3)
PAYMENTS = ("no_upfront", "partial_upfront", "all_upfront")

# ---------------------------------------------------------------------------
# AWS
# ---------------------------------------------------------------------------
# AWS's published instance specs (EC2 "Accelerated computing" instance type
# pages): (gpu_model, gpus, vcpus, memory_gib). The spot advisor's own
# cores/ram_gb fields are used only as a cross-check (warning on mismatch).
AWS_SPECS = {
    # P3: NVIDIA V100 16 GB
    "p3.2xlarge": ("V100", 1, 8, 61),
    # P4d / P4de: NVIDIA A100 40 GB / 80 GB
    "p4d.24xlarge": ("A100-40GB", 8, 96, 1152),
    "p4de.24xlarge": ("A100-80GB", 8, 96, 1152),
    # P5: NVIDIA H100 80 GB; P5en: NVIDIA H200 141 GB
    "p5.4xlarge": ("H100", 1, 16, 256),
    "p5.48xlarge": ("H100", 8, 192, 2048),
    "p5e.48xlarge": ("H200", 8, 192, 2048),
    "p5en.48xlarge": ("H200", 8, 192, 2048),
    # G4dn: NVIDIA T4 16 GB
    "g4dn.xlarge": ("T4", 1, 4, 16),
    "g4dn.2xlarge": ("T4", 1, 8, 32),
    "g4dn.4xlarge": ("T4", 1, 16, 64),
    "g4dn.8xlarge": ("T4", 1, 32, 128),
    "g4dn.12xlarge": ("T4", 4, 48, 192),
    "g4dn.16xlarge": ("T4", 1, 64, 256),
    # G5: NVIDIA A10G 24 GB
    "g5.xlarge": ("A10G", 1, 4, 16),
    "g5.2xlarge": ("A10G", 1, 8, 32),
    "g5.4xlarge": ("A10G", 1, 16, 64),
    "g5.8xlarge": ("A10G", 1, 32, 128),
    "g5.12xlarge": ("A10G", 4, 48, 192),
    "g5.16xlarge": ("A10G", 1, 64, 256),
    "g5.24xlarge": ("A10G", 4, 96, 384),
    "g5.48xlarge": ("A10G", 8, 192, 768),
    # G6: NVIDIA L4 24 GB
    "g6.xlarge": ("L4", 1, 4, 16),
    "g6.2xlarge": ("L4", 1, 8, 32),
    "g6.4xlarge": ("L4", 1, 16, 64),
    "g6.8xlarge": ("L4", 1, 32, 128),
    "g6.12xlarge": ("L4", 4, 48, 192),
    "g6.16xlarge": ("L4", 1, 64, 256),
    "g6.24xlarge": ("L4", 4, 96, 384),
    "g6.48xlarge": ("L4", 8, 192, 768),
    # G6e: NVIDIA L40S 48 GB
    "g6e.xlarge": ("L40S", 1, 4, 32),
    "g6e.2xlarge": ("L40S", 1, 8, 64),
    "g6e.4xlarge": ("L40S", 1, 16, 128),
    "g6e.8xlarge": ("L40S", 1, 32, 256),
    "g6e.12xlarge": ("L40S", 4, 48, 384),
    "g6e.16xlarge": ("L40S", 1, 64, 512),
    "g6e.24xlarge": ("L40S", 4, 96, 768),
    "g6e.48xlarge": ("L40S", 8, 192, 1536),
}

# Types that must be in the AWS catalog (build fails if the data lacks them).
AWS_REQUIRED = [
    "p4d.24xlarge", "p4de.24xlarge", "p5.48xlarge",
    "g5.xlarge", "g5.12xlarge", "g5.48xlarge",
    "g6.xlarge", "g6.12xlarge", "g6e.xlarge", "g6e.12xlarge",
    "g4dn.xlarge", "p3.2xlarge",
]
# Families whose other sizes are added when present in the on-demand data.
AWS_SIZE_FAMILIES = ("g4dn", "g5", "g6", "g6e", "p5")
AWS_SIZE_SUFFIXES = ("xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge",
                     "16xlarge", "24xlarge", "48xlarge")
# Added when present in the on-demand data.
AWS_OPTIONAL = ["p5e.48xlarge", "p5en.48xlarge"]

# AWS reserved-instance size flexibility: normalization factor per size.
AWS_NORMALIZATION = {
    "xlarge": 8, "2xlarge": 16, "4xlarge": 32, "8xlarge": 64,
    "12xlarge": 96, "16xlarge": 128, "24xlarge": 192, "48xlarge": 384,
}

# Spot Instance Advisor interruption buckets -> assumed monthly rate
# (bucket midpoint; the open ">20%" bucket is taken as 25%).
AWS_SPOT_BUCKET_RATE = {0: 0.025, 1: 0.075, 2: 0.125, 3: 0.175, 4: 0.25}

# ---------------------------------------------------------------------------
# GCP / Azure
# ---------------------------------------------------------------------------
# Providers publish no spot interruption rate: assumed monthly rate.
ASSUMED_SPOT_INTERRUPTION = {"gcp": 0.15, "azure": 0.15}

# AWS EC2 Capacity Blocks for ML: the published examples of the pre-2025
# price list, $/instance-hour (prices move with supply and demand, so they
# are marked estimates).  Durations 1-14 days, then 7-day steps to 182.
AWS_CAPACITY_BLOCK_AS_OF = "2024 price list (pre-2025)"
AWS_CAPACITY_BLOCK = {"p5.48xlarge": 39.33, "p4d.24xlarge": 14.75}

# GCP Dynamic Workload Scheduler: flex-start and calendar mode are priced
# at up to 53% off on-demand; the maximum published discount, an estimate,
# for the 8-GPU training machines.  The wait is an assumption.
GCP_DWS_DISCOUNT = 0.53
GCP_DWS_TYPES = ("a2-highgpu-8g", "a2-ultragpu-8g", "a3-highgpu-8g",
                 "a3-megagpu-8g")
GCP_FLEX_EXPECTED_WAIT_H = 4.0

# GPU model labels: the CSV's label is kept except where it is ambiguous,
# so that the same GPU has the same label in every catalog.
GPU_MODEL_OVERRIDES = {
    # A2 high-GPU machine types carry A100 40 GB GPUs.
    ("gcp", "a2-highgpu-1g"): "A100-40GB",
    ("gcp", "a2-highgpu-8g"): "A100-40GB",
    # A3 Mega carries the same H100 80 GB GPUs as A3 High (more networking).
    ("gcp", "a3-megagpu-8g"): "H100",
    # ND A100 v4 (ND96asr_v4) carries A100 40 GB GPUs.
    ("azure", "Standard_ND96asr_v4"): "A100-40GB",
    # NC H100 v5 (NCads_H100_v5) carries H100 NVL 94 GB GPUs.
    ("azure", "Standard_NC40ads_H100_v5"): "H100-NVL",
}


def die(msg):
    sys.stderr.write("build_catalogs: error: %s\n" % msg)
    sys.exit(1)


def warn(msg):
    sys.stderr.write("build_catalogs: warning: %s\n" % msg)


def r6(x):
    """Round a rate to 6 decimals (and avoid -0.0)."""
    v = round(x, 6)
    return 0.0 if v == 0 else v


def num(x):
    """An int when the value is integral, else the float."""
    f = float(x)
    return int(f) if f == int(f) else f


def reservation(on_demand, term, payment, ratio):
    """One reservation offer at effective price ratio x on_demand.

    upfront is rounded to cents; hourly is then rounded to 6 decimals so
    that hourly + upfront / (term * 8760) equals the effective rate.
    """
    hours = term * HOURS_PER_YEAR
    effective = on_demand * ratio
    if payment == "no_upfront":
        upfront = 0
        hourly = r6(effective)
    elif payment == "partial_upfront":
        upfront = round(effective * hours * PARTIAL_UPFRONT_SHARE, 2)
        hourly = r6(effective - upfront / hours)
    elif payment == "all_upfront":
        upfront = round(effective * hours, 2)
        hourly = 0
    else:
        raise ValueError(payment)
    return {"term_years": term, "payment": payment, "hourly": hourly,
            "upfront": upfront, "estimate": True}


def savings_plan(on_demand, kind, term, payment, ratio):
    """A savings-plan rate for this type: the plan's hourly rate per
    instance-hour. How the commitment itself is paid (payment) changes the
    rate, not the way usage is charged, so there is no upfront here."""
    return {"kind": kind, "term_years": term, "payment": payment,
            "hourly": r6(on_demand * ratio), "estimate": True}


# ---------------------------------------------------------------------------
# AWS
# ---------------------------------------------------------------------------
def parse_karpenter_go(path, region="us-east-1"):
    """Parse the Go map literal: the block `"us-east-1": {` ... `},`,
    entries like `"g5.xlarge": 1.006000,` (several per line)."""
    prices = {}
    entry = re.compile(r'"([A-Za-z0-9.\-]+)"\s*:\s*([0-9]+(?:\.[0-9]+)?)')
    start = re.compile(r'^\s*"%s"\s*:\s*\{\s*$' % re.escape(region))
    inside = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not inside:
                if start.match(line):
                    inside = True
                continue
            stripped = line.strip()
            if stripped in ("},", "}"):
                break
            if stripped.startswith("//"):
                continue
            for name, value in entry.findall(line):
                if name in prices:
                    die("%s: duplicate entry %s" % (path, name))
                prices[name] = float(value)
    if not prices:
        die("%s: no %s block found" % (path, region))
    return prices


def aws_type_list(ondemand):
    names = []
    for name in AWS_REQUIRED:
        if name not in ondemand:
            die("required AWS type %s not in on-demand data" % name)
        names.append(name)
    for fam in AWS_SIZE_FAMILIES:
        for size in AWS_SIZE_SUFFIXES:
            name = "%s.%s" % (fam, size)
            if name in ondemand and name not in names:
                names.append(name)
    for name in AWS_OPTIONAL:
        if name in ondemand and name not in names:
            names.append(name)
    for name in names:
        if name not in AWS_SPECS:
            die("no published spec in AWS_SPECS for %s" % name)
    return sorted(names)


def build_aws(data_dir):
    ondemand = parse_karpenter_go(os.path.join(data_dir, AWS_ONDEMAND_FILE))
    with open(os.path.join(data_dir, AWS_SPOT_ADVISOR_FILE), encoding="utf-8") as f:
        advisor = json.load(f)
    ranges = {rg["index"]: rg["label"] for rg in advisor["ranges"]}
    spot_data = advisor["spot_advisor"]["us-east-1"]["Linux"]
    advisor_specs = advisor.get("instance_types", {})

    types = {}
    missing_spot = []
    for name in aws_type_list(ondemand):
        family, size = name.split(".", 1)
        gpu_model, gpus, vcpus, mem = AWS_SPECS[name]
        od = ondemand[name]
        adv = advisor_specs.get(name)
        if adv and (adv.get("cores") != vcpus or adv.get("ram_gb") != mem):
            warn("%s: spec table says %d vCPU %d GiB, spot advisor says %s vCPU %s GiB"
                 % (name, vcpus, mem, adv.get("cores"), adv.get("ram_gb")))
        entry = {"family": family, "gpu_model": gpu_model, "gpus": gpus,
                 "vcpus": vcpus, "memory_gib": mem}
        if size in AWS_NORMALIZATION:
            entry["normalization_factor"] = AWS_NORMALIZATION[size]
        entry["on_demand"] = r6(od)
        entry["reserved"] = [
            reservation(od, t, p, RESERVED_RATIO[(t, p)])
            for t in TERMS for p in PAYMENTS]
        entry["savings_plans"] = (
            [savings_plan(od, "compute", t, p,
                          RESERVED_RATIO[(t, p)] + COMPUTE_SP_PREMIUM)
             for t in TERMS for p in PAYMENTS]
            + [savings_plan(od, "instance_family", t, p, RESERVED_RATIO[(t, p)])
               for t in TERMS for p in PAYMENTS])
        sp = spot_data.get(name)
        if sp is None:
            missing_spot.append(name)
        else:
            s, r = sp["s"], sp["r"]
            if r not in AWS_SPOT_BUCKET_RATE or r not in ranges:
                die("%s: unknown spot advisor bucket %r" % (name, r))
            entry["spot"] = {
                "hourly": r6(od * (1 - s / 100.0)),
                "interruption_rate_monthly": AWS_SPOT_BUCKET_RATE[r],
                "interruption_bucket": ranges[r],
                "estimate": True,
            }
        if name in AWS_CAPACITY_BLOCK:
            entry["capacity_blocks"] = [{
                "hourly": AWS_CAPACITY_BLOCK[name], "min_days": 1,
                "max_days": 182, "estimate": True}]
        types[name] = entry
    for name in missing_spot:
        warn("aws %s: not in the Spot Instance Advisor (us-east-1 Linux); no spot entry" % name)

    return {
        "schema": SCHEMA,
        "provider": "aws",
        "region": "us-east-1",
        "currency": "USD",
        "as_of": AWS_ONDEMAND_AS_OF,
        "sources": [
            "on_demand: AWS Price List API, us-east-1, Linux, shared tenancy, "
            "$/instance-hour, as generated by Karpenter at 2026-07-20T13:44:30Z "
            "(aws/karpenter-provider-aws pkg/providers/pricing/"
            "zz_generated.pricing_aws.go @1d927085, Apache-2.0)",
            "spot.hourly: estimate = on_demand x (1 - s/100), s = savings %% vs "
            "on-demand from the AWS Spot Instance Advisor feed, us-east-1 Linux, "
            "snapshot %s (via alexei-led/spotinfo, Apache-2.0)" % AWS_SPOT_ADVISOR_DATE,
            "spot.interruption_*: AWS Spot Instance Advisor interruption bucket "
            "(same snapshot); interruption_rate_monthly = bucket midpoint "
            "(<5% 0.025, 5-10% 0.075, 10-15% 0.125, 15-20% 0.175, >20% 0.25); estimate",
            "reserved: estimate = on_demand x ratio per term/payment (standard RIs; "
            "ratios from published p4d/g5 reservation discounts, see "
            "pricing/README.md); partial upfront paid 50% upfront, 50% hourly",
            "savings_plans: estimate; instance_family = reserved ratio of the same "
            "term/payment, compute = that ratio + 0.06 (AWS: up to 72% vs up to 66% off)",
            "family, gpu_model, gpus, vcpus, memory_gib: AWS published instance "
            "specs; normalization_factor: AWS reserved-instance size flexibility table",
            "capacity_blocks: AWS EC2 Capacity Blocks for ML, published price "
            "examples of the AWS %s: p5.48xlarge $39.33, p4d.24xlarge $14.75 per "
            "instance-hour; prices move with supply and demand, so estimate; "
            "1-14 days, then 7-day steps to 182" % AWS_CAPACITY_BLOCK_AS_OF,
        ],
        "instance_types": types,
    }, missing_spot


# ---------------------------------------------------------------------------
# GCP / Azure
# ---------------------------------------------------------------------------
def gcp_family(name):
    """a2-highgpu-8g -> a2 (the machine series)."""
    return name.split("-", 1)[0]


AZURE_SIZE = re.compile(r"^Standard_([A-Z]+)([0-9]+)(.*)$")


def azure_family(name):
    """Standard_NC24ads_A100_v4 -> NCads_A100_v4: drop the Standard_ prefix
    and the vCPU count after the family letters (the size series)."""
    m = AZURE_SIZE.match(name)
    if not m:
        die("cannot derive Azure series from %s" % name)
    return m.group(1) + m.group(3)


def read_gcp_azure(data_dir):
    path = os.path.join(data_dir, GCP_AZURE_FILE)
    rows = []
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            rows.append(row)
    return rows


def build_gcp_azure(rows, provider, region):
    types = {}
    spot_above = []
    for row in rows:
        if row["provider"] != provider or row["region"] != region:
            continue
        name = row["instance_type"]
        if name in types:
            die("%s %s: duplicate row" % (provider, name))
        od = float(row["on_demand_hourly"])
        family = gcp_family(name) if provider == "gcp" else azure_family(name)
        entry = {
            "family": family,
            "gpu_model": GPU_MODEL_OVERRIDES.get((provider, name), row["gpu_model"]),
            "gpus": num(row["gpus"]),
            "vcpus": num(row["vcpus"]),
            "memory_gib": num(row["memory_gib"]),
            "on_demand": r6(od),
        }
        if provider == "gcp":
            # Resource-based CUDs: 1y or 3y, billed monthly, no upfront.
            entry["reserved"] = [
                reservation(od, t, "no_upfront", RESERVED_RATIO[(t, "no_upfront")])
                for t in TERMS]
            entry["savings_plans"] = []
        else:
            # Azure reservations: monthly or upfront payment costs the same
            # total, so both payments use the no-upfront ratio.
            entry["reserved"] = [
                reservation(od, t, p, RESERVED_RATIO[(t, "no_upfront")])
                for t in TERMS for p in ("no_upfront", "all_upfront")]
            entry["savings_plans"] = [
                savings_plan(od, "compute", t, "no_upfront",
                             RESERVED_RATIO[(t, "no_upfront")] + COMPUTE_SP_PREMIUM)
                for t in TERMS]
        if row["spot_hourly"].strip():
            spot = float(row["spot_hourly"])
            if spot > od:
                spot_above.append(name)
                warn("%s %s: spot %.6f above on-demand %.6f (kept as published)"
                     % (provider, name, spot, od))
            entry["spot"] = {
                "hourly": r6(spot),
                "interruption_rate_monthly": ASSUMED_SPOT_INTERRUPTION[provider],
                "interruption_bucket": "unknown",
                "estimate": True,
            }
        if provider == "gcp" and name in GCP_DWS_TYPES:
            dws = r6(od * (1 - GCP_DWS_DISCOUNT))
            entry["flex_start"] = {
                "hourly": dws, "max_days": 7,
                "expected_wait_h": GCP_FLEX_EXPECTED_WAIT_H, "estimate": True}
            entry["calendar"] = [{"hourly": dws, "min_days": 1,
                                  "max_days": 90, "estimate": True}]
        types[name] = entry
    if not types:
        die("no %s %s rows in %s" % (provider, region, GCP_AZURE_FILE))

    src_prices = ("on_demand, spot.hourly: %s %s published list prices, "
                  "$/instance-hour, %s, from %s (a public daily catalog of "
                  "the provider's pricing API%s; facts)"
                  % (provider.upper() if provider == "gcp" else "Azure", region,
                     GCP_AZURE_AS_OF, os.path.basename(GCP_AZURE_FILE),
                     "; VM and GPU prices added together" if provider == "gcp" else
                     "; Linux"))
    if provider == "gcp":
        sources = [
            src_prices,
            "spot.interruption_*: assumption, GCP publishes no interruption "
            "rate: 0.15 per month, bucket \"unknown\" (estimate; the spot price "
            "itself is published)",
            "reserved: estimate; resource-based committed use discounts "
            "(1y/3y, no upfront) = on_demand x 0.63 (1y) / 0.43 (3y), the "
            "no-upfront rows of the AWS-derived ratio table in pricing/README.md",
            "savings_plans: none (spend-based flexible CUDs not modelled)",
            "flex_start, calendar: estimate; Dynamic Workload Scheduler = "
            "on_demand x 0.47, GCP's maximum published discount for it "
            "(\"up to 53%%\", quoted 2026-11-28), for %s; expected_wait_h 4 "
            "is an assumption (GCP publishes no wait)"
            % ", ".join(GCP_DWS_TYPES),
            "family: machine series (name before the first '-'); gpu_model: "
            "catalog label, A100 -> A100-40GB and H100-MEGA -> H100 for a2-highgpu/a3-megagpu",
        ]
    else:
        sources = [
            src_prices,
            "spot.interruption_*: assumption, Azure publishes no interruption "
            "rate: 0.15 per month, bucket \"unknown\" (estimate; the spot price "
            "itself is published)",
            "reserved: estimate; Azure reserved VM instances 1y/3y paid monthly "
            "(no_upfront) or upfront (all_upfront), same total either way = "
            "on_demand x 0.63 (1y) / 0.43 (3y), AWS-derived ratio table in pricing/README.md",
            "savings_plans: estimate; Azure savings plan for compute (kind compute, "
            "no_upfront) = on_demand x 0.69 (1y) / 0.49 (3y)",
            "family: VM size series (size name without Standard_ and vCPU count); "
            "gpu_model: catalog label, A100 -> A100-40GB for ND96asr_v4, "
            "H100 -> H100-NVL for NC40ads_H100_v5",
        ]
    return {
        "schema": SCHEMA,
        "provider": provider,
        "region": region,
        "currency": "USD",
        "as_of": GCP_AZURE_AS_OF,
        "sources": sources,
        "instance_types": types,
    }, spot_above


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------
def check_catalog(cat):
    """Light self-check of what the C loader will validate."""
    for name, t in cat["instance_types"].items():
        for k in ("on_demand",):
            if not (isinstance(t[k], float) or isinstance(t[k], int)) or t[k] <= 0:
                die("%s: bad %s" % (name, k))
        for res in t["reserved"]:
            eff = res["hourly"] + res["upfront"] / (res["term_years"] * HOURS_PER_YEAR)
            want = t["on_demand"] * RESERVED_RATIO[(res["term_years"], "no_upfront")] \
                if cat["provider"] != "aws" else \
                t["on_demand"] * RESERVED_RATIO[(res["term_years"], res["payment"])]
            if not math.isclose(eff, want, abs_tol=2e-6):
                die("%s: effective reserved rate %.8f != %.8f" % (name, eff, want))


def write_catalog(cat, path):
    check_catalog(cat)
    cat = dict(cat)
    cat["instance_types"] = {k: cat["instance_types"][k]
                             for k in sorted(cat["instance_types"])}
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = json.dumps(cat, indent=2, ensure_ascii=False) + "\n"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote %s (%d instance types)" % (path, len(cat["instance_types"])))


def main(argv=None):
    repo_root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data_dir", nargs="?",
                    default=os.path.join(repo_root, "..", "shared", "data"),
                    help="shared data directory (default: ../shared/data "
                         "relative to the repository root)")
    ap.add_argument("--out", default=os.path.join(repo_root, "pricing"),
                    help="output directory (default: the repository's pricing/)")
    args = ap.parse_args(argv)
    data_dir = os.path.normpath(args.data_dir)
    if not os.path.isdir(data_dir):
        die("data directory %s not found" % data_dir)

    aws, _ = build_aws(data_dir)
    write_catalog(aws, os.path.join(args.out, "aws", "us-east-1.json"))
    rows = read_gcp_azure(data_dir)
    gcp, _ = build_gcp_azure(rows, "gcp", "us-central1")
    write_catalog(gcp, os.path.join(args.out, "gcp", "us-central1.json"))
    azure, _ = build_gcp_azure(rows, "azure", "eastus")
    write_catalog(azure, os.path.join(args.out, "azure", "eastus.json"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
