/**
 * Regression whose predictions are never negative (Marteau-Ferey, Bach and Rudi 2020): a PSD model
 * f(x) = v(x)ᵀ B v(x), B ⪰ 0 ({@link org.psdkit.regression.psd.PsdRegressionTrainer}) and the baselines of their
 * App. D, NCM, PNM and GLM ({@link org.psdkit.regression.psd.BaselineTrainer}); both give a
 * {@link org.psdkit.regression.psd.NonNegativeRegressionModel}. Start from
 * {@code examples/.../PsdRegressionExample.java}; see {@code docs/families/psd-regression.md}.
 */
package org.psdkit.regression.psd;
