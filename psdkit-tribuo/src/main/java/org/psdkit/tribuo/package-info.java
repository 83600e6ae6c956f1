/**
 * psdkit's trainers in <a href="https://tribuo.org">Tribuo</a> (4.3): {@code Trainer<Regressor>} for kernel ridge
 * regression, exact and Nyström ({@link org.psdkit.tribuo.PsdkitKrrTrainer}), PSD regression
 * ({@link org.psdkit.tribuo.PsdkitPsdRegressionTrainer}), heteroscedastic regression
 * ({@link org.psdkit.tribuo.PsdkitHeteroTrainer}: mean and variance) and non-crossing quantile regression
 * ({@link org.psdkit.tribuo.PsdkitQuantileTrainer}: one dimension per level), and {@code Trainer<Label>} for the SVM
 * ({@link org.psdkit.tribuo.PsdkitSvmTrainer}).
 *
 * <p>Each trainer's {@code @Config} fields are its psdkit options record's components (Tribuo's configuration
 * system sets them; provenance records them), and each has a constructor from the psdkit options record. The fitted
 * {@link org.psdkit.tribuo.PsdkitModel} predicts Tribuo examples one by one or in one batch, returns the psdkit model
 * from {@code unwrap()}, and round-trips through Java serialisation and Tribuo's protobuf form
 * ({@code psdkit_tribuo.proto}). docs/tribuo.md shows a complete program.
 */
package org.psdkit.tribuo;
