"""The renewal case of recommend_renewal.sh and recommend_renewal_money.sh.

Writes OUT/t.csv, two weeks of g6e.xlarge (us-east-1) from 2026-05-01:
N instances in the first week and 1.5 N in the second; and OUT/in.json and
OUT/after.json, N owned 1-year no-upfront reservations bought on
2025-05-08 (expiring a week into the window) and 2025-05-20 (after it).

Usage: python3 renewal_case.py OUT N
"""
import datetime as dt
import sys

out, n = sys.argv[1], int(sys.argv[2])
t0 = dt.datetime(2026, 5, 1)
with open(out + "/t.csv", "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(14 * 24):
        t = (t0 + dt.timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
        f.write(f"{t},g6e.xlarge,inference,{n if h < 7 * 24 else n * 3 // 2}\n")
for name, start in (("in", "2025-05-08"), ("after", "2025-05-20")):
    open(f"{out}/{name}.json", "w").write(
        '{"schema": "gpuplan-scenario/1", "commitments": [{"type": '
        '"reserved", "provider": "aws", "region": "us-east-1", '
        f'"instance_type": "g6e.xlarge", "count": {n}, "term_years": 1, '
        f'"payment": "no_upfront", "start": "{start}T00:00:00Z"}}]}}')
