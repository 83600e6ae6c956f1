package org.psdkit.cli.fit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.psdkit.cli.cv.CvSupport;
import org.psdkit.io.ModelIO;
import org.psdkit.regression.psd.BaselineTrainer;
import picocli.CommandLine;

/**
 * The command line's model registry, keyed by the library's ({@link ModelIO#types()}): for every model type its
 * {@code fit} command and its {@code cv} support. {@code predict}, {@code eval} and {@code sample} read every type
 * through {@link ModelIO}; the subcommands of {@code fit} are added from here in {@link ModelIO#types()} order, the
 * types {@code cv} accepts come from here and the one-line descriptions from {@link
 * org.psdkit.io.ModelCodec#description()}. A new family adds its codec to {@code ModelIO} and one line here.
 */
public final class FitCommands {
    private FitCommands() {
    }

    /**
     * One model type on the command line.
     *
     * @param type    the type string of the model files ({@code "krr"})
     * @param command the {@code fit} subcommand class (a picocli {@code @Command})
     * @param cv      a new cross-validation support per {@code cv} run, or {@code null} if the type has none
     */
    public record Entry(String type, Class<?> command, Supplier<CvSupport> cv) {

        /** One line for help texts: the library codec's description. */
        public String description() {
            return ModelIO.codec(type).description();
        }
    }

    /** Every model type. Keep one entry per line; the keys must be {@link ModelIO#types()} (checked at start-up). */
    private static final List<Entry> ENTRIES = List.of(new Entry[] {
            new Entry("krr", FitKrrCommand.class, KrrKind::cv),
            new Entry("svm", FitSvmCommands.Svm.class, SvmKind::cv),
            new Entry("tk-svm", FitSvmCommands.TkSvm.class, null),
            new Entry("simplemkl", FitSvmCommands.SimpleMkl.class, null),
            new Entry("ridge", FitRidgeCommand.class, RidgeKind::cv),
            new Entry("svr", FitSvrCommand.class, SvrKind::cv),
            new Entry("one-class-svm", FitOneClassSvmCommand.class, null),
            new Entry("psd-regression", FitPsdRegressionCommand.class, PsdKinds::psdRegressionCv),
            new Entry("ncm", FitBaselineCommand.Ncm.class, () -> PsdKinds.baselineCv(BaselineTrainer.Method.NCM)),
            new Entry("pnm", FitBaselineCommand.Pnm.class, () -> PsdKinds.baselineCv(BaselineTrainer.Method.PNM)),
            new Entry("glm", FitBaselineCommand.Glm.class, () -> PsdKinds.baselineCv(BaselineTrainer.Method.GLM)),
            new Entry("kernel-sos", FitKernelSosCommand.class, null),
            new Entry("hetero", FitConeCommands.Hetero.class, ConeKinds::heteroCv),
            new Entry("quantile", FitConeCommands.Quantile.class, ConeKinds::quantileCv),
            new Entry("psd-density", FitDensityCommands.Psd.class, DensityKind::psd),
            new Entry("ncm-density", FitDensityCommands.Ncm.class, () -> DensityKind.baseline("ncm-density")),
            new Entry("pnm-density", FitDensityCommands.Pnm.class, () -> DensityKind.baseline("pnm-density")),
            new Entry("glm-density", FitDensityCommands.Glm.class, () -> DensityKind.baseline("glm-density")),
            new Entry("kde", FitDensityCommands.KdeCmd.class, DensityKind::kde),
    });

    /** The entries in {@link ModelIO#types()} order; fails if the two registries disagree. */
    public static List<Entry> all() {
        Map<String, Entry> byType = new LinkedHashMap<>();
        for (Entry e : ENTRIES) {
            if (byType.put(e.type(), e) != null) {
                throw new IllegalStateException("model type '" + e.type() + "' is registered twice in FitCommands");
            }
        }
        Set<String> missing = new LinkedHashSet<>(ModelIO.types());
        missing.removeAll(byType.keySet());
        Set<String> extra = new LinkedHashSet<>(byType.keySet());
        extra.removeAll(ModelIO.types());
        if (!missing.isEmpty() || !extra.isEmpty()) {
            throw new IllegalStateException("FitCommands and ModelIO disagree: types without a fit command "
                    + missing + ", fit commands without a codec " + extra);
        }
        List<Entry> out = new ArrayList<>();
        for (String t : ModelIO.types()) {
            out.add(byType.get(t));
        }
        return out;
    }

    /** The entry of a type; an unknown type is an error listing the known ones (as {@link ModelIO#codec}). */
    public static Entry get(String type) {
        ModelIO.codec(type);
        for (Entry e : ENTRIES) {
            if (e.type().equals(type)) {
                return e;
            }
        }
        throw new IllegalStateException("model type '" + type + "' has a codec but no fit command");
    }

    /** The types with {@code cv} support, in {@link ModelIO#types()} order. */
    public static List<Entry> withCv() {
        List<Entry> out = new ArrayList<>();
        for (Entry e : all()) {
            if (e.cv() != null) {
                out.add(e);
            }
        }
        return out;
    }

    /** Adds one subcommand per model type to {@code fit}, in {@link ModelIO#types()} order. */
    public static void addTo(CommandLine fit) {
        for (Entry e : all()) {
            fit.addSubcommand(e.command());
        }
    }
}
