# Probabilities of the multi-class SVM against scikit-learn's SVC(probability=True), averaged over the seeds of the
# out-of-fold split (issue 31's check: log-loss and Brier score within 2 %).
#
# usage: /usr/bin/python3 prob_seeds.py PSDKIT DIR NAME C GAMMA SEEDS
#
# Both sides fit Platt sigmoids on 5-fold out-of-fold decision values and couple them pairwise (Wu, Lin & Weng 2004,
# method 2); they differ only in the random fold assignment (psdkit: --seed; LIBSVM: random_state). On a small test
# set one assignment or another moves the log-loss by several per cent, so one seed compares two random draws; the
# mean over SEEDS seeds on each side compares the methods. The data split is fixed (75/25 stratified, seed 1, as
# `psdkit bench svm --classes`: digits raw, wine standardised, classes renamed c0, c1, ... in order of first
# appearance). Prints one line per seed and the means with their standard errors.
import csv, math, subprocess, sys
import numpy as np
from sklearn import datasets
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

psdkit, out, name, C, gamma, seeds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), \
    float(sys.argv[5]), int(sys.argv[6])
X, y = getattr(datasets, "load_" + name)(return_X_y=True)
X = X.astype(float)
if name == "wine":
    X = (X - X.mean(axis=0)) / X.std(axis=0)
Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, random_state=1, stratify=y)
first = []
for v in ytr:
    if v not in first:
        first.append(v)
rank = {v: i for i, v in enumerate(first)}
ytr = np.array(["c%d" % rank[v] for v in ytr])
yte = np.array(["c%d" % rank[v] for v in yte])
classes = sorted(set(ytr))


def write(path, XX, yy):
    with open(path, "w") as f:
        f.write(",".join(["f%d" % j for j in range(XX.shape[1])] + ["y"]) + "\n")
        for row, lab in zip(XX, yy):
            f.write(",".join(repr(float(v)) for v in row) + "," + lab + "\n")


train, test = "%s/%s-train.csv" % (out, name), "%s/%s-test.csv" % (out, name)
write(train, Xtr, ytr)
write(test, Xte, yte)
onehot = np.array([[1.0 if c == lab else 0.0 for c in classes] for lab in yte])


def scores(p):
    p = np.clip(p, 1e-15, 1.0)
    return -np.mean(np.log(np.sum(p * onehot, axis=1))), np.mean(np.sum((p - onehot) ** 2, axis=1))


sigma = 1.0 / math.sqrt(2.0 * gamma)
rows = []
for s in range(1, seeds + 1):
    sk = SVC(kernel="rbf", C=C, gamma=gamma, tol=1e-3, cache_size=500, probability=True, random_state=s)
    sk_ll, sk_br = scores(sk.fit(Xtr, ytr).predict_proba(Xte))
    model, pred = "%s/%s-model-%d.json" % (out, name, s), "%s/%s-pred-%d.csv" % (out, name, s)
    subprocess.run([psdkit, "fit", "svm", "--train", train, "--target", "y", "--scale", "none",
                    "--kernel", "gaussian(sigma=%r)" % sigma, "-C", repr(C), "--probability", "--seed", str(s),
                    "--out", model], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    subprocess.run([psdkit, "predict", "--model", model, "--data", test, "--out", pred], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(pred) as f:
        r = list(csv.DictReader(f))
    p = np.array([[float(row["p(%s)" % c]) for c in classes] for row in r])
    ps_ll, ps_br = scores(p)
    rows.append((ps_ll, sk_ll, ps_br, sk_br))
    print("seed %2d  log-loss psdkit %.5f sklearn %.5f   Brier psdkit %.5f sklearn %.5f" % (s, ps_ll, sk_ll,
                                                                                          ps_br, sk_br), flush=True)
a = np.array(rows)
m, se = a.mean(axis=0), a.std(axis=0, ddof=1) / math.sqrt(len(a))
print("%s, %d seeds: mean log-loss psdkit %.5f ± %.5f, sklearn %.5f ± %.5f, ratio %.4f" % (
    name, seeds, m[0], se[0], m[1], se[1], m[0] / m[1]))
print("%s, %d seeds: mean Brier    psdkit %.5f ± %.5f, sklearn %.5f ± %.5f, ratio %.4f" % (
    name, seeds, m[2], se[2], m[3], se[3], m[2] / m[3]))
