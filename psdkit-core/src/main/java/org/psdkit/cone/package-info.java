/**
 * The shared blocks of models whose outputs lie in a polyhedral cone (Marteau-Ferey, Bach and Rudi 2020, Eq. (14) and
 * Remark 1): PSD and linear function blocks, point losses, and the dual solver {@link org.psdkit.cone.ConeDualSolver}
 * that fits any combination of them, plus the kernel × λ cross-validation grid {@link org.psdkit.cone.ConeGrid}. The
 * two families built on them are {@link org.psdkit.cone.hetero} (heteroscedastic regression) and
 * {@link org.psdkit.cone.quantile} (quantile regression without crossing); see {@code docs/families/cone.md}.
 */
package org.psdkit.cone;
