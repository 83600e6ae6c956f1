/**
 * SVMs whose kernel is learned (Colbert and Peet 2020): a tessellated kernel learned by the direct Frank–Wolfe method
 * ({@link org.psdkit.classify.mkl.TkSvmTrainer}, {@link org.psdkit.classify.mkl.TkLearner}) or a SimpleMKL combination
 * of a kernel library ({@link org.psdkit.classify.mkl.SimpleMklTrainer}, {@link org.psdkit.classify.mkl.SimpleMkl}),
 * with C and ε chosen by cross-validation ({@link org.psdkit.classify.mkl.KernelLearning}); the fitted models are
 * {@link org.psdkit.classify.SvmClassifier}s. Start from {@code examples/.../TkSvmExample.java} and
 * {@code SimpleMklExample.java}; see {@code docs/families/svm.md}.
 */
package org.psdkit.classify.mkl;
