/**
 * Kernels, their Gram and cross matrices, the closure algebra, explicit feature maps, and the kernel strings
 * shared by the library, the CLI and model files.
 *
 * <h2>The kernel zoo (Herbster's slides "Kernels and Regularization", the lecture notes "Representer theorems in RKHSs", Bagnell and Farahmand 2015)</h2>
 * <table>
 * <caption>Kernels and their kernel strings</caption>
 * <tr><th>kernel string</th><th>k(x, t)</th><th>notes</th></tr>
 * <tr><td>{@code linear}</td><td>xᵀt</td><td>feature map φ(x) = x</td></tr>
 * <tr><td>{@code linear(A=[[2,1],[1,2]])}</td><td>xᵀAt</td><td>A symmetric PSD (checked); φ(x) = Rᵀx, A = RRᵀ</td></tr>
 * <tr><td>{@code polynomial(degree=r, offset=c)}</td><td>(c + xᵀt)^r</td><td>c ≥ 0 (default 0); monomial map with
 *     multinomial weights</td></tr>
 * <tr><td>{@code exponential(a=a)}</td><td>exp(a xᵀt)</td><td>a ≥ 0; infinite-dimensional</td></tr>
 * <tr><td>{@code exponential(a=a, degree=D)}</td><td>Σ_{i≤D} aⁱ/i! (xᵀt)ⁱ</td><td>truncated series, monomial map</td></tr>
 * <tr><td>{@code gaussian(sigma=σ)}</td><td>exp(−‖x−t‖²/(2σ²))</td><td>β (slides) = γ (scikit-learn) = 1/(2σ²);
 *     {@code gaussian(gamma=…)}, {@code gaussian(beta=…)} accepted</td></tr>
 * <tr><td>{@code laplacian(sigma=σ)}</td><td>exp(−‖x−t‖/σ)</td><td>Abel kernel; Euclidean norm, not squared</td></tr>
 * <tr><td>{@code anova}</td><td>Π_i (1 + x_i t_i)</td><td>map: one feature per subset of coordinates</td></tr>
 * <tr><td>{@code min}</td><td>Π_i min(x_i, t_i)</td><td>inputs in [0, ∞)^d; a negative input is an error</td></tr>
 * <tr><td>{@code delta}</td><td>1 if x = t exactly, else 0</td><td>the nugget: {@code c*delta} adds c·I to the
 *     Gram matrix of distinct points</td></tr>
 * <tr><td>{@code constant}, or a bare number c</td><td>1 (c)</td><td></td></tr>
 * </table>
 *
 * <h2>Closure rules</h2>
 * {@code k1 + k2} ({@link org.psdkit.kernel.SumKernel}), {@code w*k} with w ≥ 0
 * ({@link org.psdkit.kernel.ScaledKernel}), {@code k1 * k2} ({@link org.psdkit.kernel.ProductKernel}), and
 * k(φ(x), φ(t)) ({@link org.psdkit.kernel.Kernels#compose}) all give PSD kernels. Sums, scalings and products
 * combine the Gram matrices of their parts, so each part keeps its fast path.
 *
 * <h2>Speed</h2>
 * Dot-product kernels (linear, polynomial, exponential) apply f elementwise to X Xᵀ (one dsyrk) or X Zᵀ (one
 * dgemm); radial kernels (Gaussian, Laplacian) get squared distances from the same products after centring the
 * data, recompute entries that would cancel, and apply exp / sqrt elementwise; ANOVA and min loop over coordinates
 * on contiguous columns. Every elementwise pass runs on both cores ({@link org.psdkit.kernel.ParallelColumns}).
 * Gram matrices compute the lower triangle only and mirror it, so they are exactly symmetric.
 * {@code psdkit bench linalg} times the Gaussian Gram matrix against a double loop over {@code eval} (figures:
 * {@code docs/benchmarks/linalg.md}). The exponential dominates both formulations, so on one core they are at
 * parity; the blocked formulation gains when the second core is free (the elementwise pass splits across both) and
 * avoids the double loop's strided writes, which hurt at n = 5000.
 *
 * <h2>Hyper-parameters</h2>
 * {@link org.psdkit.kernel.Kernel#parameters()} and {@link org.psdkit.kernel.Kernel#withParameter(String, double)}
 * with names such as {@code sigma}, {@code gaussian.sigma}, {@code gaussian#2.sigma}, {@code scaled.weight}
 * ({@link org.psdkit.kernel.KernelParameter}).
 */
package org.psdkit.kernel;
