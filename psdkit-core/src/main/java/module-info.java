/**
 * psdkit-core: kernel methods where positive semidefinite matrices carry the structure.
 *
 * <p>Layers, lowest first (each package imports only from lower layers or its own family; {@code LayeringTest}
 * checks it): {@code linalg}; {@code data}, {@code kernel}, {@code optim}; {@code optim.sdp}, {@code optim.smo};
 * {@code model} (the contract: Model, Trainer, Pipeline, Metrics); {@code psd} (shared PSD building blocks) and
 * {@code select} (cross-validation); the families {@code regression}, {@code regression.psd}, {@code sos},
 * {@code cone} (+ {@code cone.hetero}, {@code cone.quantile}), {@code classify} (+ {@code classify.mkl}) and
 * {@code density}, none of which imports another; {@code io} (save and load of every family).
 *
 * <p>{@code org.psdkit.linalg.reference} (the pure-Java reference the native back end is tested against) is not
 * exported.
 */
module org.psdkit.core {
    requires transitive com.fasterxml.jackson.databind;
    requires java.management; // thread CPU time in the SDP solvers
    requires org.bytedeco.javacpp;
    requires org.bytedeco.openblas;

    exports org.psdkit.classify;
    exports org.psdkit.classify.mkl;
    exports org.psdkit.cone;
    exports org.psdkit.cone.hetero;
    exports org.psdkit.cone.quantile;
    exports org.psdkit.data;
    exports org.psdkit.density;
    exports org.psdkit.io;
    exports org.psdkit.kernel;
    exports org.psdkit.linalg;
    exports org.psdkit.model;
    exports org.psdkit.optim;
    exports org.psdkit.optim.sdp;
    exports org.psdkit.optim.smo;
    exports org.psdkit.psd;
    exports org.psdkit.regression;
    exports org.psdkit.regression.nystrom;
    exports org.psdkit.regression.psd;
    exports org.psdkit.select;
    exports org.psdkit.sos;
}
