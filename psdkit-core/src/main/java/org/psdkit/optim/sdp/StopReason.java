package org.psdkit.optim.sdp;

/** Why an interior-point loop stopped: the status it reports and the message that explains it. */
record StopReason(SdpStatus status, String message) {
}
