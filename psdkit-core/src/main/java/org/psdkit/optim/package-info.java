/**
 * Generic optimisation: {@link org.psdkit.optim.Fista} (accelerated proximal gradient with adaptive
 * restart, fixed step or backtracking, stop rule, listener, budgets), losses given by the prox of their Fenchel
 * conjugates ({@link org.psdkit.optim.ConjugateLoss}, catalogue {@link org.psdkit.optim.Losses}), and the spectral
 * dual term of PSD models ({@link org.psdkit.optim.PsdDualTerm}), L-BFGS directions and a minimiser
 * ({@link org.psdkit.optim.Lbfgs}) with a strong-Wolfe line search ({@link org.psdkit.optim.WolfeLineSearch}), and
 * preconditioned conjugate gradient with a true-residual check ({@link org.psdkit.optim.ConjugateGradient}).
 */
package org.psdkit.optim;
