/**
 * Regression with a fixed kernel: linear ridge regression ({@link org.psdkit.regression.RidgeTrainer}), kernel ridge
 * regression ({@link org.psdkit.regression.KrrTrainer}; its Nyström form for large n is
 * {@code org.psdkit.regression.nystrom}) and ε-insensitive support
 * vector regression ({@link org.psdkit.regression.SvrTrainer}). Start from {@code examples/.../KrrExample.java} (fit,
 * save, load, predict); see {@code docs/families/regression.md}.
 */
package org.psdkit.regression;
