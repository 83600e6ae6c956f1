package org.psdkit.classify.mkl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.classify.BinaryLabels;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.data.Dataset;
import org.psdkit.data.Splits;
import org.psdkit.model.Classifier;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Any number of classes for a binary learned-kernel SVM trainer ({@link TkSvmTrainer}, {@link SimpleMklTrainer}, or
 * their {@code Search}): one-vs-one as LIBSVM does it (Hsu &amp; Lin 2002; Chang &amp; Lin 2011, Sec. 7). The classes
 * are taken in order of first appearance; for each pair (i, j), i &lt; j, the binary trainer is fitted on the rows of
 * those two classes alone — so each pair learns its own kernel and, when the trainer cross-validates, chooses its own
 * C (and ε) on its own rows. Two classes give the binary trainer's model unchanged.
 *
 * @param binary the trainer of each pair
 */
public record LearnedOneVsOne(Trainer<SvmClassifier> binary) implements Trainer<Classifier> {

    public LearnedOneVsOne {
        ParameterException.required("binary", binary);
    }

    @Override
    public Classifier fit(Dataset train, ProgressListener listener) {
        ProgressListener l = ProgressListener.orNone(listener);
        String[] tokens = SvmClassifier.labelTokens(train);
        List<String> classes = new ArrayList<>();
        Map<String, List<Integer>> rows = new LinkedHashMap<>();
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i] == null ? "" : tokens[i].trim();
            if (t.isEmpty()) {
                throw new IllegalArgumentException(train.source() + ": empty class label in row " + (i + 1));
            }
            String c = BinaryLabels.canonical(t);
            rows.computeIfAbsent(c, key -> {
                classes.add(key);
                return new ArrayList<>();
            }).add(i);
        }
        if (classes.size() <= 2) {
            return binary.fit(train, l);
        }
        long t0 = System.nanoTime();
        int k = classes.size();
        List<SvmClassifier> pairs = new ArrayList<>();
        long iterations = 0;
        boolean converged = true;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                List<Integer> a = rows.get(classes.get(i));
                List<Integer> b = rows.get(classes.get(j));
                int[] idx = new int[a.size() + b.size()];
                int t = 0;
                for (int r : a) {
                    idx[t++] = r;
                }
                for (int r : b) {
                    idx[t++] = r;
                }
                java.util.Arrays.sort(idx);
                SvmClassifier m = binary.fit(Splits.subset(train, idx), l);
                pairs.add(m);
                if (m.diagnostics() instanceof LearnedKernelFit f) {
                    iterations += f.iterations();
                    converged &= f.converged();
                }
            }
        }
        double secs = (System.nanoTime() - t0) * 1e-9;
        String type = pairs.get(0).type();
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("classes", k);
        h.put("oneVsOne", true);
        ModelHeader header = ModelHeader.of(type, train, null, null, h);
        return new MulticlassLearnedSvm(header, classes, pairs, new OneVsOneFit(pairs.size(), iterations, converged,
                secs));
    }
}
