#!/usr/bin/env python3
"""Summarise `psdkit reproduce tk-table1 --out` CSV files against Colbert & Peet 2020, Table I.

Usage: table1_summary.py REFERENCE.csv ROWS.csv [ROWS.csv ...]

REFERENCE.csv is psdkit-experiments' colbert-peet-2020-table1.csv. Per data set and method: the mean and sample
standard deviation of the test accuracy over the splits, the mean CV + fit seconds per split (the fit alone in
brackets), and the verdict against the paper with the standard error of the difference of the two means,
sqrt(sd^2/k + sd_paper^2/30), k the number of splits here (30 in the paper).
"""
import csv
import statistics
import sys

METHOD = {"TK": "tk", "SimpleMKL": "simplemkl", "SimpleMKL-TK": "simplemkl-tk", "Combined": "combined"}
SHORT = {"breast-cancer-wisconsin": "breast-cancer", "heart-statlog": "heart"}


def main(argv):
    ref = {}
    with open(argv[1]) as f:
        for r in csv.DictReader(line for line in f if not line.startswith("#")):
            ref[(r["dataset"], r["method"])] = r
    rows = {}
    for path in argv[2:]:
        with open(path) as f:
            for r in csv.DictReader(f):
                key = (r["dataset"], r["method"])
                rows.setdefault(key, {})[int(r["split"])] = r  # a split run twice counts once
    print("| data set | column | splits | accuracy % | paper | verdict | s per split (CV + fit) | paper s |")
    print("|---|---|---:|---|---|---|---:|---:|")
    for (ds, method), by_split in rows.items():
        acc = [float(r["accuracy"]) for r in by_split.values()]
        tot = [float(r["total_seconds"]) for r in by_split.values()]
        fit = [float(r["fit_seconds"]) for r in by_split.values()]
        k = len(acc)
        mean, sd = statistics.mean(acc), statistics.stdev(acc)
        name = SHORT.get(ds, ds)
        p = ref.get((ds, METHOD.get(method, method.lower()))) or ref.get((name, METHOD.get(method, method.lower())))
        if p is None:
            verdict, paper, ps = "no reference", "", ""
        else:
            pm, psd = float(p["accuracy"]), float(p["sd"])
            se = (sd * sd / k + psd * psd / 30) ** 0.5
            diff = mean - pm
            if diff >= 0:
                verdict = "above (+%.2f)" % diff
            elif -diff <= se:
                verdict = "within 1 SE (%.2f, SE %.2f)" % (diff, se)
            else:
                verdict = "**below by %.1f SE** (%.2f, SE %.2f)" % (-diff / se, diff, se)
            paper, ps = "%.2f ± %.2f" % (pm, psd), p["seconds"]
        print("| %s | %s | %d | %.2f ± %.2f | %s | %s | %.1f (fit %.2f) | %s |"
              % (name, method, k, mean, sd, paper, verdict, statistics.mean(tot), statistics.mean(fit), ps))


if __name__ == "__main__":
    main(sys.argv)
