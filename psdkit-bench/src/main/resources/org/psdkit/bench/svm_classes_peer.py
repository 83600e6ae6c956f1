# The scikit-learn peer of `psdkit bench svm --classes` (MulticlassSvmBenchmark): run by /usr/bin/python3.
# usage: svm_classes_peer.py DIR NAME C GAMMA TOL REPEATS SEED
# Loads scikit-learn's data set NAME (digits: pixels as given; wine: standardised), splits it 75/25 (stratified,
# random_state=SEED), renames the classes c0, c1, ... in order of first appearance in the training part (so that
# scikit-learn's sorted classes are LIBSVM's and psdkit's order of first appearance), draws sample weights in [0.5, 2)
# and writes DIR/NAME-train.csv, -test.csv, -weights.csv. Then fits SVC(rbf, C, gamma, tol) REPEATS times per variant
# (best time) and writes per test row: the ovo decision values, labels, probabilities and the weighted variants' labels.
# Prints one JSON line of timings.
import json, sys, time
import numpy as np
from sklearn import datasets
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

if sys.argv[1] == "cold":
    # usage: svm_classes_peer.py cold TRAIN.csv C GAMMA TOL: one SVC fit in a fresh process (the caller times it)
    import csv
    rows = list(csv.reader(open(sys.argv[2])))[1:]
    SVC(kernel="rbf", C=float(sys.argv[3]), gamma=float(sys.argv[4]), tol=float(sys.argv[5]), cache_size=500,
        decision_function_shape="ovo").fit(np.array([[float(v) for v in r[:-1]] for r in rows]),
                                           [r[-1] for r in rows])
    sys.exit(0)
out, name, C, gamma, tol, repeats, seed = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), \
    float(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
X, y = getattr(datasets, "load_" + name)(return_X_y=True)
X = X.astype(float)
if name == "wine":
    X = (X - X.mean(axis=0)) / X.std(axis=0)
Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.25, random_state=seed, stratify=y)
first = []
for v in ytr:
    if v not in first:
        first.append(v)
rank = {v: i for i, v in enumerate(first)}
ytr = np.array(["c%d" % rank[v] for v in ytr])
yte = np.array(["c%d" % rank[v] for v in yte])
w = np.random.RandomState(seed).uniform(0.5, 2.0, size=len(ytr))


def write(path, XX, yy):
    with open(path, "w") as f:
        f.write(",".join(["f%d" % j for j in range(XX.shape[1])] + ["y"]) + "\n")
        for row, lab in zip(XX, yy):
            f.write(",".join(repr(float(v)) for v in row) + "," + lab + "\n")


write("%s/%s-train.csv" % (out, name), Xtr, ytr)
write("%s/%s-test.csv" % (out, name), Xte, yte)
np.savetxt("%s/%s-weights.csv" % (out, name), w, fmt="%r")
classes = sorted(set(ytr))
cw = {c: (5.0 if i == 0 else 1.0) for i, c in enumerate(classes)}


cpu = {}


def best(make, key, **fit):
    """Best wall time of REPEATS fits; the best process CPU time is kept in cpu[key]."""
    t, c, m = float("inf"), float("inf"), None
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        m = make().fit(Xtr, ytr, **fit)
        t, c = min(t, time.perf_counter() - t0), min(c, time.process_time() - c0)
    cpu[key] = c
    return t, m


kw = dict(kernel="rbf", C=C, gamma=gamma, tol=tol, cache_size=500)
t_ovo, ovo = best(lambda: SVC(decision_function_shape="ovo", **kw), "ovo")
t_prob, prob = best(lambda: SVC(probability=True, random_state=seed, **kw), "probability")
t_cw, cwm = best(lambda: SVC(class_weight=cw, **kw), "classWeight")
t_bal, bal = best(lambda: SVC(class_weight="balanced", **kw), "balanced")
t_sw, swm = best(lambda: SVC(**kw), "sampleWeight", sample_weight=w)
np.savetxt("%s/%s-sk-decision.csv" % (out, name), ovo.decision_function(Xte), delimiter=",", fmt="%r")
np.savetxt("%s/%s-sk-proba.csv" % (out, name), prob.predict_proba(Xte), delimiter=",", fmt="%r")
with open("%s/%s-sk-labels.csv" % (out, name), "w") as f:
    f.write("ovo,classWeight,balanced,sampleWeight\n")
    for a, b, c, d in zip(ovo.predict(Xte), cwm.predict(Xte), bal.predict(Xte), swm.predict(Xte)):
        f.write("%s,%s,%s,%s\n" % (a, b, c, d))
print(json.dumps({"ovo": t_ovo, "probability": t_prob, "classWeight": t_cw, "balanced": t_bal,
                  "sampleWeight": t_sw, "cpu": cpu, "classWeights": ",".join("%s=%r" % kv for kv in cw.items()),
                  "sklearn": __import__("sklearn").__version__}))
