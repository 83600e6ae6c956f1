/**
 * psdkit-core: kernel methods where positive semidefinite matrices carry the structure.
 *
 * <p>Layers, lowest first (each package imports only from lower layers or its own family; {@code LayeringTest}
 * checks it): {@code linalg}; {@code data}, {@code kernel}, {@code optim}; {@code optim.sdp}, {@code optim.smo};
 * {@code model} (the contract: Model, Trainer, Pipeline, Metrics); {@code psd} (shared PSD building blocks) and
 * {@code select} (cross-validation); the families {@code regression}, {@code regression.psd}, {@code sos},
 * {@code cone} (+ {@code cone.hetero}, {@code cone.quantile}), {@code classify} (+ {@code classify.mkl}) and
 * {@code density}, none of which imports another; {@code io} (save and load of every family) and {@code engine}
 * (the interface of engines that fit over data living elsewhere, e.g. psdkit-spark).
 *
 * <p>The API is every package exported to all modules below, each described by its {@code package-info.java}. A
 * package that only psdkit's own modules need is exported to them by name ({@code exports … to}):
 * {@code org.psdkit.linalg.reference}, the pure-Java reference the native back end is tested against, to
 * {@code org.psdkit.bench} ({@code psdkit bench linalg} times both); {@code org.psdkit.linalg.internal} (native
 * plumbing: single-precision BLAS, product blocks, workspaces) and {@code org.psdkit.regression.nystrom.internal}
 * (route planner, per-block Nyström arithmetic) to {@code org.psdkit.spark}, whose engine computes the same blocks on
 * executors. The other modules are plain jars whose manifests
 * name them ({@code Automatic-Module-Name}: {@code org.psdkit.bench}, {@code org.psdkit.cli},
 * {@code org.psdkit.experiments}, {@code org.psdkit.onnx}, {@code org.psdkit.spark}, {@code org.psdkit.spark.submit}),
 * so on the module path the restriction holds; on the class path (the shaded {@code psdkit.jar}) module boundaries
 * do not apply. {@code org.psdkit.tribuo} and {@code org.psdkit.examples} are named modules requiring this one: they
 * compile against the API alone. {@code LayeringTest} fails when a package is
 * added without a decision here.
 */
@SuppressWarnings("module") // the targets of "exports … to" are built after this module, so javac cannot see them
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
    exports org.psdkit.engine;
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

    // psdkit's own modules only (not API)
    exports org.psdkit.linalg.internal to org.psdkit.spark;
    exports org.psdkit.linalg.reference to org.psdkit.bench;
    exports org.psdkit.regression.nystrom.internal to org.psdkit.spark;
}
