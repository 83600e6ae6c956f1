/**
 * Nyström kernel ridge regression for large n (Falkon: Rudi, Carratino and Rosasco 2017):
 * {@link org.psdkit.regression.nystrom.NystromKrrTrainer} with its
 * {@link org.psdkit.regression.nystrom.NystromKrrTrainer.Options} fits an ordinary {@code krr} model on m anchors.
 * {@link org.psdkit.regression.nystrom.NystromKrr} is the problem (K_nmᵀK_nm + λK_mm)α = K_nmᵀy and its
 * preconditioned conjugate-gradient solves ({@link org.psdkit.optim.ConjugateGradient}); the data-sized product
 * u ↦ K_nmᵀK_nm u is a {@link org.psdkit.regression.nystrom.KnmOperator}, on this machine
 * {@link org.psdkit.regression.nystrom.KnmBlocks} (row blocks, single-precision store, Gram and sketch passes), chosen
 * by a cost model. The route planner, the single-precision Gaussian blocks and the per-block arithmetic that engines
 * holding the rows elsewhere use ({@code NystromBlocks}) are in {@code org.psdkit.regression.nystrom.internal}, which
 * is not API. See {@code docs/scale.md}.
 */
package org.psdkit.regression.nystrom;

