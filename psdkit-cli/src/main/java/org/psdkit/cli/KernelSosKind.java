package org.psdkit.cli;

import org.psdkit.io.ModelIO;
import org.psdkit.sos.KernelSos;

/**
 * Model type {@code kernel-sos} (Bagnell &amp; Farahmand's Kernel SoS, {@link KernelSos}) in the CLI's registry; it has
 * no {@code cv} support, and its model files are written and read by the library ({@link ModelIO}).
 */
public final class KernelSosKind implements ModelKind {
    public static final String TYPE = KernelSos.TYPE;

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return ModelIO.codec(TYPE).description();
    }
}
