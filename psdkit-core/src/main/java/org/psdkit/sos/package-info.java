/**
 * Kernel SoS (Bagnell and Farahmand 2015): a non-negative function f(x) = Σ_l α_l κ²(x, X_l) fitted by their SDP,
 * solved with {@link org.psdkit.optim.sdp.SdpSolver}; {@link org.psdkit.sos.KernelSosTrainer} fits it on raw data.
 * Start from {@code examples/.../KernelSosFitExample.java}; see {@code docs/families/kernel-sos.md}.
 */
package org.psdkit.sos;
