#!/usr/bin/python3
"""Facial reduction experiment for the SDPLIB problems whose dual has no strictly feasible point (issue 16, sdp.md
"Session 10"). Not part of the test suite; needs numpy, scipy and CSDP (Debian `coinor-csdp`) on the PATH.

SDPA's names: primal min c'x s.t. Z = sum x_i F_i - F_0 >= 0; dual max <F_0,Y> s.t. <F_i,Y> = c_i, Y >= 0.

1. Reducing certificate (Borwein & Wolkowicz 1981; the auxiliary problem as in Permenter & Parrilo 2018): solve
       max tr(A*(y))  s.t.  0 <= A*(y) <= I (each block),  c'y = 0
   with CSDP. Every dual-feasible Y has <A*(y), Y> = c'y = 0, so Y lies in the face {Y >= 0 : W Y = 0} of
   W = A*(y) >= 0. At a relative-interior optimum W's range is the largest such subspace.
2. Reduced problem: with V a basis of W's null space (per block), F_i -> V'F_i V. Constraints that became linearly
   dependent (directions y with V'A*(y)V = 0) are dropped by a pivoted QR of the null space; the dropped equations
   are implied because c is orthogonal to that null space (checked). The dependencies are found with an orthonormal
   V (they do not depend on the basis: another basis is V T with T invertible). The reduced problem is written
   with an orthonormal V by default, or with --sparse an echelon basis: the k pivot coordinates P of W's range
   are chosen by a column-pivoted QR, and column j of V is e_j - sum_p (R_P^-1 R_F)_pj e_p for each free
   coordinate j (R: W's range as rows), so V has the identity on the free coordinates and is dense only on the
   k pivot rows.
3. The reduced SDP is solved with CSDP (timed). Its Y lifts to V Y V' (exactly dual feasible in the original).
4. Primal: the original primal optimum is not attained, so the primal point is x_red + t y_hat with y_hat a
   reducing direction refined by least squares to A*(y_hat) V = 0, c'y_hat = 0; t is swept over powers of 4 and
   the certificate of sdplib_check.py (dual residual, lambda_min of Y and of the recomputed slack, true gap, all
   relative) is printed for each.

Usage: facial_reduction.py [--sparse] PROBLEM [DATA_DIR]
"""
import os
import subprocess
import sys
import time

import numpy as np
import scipy.linalg as sl

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sdplib_check import read_sdpa, read_csdp, dense  # noqa: E402


def write_sdpa(path, c, sizes, mats):
    """mats: list over constraint index 0..m of lists over blocks of dense symmetric arrays (or None)."""
    with open(path, 'w') as f:
        f.write('%d\n%d\n%s\n' % (len(c), len(sizes), ' '.join(str(s) for s in sizes)))
        f.write(' '.join('%.17g' % v for v in c) + '\n')
        for i, blocks in enumerate(mats):
            for b, R in enumerate(blocks):
                if R is None:
                    continue
                for a in range(R.shape[0]):
                    for bb in range(a, R.shape[0]):
                        if abs(R[a, bb]) > 1e-15:
                            f.write('%d %d %d %d %.17g\n' % (i, b + 1, a + 1, bb + 1, R[a, bb]))


def echelon_null_basis(Q):
    """A basis of the orthogonal complement of range(Q) (Q: n x k, orthonormal columns) that is the identity on
    n - k free coordinates: R = Q' has k pivot columns P (column-pivoted QR), V[F] = I, V[P] = -R_P^-1 R_F."""
    n, k = Q.shape
    R = Q.T
    piv = sl.qr(R, pivoting=True)[2]
    P = np.sort(piv[:k])
    free = np.setdiff1d(np.arange(n), P)
    V = np.zeros((n, n - k))
    V[free, np.arange(n - k)] = 1.0
    V[P, :] = -np.linalg.solve(R[:, P], R[:, free])
    V[np.abs(V) < 1e-12] = 0.0
    return V


def csdp(dat, sol):
    t = time.time()
    out = subprocess.run(['csdp', dat, sol], capture_output=True, text=True).stdout
    wall = time.time() - t
    status = next((ln for ln in out.split('\n') if ln.startswith(('Success', 'Partial', 'Failure'))), '?')
    return wall, status


def main():
    args = [a for a in sys.argv[1:] if a != '--sparse']
    sparse = len(args) < len(sys.argv) - 1
    p = args[0]
    data = args[1] if len(args) > 1 else '/work/shared/data/sdplib'
    work = '/tmp/psdkit-fr'
    os.makedirs(work, exist_ok=True)
    m, sizes, c, F = read_sdpa('%s/%s.dat-s' % (data, p))
    if any(s < 0 for s in sizes):
        sys.exit('diagonal blocks are not handled by this experiment')
    nb = len(sizes)
    Fd = [[dense(F[i][b], sizes[b]) for b in range(nb)] for i in range(m + 1)]
    nF0 = np.sqrt(sum(np.sum(B ** 2) for B in Fd[0]))

    wall0, st0 = csdp('%s/%s.dat-s' % (data, p), '%s/%s.sol' % (work, p))
    print('%s: m %d, blocks %s; CSDP on the problem: %.3f s (%s)' % (p, m, sizes, wall0, st0))

    # 1. auxiliary SDP: blocks A*(y) >= 0 and I - A*(y) >= 0 per block, and c'y = 0 as a 2-entry diagonal block
    aux_sizes = [s for s in sizes for _ in (0, 1)] + [-2]
    aux = [[None] * (2 * nb + 1) for _ in range(m + 1)]
    for b in range(nb):
        aux[0][2 * b + 1] = -np.eye(sizes[b])
    for i in range(m):
        for b in range(nb):
            aux[i + 1][2 * b] = Fd[i + 1][b]
            aux[i + 1][2 * b + 1] = -Fd[i + 1][b]
        aux[i + 1][2 * nb] = np.diag([c[i], -c[i]])
    write_sdpa('%s/%s_aux.dat-s' % (work, p), [-sum(np.trace(B) for B in Fd[i + 1]) for i in range(m)],
               aux_sizes, aux)
    wall1, st1 = csdp('%s/%s_aux.dat-s' % (work, p), '%s/%s_aux.sol' % (work, p))
    with open('%s/%s_aux.sol' % (work, p)) as f:
        y = np.array([float(t) for t in f.readline().split()])
    Vs, Qs = [], []
    for b in range(nb):
        W = sum(y[i] * Fd[i + 1][b] for i in range(m))
        ew, U = np.linalg.eigh(W)
        k = int(np.sum(ew > 0.5))  # a relative-interior optimum of the auxiliary problem has eigenvalues 0 and 1
        print('  block %d: eigenvalues of W: %d near 1, %d near 0, %d between (1e-6 .. 0.5)'
              % (b, k, int(np.sum(ew < 1e-6)), int(np.sum((ew >= 1e-6) & (ew <= 0.5)))))
        Vs.append(U[:, :sizes[b] - k])
        Qs.append(U[:, sizes[b] - k:])
    Vo = Vs
    if sparse:
        Vs = [echelon_null_basis(Q) for Q in Qs]
        print('  echelon basis: nonzeros %s of %s' % ([int(np.count_nonzero(V)) for V in Vs], [V.size for V in Vs]))
    print('auxiliary SDP (CSDP): %.3f s (%s); c\'y = %.2e; face sizes %s'
          % (wall1, st1, c @ y, [V.shape[1] for V in Vs]))

    # 2. reduced problem and its dependent constraints
    ortho = [[Vo[b].T @ Fd[i + 1][b] @ Vo[b] for b in range(nb)] for i in range(m)]
    L = np.array([np.concatenate([R[np.triu_indices(R.shape[0])] for R in ortho[i]]) for i in range(m)]).T
    red = [[Vs[b].T @ Fd[i][b] @ Vs[b] for b in range(nb)] for i in range(m + 1)]
    _, s, Vt = np.linalg.svd(L)
    # The face is only as exact as the auxiliary solve (c'y ~ 1e-9), so the dependent directions have singular
    # values of ~1e-12 (qap6-9) up to ~1e-9 (qap10) relative: cut at the largest gap when it spans 5 decades.
    ls = np.log10(np.maximum(s / s[0], 1e-300))
    g = int(np.argmax(ls[:-1] - ls[1:])) if len(s) > 1 else 0
    rank = g + 1 if len(s) > 1 and ls[g] - ls[g + 1] >= 5 else int(np.sum(s > 1e-10 * s[0]))
    N = Vt[rank:].T
    cn = float(np.abs(c @ N).max()) if N.shape[1] else 0.0
    drop = set(sl.qr(N.T, pivoting=True)[2][:N.shape[1]].tolist()) if N.shape[1] else set()
    keep = [i for i in range(m) if i not in drop]
    print('reduced problem: %d of %d constraints independent (|c\'N| = %.1e), blocks %s'
          % (len(keep), m, cn, [V.shape[1] for V in Vs]))
    write_sdpa('%s/%s_red.dat-s' % (work, p), c[keep], [V.shape[1] for V in Vs], [red[0]] + [red[i + 1] for i in keep])
    wall2, st2 = csdp('%s/%s_red.dat-s' % (work, p), '%s/%s_red.sol' % (work, p))
    print('reduced SDP (CSDP): %.3f s (%s)' % (wall2, st2))
    xr, Yr = read_csdp('%s/%s_red.sol' % (work, p), [V.shape[1] for V in Vs], len(keep))
    x0 = np.zeros(m)
    x0[keep] = xr
    Y = [Vs[b] @ Yr[b] @ Vs[b].T for b in range(nb)]

    # 4. refined reducing direction: min ||A*(y) V|| s.t. tr(Q'A*(y)Q) = k, c'y = 0
    rows = []
    for i in range(m):
        rows.append(np.concatenate([np.concatenate([(Vs[b].T @ Fd[i + 1][b] @ Vs[b]).ravel(),
                                                    np.sqrt(2) * (Vs[b].T @ Fd[i + 1][b] @ Qs[b]).ravel()])
                                    for b in range(nb)]))
    Ms = np.array(rows).T
    tq = np.array([sum(np.trace(Qs[b].T @ Fd[i + 1][b] @ Qs[b]) for b in range(nb)) for i in range(m)])
    C2 = np.vstack([tq, c]).T
    Qc, Rc = np.linalg.qr(C2, mode='complete')
    y0 = Qc[:, :2] @ np.linalg.solve(Rc[:2].T, np.array([1.0, 0.0]))
    Nc = Qc[:, 2:]
    yh = y0 + Nc @ np.linalg.lstsq(Ms @ Nc, -Ms @ y0, rcond=None)[0]
    yh /= np.linalg.norm(yh)
    print('refined direction: |A*(y) V| = %.1e, c\'y = %.1e' % (np.linalg.norm(Ms @ yh), c @ yh))

    A = lambda Yl: np.array([sum(np.sum(Fd[i + 1][b] * Yl[b]) for b in range(nb)) for i in range(m)])
    F0Y = sum(np.sum(Fd[0][b] * Y[b]) for b in range(nb))
    dres = np.linalg.norm(c - A(Y)) / (1 + np.linalg.norm(c))
    ypsd = max(0.0, -min(np.linalg.eigvalsh(B)[0] for B in Y)) / (1 + np.sqrt(sum(np.sum(B ** 2) for B in Y)))
    print('lifted Y: dual residual %.1e, y_psd %.1e, <F0,Y> = %.10g' % (dres, ypsd, F0Y))
    best = None
    for e in range(0, 60, 2):
        t = 2.0 ** e
        x = x0 + t * yh
        lm = min(np.linalg.eigvalsh(sum(x[i] * Fd[i + 1][b] for i in range(m)) - Fd[0][b])[0] for b in range(nb))
        spsd = max(0.0, -lm) / (1 + nF0)
        gap = abs(c @ x - F0Y) / (1 + abs(c @ x) + abs(F0Y))
        worst = max(dres, ypsd, spsd, gap)
        if best is None or worst < best[0]:
            best = (worst, t, spsd, gap)
    print('best t = 2^%d: slack_psd %.1e, gap %.1e -> certificate max %.1e (%s at 1e-6)'
          % (int(np.log2(best[1])), best[2], best[3], best[0], 'pass' if best[0] <= 1e-6 else 'FAIL'))
    print('time: auxiliary + reduced = %.3f s = %.1fx CSDP on the problem itself' % (wall1 + wall2,
                                                                                      (wall1 + wall2) / wall0))


if __name__ == '__main__':
    main()
