/**
 * Heteroscedastic Gaussian regression with a variance that is never negative (Marteau-Ferey, Bach and Rudi 2020,
 * Sec. 6): {@link org.psdkit.cone.hetero.HeteroTrainer} chooses kernel and λ by cross-validation and fits a
 * {@link org.psdkit.cone.hetero.HeteroPipeline} whose outputs are the mean and the variance. Start from
 * {@code examples/.../HeteroExample.java}; see {@code docs/families/cone.md}.
 */
package org.psdkit.cone.hetero;
