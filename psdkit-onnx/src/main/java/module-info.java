/**
 * psdkit-onnx: fitted psdkit models written as ONNX models ({@link org.psdkit.onnx.OnnxExport}). Depends on
 * psdkit-core alone ({@code LayeringTest} checks the pom); ONNX Runtime is a test dependency only.
 */
module org.psdkit.onnx {
    requires transitive org.psdkit.core; // OnnxExport.write takes its Model

    exports org.psdkit.onnx;
}
