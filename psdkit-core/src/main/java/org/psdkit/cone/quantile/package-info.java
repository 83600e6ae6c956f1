/**
 * Multiple quantile regression whose quantile curves never cross (Marteau-Ferey, Bach and Rudi 2020, Sec. 6):
 * {@link org.psdkit.cone.quantile.QuantileTrainer} chooses kernel and λ by cross-validation on the pinball loss and
 * fits a {@link org.psdkit.cone.quantile.QuantilePipeline} with one output per level. Start from
 * {@code examples/.../QuantileExample.java}; see {@code docs/families/cone.md}.
 */
package org.psdkit.cone.quantile;
