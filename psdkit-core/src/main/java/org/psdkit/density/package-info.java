/**
 * Density estimation: PSD-model densities p = f·ν that are non-negative and integrate to one in closed form
 * (Marteau-Ferey, Bach and Rudi 2020, Sec. 6, eq. 12; {@link org.psdkit.density.PsdDensityTrainer}), over a base
 * measure ν ({@link org.psdkit.density.BaseMeasure}); the baselines of their App. D (NCM, PNM, GLM trainers), kernel
 * density estimation ({@link org.psdkit.density.KdeTrainer}), sampling and goodness of fit. Every fitted density is a
 * {@link org.psdkit.density.DensityModel} inside a {@link org.psdkit.density.DensityPipeline}. Start from
 * {@code examples/.../DensityExample.java}; see {@code docs/families/density.md}.
 */
package org.psdkit.density;
