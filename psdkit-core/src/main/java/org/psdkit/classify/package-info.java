/**
 * Classification with support vector machines: {@link org.psdkit.classify.SvmTrainer} fits a soft-margin SVM with a
 * fixed kernel by SMO; a binary SVM model (fixed, tessellated or multiple-kernel, package
 * {@link org.psdkit.classify.mkl}) is an {@link org.psdkit.classify.SvmClassifier} whose one output column is the
 * decision value; more classes, or class probabilities, give a one-vs-one {@link org.psdkit.classify.MulticlassSvm}
 * (LIBSVM's scheme, with Platt scaling and pairwise coupling in {@link org.psdkit.classify.Platt}). Start from {@code examples/.../SvmExample.java}; options and model file are on
 * {@code docs/families/svm.md}.
 */
package org.psdkit.classify;
