/**
 * The linear-algebra floor: column-major dense matrices ({@link org.psdkit.linalg.Matrix}) and one facade
 * ({@link org.psdkit.linalg.Linalg}) over the native BLAS/LAPACK operations psdkit needs — symmetric
 * eigen-decomposition (all pairs, dsyevd; positive and negative spectral parts), Cholesky with jitter reporting
 * (dpotrf), pivoted rank-revealing Cholesky (dpstrf, {@link org.psdkit.linalg.PivotedCholesky}), triangular and SPD
 * solves (dtrsm), general solves (dgesv), gemm / gemv / syrk — plus
 * {@link org.psdkit.linalg.EighWorkspace} (caller-owned outputs for eigen-decompositions in hot loops). The native
 * plumbing that other psdkit packages call directly (single-precision BLAS, column blocks of X Zᵀ, workspaces) is in
 * {@code org.psdkit.linalg.internal}, which is not API.
 *
 * <h2>Backend choice</h2>
 * The backend is OpenBLAS 0.3.31 with its LAPACK, shipped inside the {@code org.bytedeco:openblas} jar
 * (linux-x86_64 natives by default; {@code -Djavacpp.platform=…} selects others), on all cores by default
 * ({@link org.psdkit.linalg.Threads#set(int)}, system property {@code psdkit.threads}, CLI {@code --threads}; see
 * {@link org.psdkit.linalg.Threads} for when 1 is faster). Eigen-decompositions are the hot loop of the PSD-model
 * solvers, and native LAPACK runs them several times faster than plain Java
 * ({@link org.psdkit.linalg.reference.ReferenceLinalg}, our own implementation of the same operations) and than
 * pure-Java libraries: {@code psdkit bench linalg} times both in one run; its figures are on
 * {@code docs/benchmarks/linalg.md}.
 *
 * <h2>Copies across the JNI boundary</h2>
 * JavaCPP copies every {@code double[]} argument into fresh native memory and back on each call, and faulting in
 * those fresh pages made BLAS calls on Java arrays several times slower than on reused native buffers
 * ({@code docs/benchmarks/linalg.md}). {@link org.psdkit.linalg.Linalg} therefore passes per-thread native buffers
 * that grow to the largest problem a thread has seen ({@link org.psdkit.linalg.Linalg#releaseBuffers()} frees them),
 * and kernel matrices are computed in column blocks ({@code org.psdkit.linalg.internal.ProductBlocks}).
 * {@link org.psdkit.linalg.EighWorkspace} (caller-owned outputs) adds no consistent gain on top of those buffers.
 *
 * <h2>Conventions</h2>
 * Column-major storage, {@code data[i + j·rows]}; data sets hold one point per row. Methods never modify their
 * inputs unless their name says {@code InPlace}. Numerical failure is a {@link org.psdkit.linalg.LinalgException};
 * rank-deficient PSD matrices are normal (use the eigen-decomposition's rank-r part or the pivoted Cholesky).
 */
package org.psdkit.linalg;
