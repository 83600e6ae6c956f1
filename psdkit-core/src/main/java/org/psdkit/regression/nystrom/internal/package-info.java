/**
 * Internal, not API (exported to {@code org.psdkit.spark} only): the parts of Nyström KRR that psdkit's own engines
 * share with {@link org.psdkit.regression.nystrom.KnmBlocks}: {@link org.psdkit.regression.nystrom.internal.RoutePlanner}
 * (the cost model that picks a {@link org.psdkit.regression.nystrom.Storage} route, and the block sizes),
 * {@link org.psdkit.regression.nystrom.internal.GaussianFloatBlocks} (Gaussian K_nm blocks in single precision) and
 * {@link org.psdkit.regression.nystrom.internal.NystromBlocks} (one block's K_b, its Gram and K_bᵀK_b u contributions,
 * as psdkit-spark computes them on executors). Their signatures change without notice; user code calls
 * {@link org.psdkit.regression.nystrom.NystromKrrTrainer}.
 */
package org.psdkit.regression.nystrom.internal;
