/**
 * psdkit-tribuo: psdkit's trainers as <a href="https://tribuo.org">Tribuo</a> trainers. Depends on psdkit-core alone
 * among psdkit's modules ({@code LayeringTest} checks the pom).
 *
 * <p>The package is open: Tribuo's configuration system (OLCUT) sets the trainers' {@code @Config} fields and reads
 * them for provenance by reflection, and Tribuo's protobuf loader calls the models' {@code deserializeFromProto}.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // Tribuo 4.3, OLCUT and protobuf are
                                                                          // jars named by Automatic-Module-Name
open module org.psdkit.tribuo {
    requires transitive org.psdkit.core;
    requires transitive org.tribuo.core;
    requires transitive org.tribuo.regression.core;
    requires transitive org.tribuo.classification.core;
    requires transitive com.oracle.labs.mlrg.olcut;
    requires transitive com.google.protobuf; // the models' deserializeFromProto takes its Any
    requires java.logging;

    exports org.psdkit.tribuo;
}
