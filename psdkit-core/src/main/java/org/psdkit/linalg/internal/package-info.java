/**
 * Internal, not API (exported to {@code org.psdkit.spark} only): the native plumbing under
 * {@link org.psdkit.linalg.Linalg} that other psdkit-core packages and psdkit's own modules call directly.
 * {@link org.psdkit.linalg.internal.NativeCalls} (every native call runs inside it, so that the JVM's exit waits for
 * calls in flight), {@link org.psdkit.linalg.internal.FloatBlas} (single-precision BLAS on reused native buffers, the
 * Gram accumulator of Nyström KRR), {@link org.psdkit.linalg.internal.ProductBlocks} (column blocks of X Zᵀ for
 * kernel matrices), {@link org.psdkit.linalg.internal.SymmetricWorkspace} (native workspace of the PSD dual term),
 * {@link org.psdkit.linalg.internal.ArrayExp} (the vectorised exponential of kernel matrices),
 * {@link org.psdkit.linalg.internal.RowBlocks}, {@link org.psdkit.linalg.internal.OnThread} and
 * {@link org.psdkit.linalg.internal.Congruence}. Their signatures change without notice; user code calls
 * {@link org.psdkit.linalg.Linalg}.
 */
package org.psdkit.linalg.internal;
