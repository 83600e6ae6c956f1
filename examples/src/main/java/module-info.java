/**
 * psdkit's example programs, one per model family. A named module that requires psdkit-core alone, so the examples
 * compile against the packages psdkit-core exports to everyone (its API) and nothing else; {@code TribuoExample}
 * also requires psdkit-tribuo and Tribuo's CSV loader.
 */
@SuppressWarnings("requires-automatic") // Tribuo's CSV loader is a jar named by Automatic-Module-Name
module org.psdkit.examples {
    requires transitive org.psdkit.core; // the examples' run methods return its Model
    requires org.psdkit.tribuo;
    requires org.tribuo.data;

    exports org.psdkit.examples;
}
