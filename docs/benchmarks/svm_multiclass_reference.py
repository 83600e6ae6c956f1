# Records scikit-learn's SVC on a small multi-class problem for psdkit's tests (MulticlassSvmTest); the tests read the
# files and never call Python. Run from the repository root with Debian's scikit-learn:
#   /usr/bin/python3 docs/benchmarks/svm_multiclass_reference.py
# Data: iris, 90 training rows (30 per class, drawn with random_state=3) and the other 60 as test rows; the classes
# renamed in order of first appearance in the training rows ("setosa"... keep their names, ordered so that
# scikit-learn's sorted classes are LIBSVM's order of first appearance); sample weights uniform in [0.5, 2).
# SVC(rbf, C=2, gamma=0.5, tol=1e-8): decision_function_shape='ovo'; class_weight={first class: 4}; sample_weight.
import numpy as np
import sklearn
from sklearn.datasets import load_iris
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

out = "psdkit-core/src/test/resources/classify/"
X, y = load_iris(return_X_y=True)
Xtr, Xte, ytr, yte = train_test_split(X, y, train_size=90, random_state=3, stratify=y)
first = []
for v in ytr:
    if v not in first:
        first.append(v)
names = {first[0]: "a-" + "setosa versicolor virginica".split()[first[0]],
         first[1]: "b-" + "setosa versicolor virginica".split()[first[1]],
         first[2]: "c-" + "setosa versicolor virginica".split()[first[2]]}
ytr = np.array([names[v] for v in ytr])
yte = np.array([names[v] for v in yte])
w = np.random.RandomState(3).uniform(0.5, 2.0, size=len(ytr))
kw = dict(kernel="rbf", C=2.0, gamma=0.5, tol=1e-8)
ovo = SVC(decision_function_shape="ovo", **kw).fit(Xtr, ytr)
cw = SVC(decision_function_shape="ovo", class_weight={sorted(set(ytr))[0]: 4.0}, **kw).fit(Xtr, ytr)
sw = SVC(decision_function_shape="ovo", **kw).fit(Xtr, ytr, sample_weight=w)
with open(out + "iris-train.csv", "w") as f:  # a plain CSV (no comment line): the docs' command line uses it
    f.write("sl,sw,pl,pw,species\n")
    for row, lab in zip(Xtr, ytr):
        f.write(",".join(repr(float(v)) for v in row) + "," + lab + "\n")
with open(out + "iris-weights.csv", "w") as f:
    f.write("# " + "written by docs/benchmarks/svm_multiclass_reference.py, scikit-learn " + sklearn.__version__ + "\n")
    f.write("weight\n")
    for wi in w:
        f.write(repr(float(wi)) + "\n")
with open(out + "iris-sklearn.csv", "w") as f:
    f.write("# " + "written by docs/benchmarks/svm_multiclass_reference.py, scikit-learn " + sklearn.__version__ + "\n")
    cols = ["sl", "sw", "pl", "pw", "species"]
    for tag in ["ovo", "cw", "sw"]:
        cols += [tag + "_label", tag + "_d01", tag + "_d02", tag + "_d12"]
    f.write(",".join(cols) + "\n")
    for i in range(len(yte)):
        parts = [repr(float(v)) for v in Xte[i]] + [yte[i]]
        for m in [ovo, cw, sw]:
            d = m.decision_function(Xte[i:i + 1])[0]
            parts += [m.predict(Xte[i:i + 1])[0]] + [repr(float(v)) for v in d]
        f.write(",".join(parts) + "\n")

# SVR with sample weights (SvrWeightsTest): y = sin(x) + noise on 60 points of [0, 6], weights uniform in [0.5, 2);
# SVR(rbf, C=3, epsilon=0.1, gamma=0.5, tol=1e-8) fitted with sample_weight, predictions on 25 grid points.
from sklearn.svm import SVR
rs = np.random.RandomState(5)
x = np.sort(rs.uniform(0, 6, size=60))
t = np.sin(x) + 0.1 * rs.randn(60)
sw = rs.uniform(0.5, 2.0, size=60)
svr = SVR(kernel="rbf", C=3.0, epsilon=0.1, gamma=0.5, tol=1e-8).fit(x[:, None], t, sample_weight=sw)
grid = np.linspace(0, 6, 25)
with open(out + "svr-weights.csv", "w") as f:
    f.write("# " + "written by docs/benchmarks/svm_multiclass_reference.py, scikit-learn " + sklearn.__version__ + "\n")
    f.write("x,y,weight\n")
    for a, b, c in zip(x, t, sw):
        f.write("%r,%r,%r\n" % (float(a), float(b), float(c)))
with open(out + "svr-weights-sklearn.csv", "w") as f:
    f.write("# " + "written by docs/benchmarks/svm_multiclass_reference.py, scikit-learn " + sklearn.__version__ + "\n")
    f.write("x,prediction\n")
    for a, p in zip(grid, svr.predict(grid[:, None])):
        f.write("%r,%r\n" % (float(a), float(p)))
