/**
 * psdkit's example programs, one per model family. A named module that requires psdkit-core alone, so the examples
 * compile against the packages psdkit-core exports to everyone (its API) and nothing else; {@code TribuoExample}
 * also requires psdkit-tribuo and Tribuo's CSV loader, {@code OnnxExample} psdkit-onnx and ONNX Runtime.
 */
@SuppressWarnings("requires-automatic") // Tribuo's CSV loader and ONNX Runtime are jars named by
                                        // Automatic-Module-Name
module org.psdkit.examples {
    requires transitive org.psdkit.core; // the examples' run methods return its Model
    requires org.psdkit.tribuo;
    requires org.tribuo.data;
    requires org.psdkit.onnx;
    requires com.microsoft.onnxruntime;

    exports org.psdkit.examples;
}
