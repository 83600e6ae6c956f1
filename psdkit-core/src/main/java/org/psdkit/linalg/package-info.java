/**
 * The linear-algebra floor: column-major dense matrices ({@link org.psdkit.linalg.Matrix}) and one facade
 * ({@link org.psdkit.linalg.Linalg}) over the native BLAS/LAPACK operations psdkit needs — symmetric
 * eigen-decomposition (all pairs, dsyevd; positive and negative spectral parts), Cholesky with jitter reporting
 * (dpotrf), pivoted rank-revealing Cholesky (dpstrf, {@link org.psdkit.linalg.PivotedCholesky}), triangular and SPD
 * solves (dtrsm), general solves (dgesv), gemm / gemv / syrk — plus
 * {@link org.psdkit.linalg.EighWorkspace} (caller-owned outputs for eigen-decompositions in hot loops) and
 * {@link org.psdkit.linalg.ProductBlocks} (column blocks of X Zᵀ for kernel matrices).
 *
 * <h2>Backend choice, by measurement</h2>
 * The backend is OpenBLAS 0.3.31 with its LAPACK, shipped inside the {@code org.bytedeco:openblas} jar
 * (linux-x86_64 natives by default; {@code -Djavacpp.platform=…} selects others), on all cores by default
 * ({@link org.psdkit.linalg.Threads#set(int)}, system property {@code psdkit.threads}, CLI {@code --threads}; see
 * {@link org.psdkit.linalg.Threads} for when 1 is faster). The alternative was a
 * pure-Java library; {@link org.psdkit.linalg.reference.ReferenceLinalg} is our own plain-Java implementation of the
 * same operations (column-oriented GEMM and Cholesky, Householder tridiagonalisation + implicit QL), and
 * {@code psdkit bench linalg} times both in one run. Measured on the shared 2-core machine (AMD EPYC, load average
 * ≈ 20 from other builds, so absolute times are 2–10× slower than on an idle machine; the ratios come from the
 * same run), best of 3:
 * <table>
 * <caption>psdkit bench linalg (2026-11-25, load ≈ 20)</caption>
 * <tr><th>operation</th><th>n</th><th>native s</th><th>GFLOP/s</th><th>plain Java s</th><th>speed-up</th></tr>
 * <tr><td>gemm</td><td>500</td><td>0.0070</td><td>35.6</td><td>0.275</td><td>39×</td></tr>
 * <tr><td>gemm</td><td>1000</td><td>0.255</td><td>7.8</td><td>1.52</td><td>6.0×</td></tr>
 * <tr><td>gemm</td><td>2000</td><td>1.39</td><td>11.5</td><td>—</td><td>(skipped)</td></tr>
 * <tr><td>cholesky</td><td>500</td><td>0.0018</td><td>23.4</td><td>0.018</td><td>10×</td></tr>
 * <tr><td>cholesky</td><td>1000</td><td>0.145</td><td>2.3</td><td>0.43</td><td>3.0×</td></tr>
 * <tr><td>cholesky</td><td>2000</td><td>0.206</td><td>13.0</td><td>—</td><td>(skipped)</td></tr>
 * <tr><td>eigh (with vectors)</td><td>500</td><td>0.107</td><td>4.7</td><td>2.64</td><td>25×</td></tr>
 * <tr><td>eigh (with vectors)</td><td>1000</td><td>0.83</td><td>4.8</td><td>8.47</td><td>10×</td></tr>
 * <tr><td>eigh (with vectors)</td><td>2000</td><td>5.25</td><td>6.1</td><td>—</td><td>(skipped)</td></tr>
 * </table>
 * A second run under the same load gave speed-ups of 7.2× / 6.3× (gemm 500 / 1000), 12× / 2.7× (Cholesky) and
 * 13× / 7.7× (eigh), and eigh at n = 2000 in 3.95 s: the ratios move with the load, the conclusion does not.
 * GFLOP/s use nominal counts: gemm 2n³, Cholesky n³/3, eigh 4n³. The plain-Java baselines run only up to
 * n = 1000 by default ({@code --baseline-max-n}); the Java eigen-solver alone needs 8 s there. On an idle machine
 * the foundation issue measured dsyevd at 0.2 s (n = 1000) and 1.8 s (n = 2000), and the design notes 5–14×
 * slower pure-Java libraries (EJML, ojAlgo), consistent with the 10–25× for eigh above. Eigen-decompositions are
 * the hot loop of the PSD-model solvers, so native LAPACK it is.
 *
 * <h2>Copies across the JNI boundary</h2>
 * JavaCPP copies every {@code double[]} argument into fresh native memory and back on each call; under load the
 * page faults of that fresh memory made a dgemm with Java arrays 2–5× slower than the same dgemm on reused native
 * buffers (n = 500: 0.09–0.14 s vs 0.018–0.023 s; n = 2000: 2.4–3.1 s vs 1.2–1.4 s), and a 5000×5000×10 product
 * for a Gram matrix took 1.6–4 s instead of 0.09 s. {@link org.psdkit.linalg.Linalg} therefore passes per-thread
 * native buffers that grow to the largest problem a thread has seen ({@link org.psdkit.linalg.Linalg#releaseBuffers()}
 * frees them), and kernel matrices are computed in column blocks ({@link org.psdkit.linalg.ProductBlocks}).
 * With that in place {@link org.psdkit.linalg.EighWorkspace} measured speed-ups of 0.8–1.5× over
 * {@link org.psdkit.linalg.Linalg#eigh} (n = 50…500, two runs under load), i.e. no consistent gain; before it,
 * 1.2–1.9×.
 *
 * <h2>Conventions</h2>
 * Column-major storage, {@code data[i + j·rows]}; data sets hold one point per row. Methods never modify their
 * inputs unless their name says {@code InPlace}. Numerical failure is a {@link org.psdkit.linalg.LinalgException};
 * rank-deficient PSD matrices are normal (use the eigen-decomposition's rank-r part or the pivoted Cholesky).
 */
package org.psdkit.linalg;
