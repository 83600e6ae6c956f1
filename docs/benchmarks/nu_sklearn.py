#!/usr/bin/env python3
"""scikit-learn's OneClassSVM, NuSVC and NuSVR (LIBSVM -s 2, 1, 4) as peers of psdkit's one-class SVM, nu-SVC, nu-SVR.

Two uses, both with /usr/bin/python3 (Debian python3-sklearn):

  nu_sklearn.py record DIR
      Draws three small seeded problems and writes, for each, the training CSV and the test CSV with scikit-learn's
      outputs: DIR/{one-class,nu-svc,nu-svr}-{train,expected}.csv. The test suite (NuPeerTest) reads these files;
      it never runs Python. Settings are in PROBLEMS below (Gaussian kernel gamma = 1/(2 sigma^2), tol 1e-6).

  nu_sklearn.py bench DIR
      For `psdkit bench nu`: fits the three models on DIR/{one-class,nu-svc,nu-svr}-train.csv with the settings in
      DIR/settings.json, times each fit (best of the given repeats), writes DIR/<problem>-sklearn.csv (test outputs)
      and prints one JSON object (fit seconds, support vectors) on stdout.
"""
import json
import sys
import time

import numpy as np
from sklearn.svm import NuSVC, NuSVR, OneClassSVM

PROBLEMS = {
    "one-class": {"sigma": 0.5, "nu": 0.1, "tol": 1e-6},
    "nu-svc": {"sigma": 0.7, "nu": 0.6, "tol": 1e-6},
    "nu-svr": {"sigma": 0.8, "nu": 0.4, "C": 2.0, "tol": 1e-6},
}


def gamma(sigma):
    return 1.0 / (2.0 * sigma * sigma)


def write(path, header, cols):
    a = np.column_stack(cols)
    np.savetxt(path, a, delimiter=",", header=",".join(header), comments="", fmt="%.17g")


def load(path, target=True):
    a = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return (a[:, :-1], a[:, -1]) if target else (a, None)


def model(name, s):
    if name == "one-class":
        return OneClassSVM(kernel="rbf", gamma=gamma(s["sigma"]), nu=s["nu"], tol=s["tol"], cache_size=500)
    if name == "nu-svc":
        return NuSVC(kernel="rbf", gamma=gamma(s["sigma"]), nu=s["nu"], tol=s["tol"], cache_size=500)
    return NuSVR(kernel="rbf", gamma=gamma(s["sigma"]), nu=s["nu"], C=s["C"], tol=s["tol"], cache_size=500)


def outputs(name, m, xt):
    if name == "nu-svr":
        return [m.predict(xt)]
    return [m.decision_function(xt), m.predict(xt)]


def record(d):
    rng = np.random.default_rng(20261129)
    # one-class: two Gaussian blobs, test points on a wider square
    x = np.vstack([rng.normal([-1, -1], 0.5, (120, 2)), rng.normal([1.5, 1], 0.7, (80, 2))])
    xt = rng.uniform(-3.5, 3.5, (400, 2))
    # nu-svc: an XOR-like boundary with label noise
    xc = rng.normal(0, 1, (240, 2))
    yc = np.where(xc[:, 0] * xc[:, 1] + 0.3 * rng.normal(0, 1, 240) > 0, 1.0, -1.0)
    xct = rng.normal(0, 1.2, (400, 2))
    # nu-svr: a smooth target with noise
    xr = rng.uniform(-3, 3, (150, 2))
    yr = np.sin(xr[:, 0]) + 0.5 * xr[:, 1] + 0.1 * rng.normal(0, 1, 150)
    xrt = rng.uniform(-3, 3, (300, 2))
    data = {"one-class": (x, None, xt), "nu-svc": (xc, yc, xct), "nu-svr": (xr, yr, xrt)}
    for name, (xx, yy, tt) in data.items():
        s = PROBLEMS[name]
        m = model(name, s)
        m.fit(xx) if yy is None else m.fit(xx, yy)
        if yy is None:
            write(f"{d}/{name}-train.csv", ["x1", "x2"], [xx[:, 0], xx[:, 1]])
        else:
            write(f"{d}/{name}-train.csv", ["x1", "x2", "y"], [xx[:, 0], xx[:, 1], yy])
        out = outputs(name, m, tt)
        head = ["x1", "x2"] + (["prediction"] if name == "nu-svr" else ["decision", "label"])
        write(f"{d}/{name}-expected.csv", head, [tt[:, 0], tt[:, 1]] + out)
        extra = f", C = 1/r = {np.abs(m.dual_coef_).max():.4g}" if name == "nu-svc" else ""
        print(name, json.dumps(s), "support vectors", int(m.support_.size), extra)


def bench(d):
    settings = json.load(open(f"{d}/settings.json"))
    result = {}
    for name, s in settings["problems"].items():
        x, y = load(f"{d}/{name}-train.csv", target=name != "one-class")
        xt, _ = load(f"{d}/{name}-test.csv", target=False)
        best = float("inf")
        for _ in range(settings.get("repeats", 1)):
            m = model(name, s)
            t0 = time.perf_counter()
            m.fit(x) if y is None else m.fit(x, y)
            best = min(best, time.perf_counter() - t0)
        out = outputs(name, m, xt)
        head = ["prediction"] if name == "nu-svr" else ["decision", "label"]
        write(f"{d}/{name}-sklearn.csv", head, out)
        result[name] = {"seconds": best, "supportVectors": int(m.support_.size)}
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("record", "bench"):
        sys.exit(__doc__)
    (record if sys.argv[1] == "record" else bench)(sys.argv[2])
