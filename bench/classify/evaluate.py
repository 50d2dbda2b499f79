#!/usr/bin/env python3
"""Score `gpuplan classify --json` against the answers make_eval.py kept:
accuracy, the confusion matrix, accuracy by source and by history length,
and the mean confidence of right and wrong verdicts.

Usage:  python3 evaluate.py OUT.json TRUTH.csv
Exits 1 if a series of truth.csv is missing from the output.
Python 3 standard library only.
"""

import csv
import json
import sys

LABELS = ("training", "inference")
SAID = LABELS + ("unknown",)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    decided = {(s["team"], s["project"]): s
               for s in json.load(open(argv[1]))["classified"]["decided"]}
    truth = list(csv.DictReader(open(argv[2], encoding="utf-8")))
    confusion = {(a, p): 0 for a in LABELS for p in SAID}
    by_source, by_length, conf = {}, {}, {True: [], False: []}
    for t in truth:
        s = decided.get((t["team"], t["project"]))
        if s is None:
            sys.stderr.write("evaluate.py: %s/%s not classified\n"
                             % (t["team"], t["project"]))
            return 1
        # the side the evidence leans to, which an unknown has too
        lean = "training" if s["score"] > 0 else "inference"
        ok = lean == t["workload"]
        confusion[(t["workload"], s["workload"])] += 1
        span = s["features"]["span_hours"]
        length = ("under 6 hours" if span < 6 else
                  "6 to 47 hours (short)" if span < 48 else
                  "2 to 6 days" if span < 168 else
                  "7 to 13 days" if span < 336 else "14 days or more")
        for table, key in ((by_source, t["source"]), (by_length, length)):
            a = table.setdefault(key, [0, 0])
            a[0] += ok
            a[1] += 1
        conf[ok].append(s["confidence"])
    n = len(truth)
    right = sum(a[0] for a in by_source.values())
    recall = []
    for a in LABELS:
        m = [s for s in truth if s["workload"] == a]
        recall.append(sum(1 for s in m
                          if (decided[(s["team"], s["project"])]["score"] > 0)
                          == (a == "training")) / max(1, len(m)))
    print("series: %d, accuracy %d/%d = %.1f%%, balanced accuracy %.1f%%"
          % (n, right, n, 100.0 * right / n, 50.0 * sum(recall)))
    print()
    print("confusion matrix (rows: true label, columns: classify's label)")
    print("%-12s %10s %10s %10s" % ("", "training", "inference", "unknown"))
    for a in LABELS:
        print("%-12s %10d %10d %10d" % (a, confusion[(a, "training")],
                                        confusion[(a, "inference")],
                                        confusion[(a, "unknown")]))
    print()
    print("%-24s %9s %7s" % ("source", "correct", "share"))
    for k in sorted(by_source):
        c, m = by_source[k]
        print("%-24s %4d/%-4d %6.1f%%" % (k, c, m, 100.0 * c / m))
    print()
    print("%-24s %9s %7s" % ("history", "correct", "share"))
    for k in ("under 6 hours", "6 to 47 hours (short)", "2 to 6 days",
              "7 to 13 days", "14 days or more"):
        if k in by_length:
            c, m = by_length[k]
            print("%-24s %4d/%-4d %6.1f%%" % (k, c, m, 100.0 * c / m))
    print()
    for ok in (True, False):
        v = conf[ok]
        if v:
            print("mean confidence when %s: %.3f (%d series)"
                  % ("right" if ok else "wrong", sum(v) / len(v), len(v)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
