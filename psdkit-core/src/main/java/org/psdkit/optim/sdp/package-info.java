/**
 * Semidefinite programming: the primal–dual interior-point solver {@link org.psdkit.optim.sdp.SdpSolver} for
 * {@link org.psdkit.optim.sdp.SdpProblem}s, read from SDPA files ({@link org.psdkit.optim.sdp.SdpaFormat}, the format
 * of SDPLIB) or stated with the modelling layer {@link org.psdkit.optim.sdp.SdpModel}; results carry a
 * {@link org.psdkit.optim.sdp.SdpStatus}. From the command line: {@code psdkit sdp solve FILE.dat-s}; figures on
 * {@code docs/benchmarks/sdp.md}.
 */
package org.psdkit.optim.sdp;
