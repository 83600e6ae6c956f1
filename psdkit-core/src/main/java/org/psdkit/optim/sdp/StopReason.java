package org.psdkit.optim.sdp;

/**
 * Why an interior-point loop stopped: the status it reports and the message that explains it.
 *
 * @param status  the status of the run
 * @param message the explanation
 */
public record StopReason(SdpStatus status, String message) {
}
