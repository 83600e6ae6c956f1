/**
 * Sequential minimal optimisation for SVM duals (Fan, Chen and Lin 2005, the working-set rule of LIBSVM):
 * {@link org.psdkit.optim.smo.Smo} solves the soft-margin SVM dual (and, through a doubled problem, ε-SVR) over kernel
 * rows that are cached or precomputed ({@link org.psdkit.optim.smo.KernelRows}). The SVM and SVR trainers call it;
 * {@link org.psdkit.optim.smo.Smo.Result} is part of the kernel-learning results of {@link org.psdkit.classify.mkl}.
 */
package org.psdkit.optim.smo;
