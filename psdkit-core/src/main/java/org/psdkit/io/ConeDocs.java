package org.psdkit.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.psdkit.cone.ConePipeline;
import org.psdkit.cone.Diagnostics;
import org.psdkit.cone.FunctionCodec;
import org.psdkit.cone.ScalarFunction;
import org.psdkit.cone.TargetScaling;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;

/**
 * The codec part shared by the cone model files ({@code hetero}, {@code quantile}): target {@code center} and
 * {@code scale}, the training {@code points} (scaled space), the {@code directions} D and the block
 * {@code functions} of {@link FunctionCodec}, and the raw training box {@code rangeMin}/{@code rangeMax}; the options
 * {@code lambda} and {@code frobeniusWeight}.
 *
 * @param <P> the family's pipeline
 */
abstract class ConeDocs<P extends ConePipeline<?>> extends PipelineCodec<P> {

    ConeDocs(String type, String description, Class<P> modelClass) {
        super(type, description, modelClass, null);
    }

    /** What the common part of a cone document holds. */
    record Numbers(ModelHeader header, Kernel kernel, Matrix points, List<ScalarFunction> functions,
                   double[][] directions, TargetScaling scaling, double[] rangeMin, double[] rangeMax,
                   double lambda, double frobeniusWeight, Map<String, Object> diagnostics, Diagnostics solver) {

        /** The file's diagnostics as {@link Diagnostics} when they hold its keys, else as they were recorded. */
        org.psdkit.model.Diagnostics typedDiagnostics() {
            Diagnostics t = Diagnostics.typed(diagnostics);
            return t != null ? t : org.psdkit.model.Diagnostics.recorded(diagnostics);
        }
    }

    /** The family's functions, directions and target scaling. */
    record Parts(List<ScalarFunction> functions, double[][] directions, TargetScaling scaling) {
    }

    /** The parts of a fitted model that the common numbers hold. */
    abstract Parts parts(P model);

    /** Writes the family's fields after the common ones. */
    void writeExtra(P model, ObjectNode numbers) {
    }

    /** Rebuilds the family's model from the common numbers and the document. */
    abstract P build(Numbers common, Doc doc);

    @Override
    final void writeNumbers(P p, ObjectNode num) {
        Parts parts = parts(p);
        num.put("center", parts.scaling().center());
        num.put("scale", parts.scaling().scale());
        num.set("points", JsonArrays.rows(p.points()));
        num.set("directions", FunctionCodec.writeDirections(parts.directions()));
        num.set("functions", FunctionCodec.write(parts.functions()));
        num.set("rangeMin", JsonArrays.of(p.rangeMin()));
        num.set("rangeMax", JsonArrays.of(p.rangeMax()));
        writeExtra(p, num);
    }

    @Override
    final P read(Doc doc) {
        String where = doc.where();
        Kernel k = doc.kernel();
        int d = doc.header().d();
        Matrix pts = doc.matrix("points", d);
        List<ScalarFunction> fns = FunctionCodec.read(doc.numbers().get("functions"), k, pts,
                where + ": numbers.functions");
        double[][] dir = FunctionCodec.directions(doc.numbers().get("directions"), fns.size(),
                where + ": numbers.directions");
        TargetScaling sc;
        try {
            sc = new TargetScaling(doc.number("center"), doc.number("scale"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().startsWith(where) ? e.getMessage()
                    : where + ": " + e.getMessage(), e);
        }
        double[] lo = doc.doubles("rangeMin");
        double[] hi = doc.doubles("rangeMax");
        if (lo.length != d || hi.length != d) {
            throw new IllegalArgumentException(where + ": numbers.rangeMin/rangeMax need " + d + " entries");
        }
        Map<String, Object> diag = doc.diagnostics();
        return build(new Numbers(doc.header(), k, pts, fns, dir, sc, lo, hi, doc.option("lambda"),
                doc.option("frobeniusWeight"), diag, Diagnostics.fromMap(diag)), doc);
    }
}
