/**
 * Binary classification with support vector machines: {@link org.psdkit.classify.SvmTrainer} fits a soft-margin SVM
 * with a fixed kernel by SMO, and every SVM model (fixed, tessellated or multiple-kernel, package
 * {@link org.psdkit.classify.mkl}) is an {@link org.psdkit.classify.SvmClassifier} whose one output column is the
 * decision value. Start from {@code examples/.../SvmExample.java}; options and model file are on
 * {@code docs/families/svm.md}.
 */
package org.psdkit.classify;
