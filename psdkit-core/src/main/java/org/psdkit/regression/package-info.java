/**
 * Regression with a fixed kernel: linear ridge regression ({@link org.psdkit.regression.RidgeTrainer}), kernel ridge
 * regression ({@link org.psdkit.regression.KrrTrainer}, also in its Nyström form for large n) and ε-insensitive support
 * vector regression ({@link org.psdkit.regression.SvrTrainer}). Start from {@code examples/.../KrrExample.java} (fit,
 * save, load, predict); see {@code docs/families/regression.md}.
 */
package org.psdkit.regression;
