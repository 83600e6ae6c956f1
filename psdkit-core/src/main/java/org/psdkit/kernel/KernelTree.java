package org.psdkit.kernel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Walks kernel trees for {@link Kernel#parameters()} and {@link Kernel#withParameter(String, double)}. */
final class KernelTree {
    private KernelTree() {
    }

    /** One parameter found in a pre-order walk: the node's pre-order index and the parameter. */
    private record Found(int node, KernelParameter parameter) {
    }

    private static void collect(Kernel k, List<Kernel> nodes) {
        nodes.add(k);
        for (Kernel c : k.children()) {
            collect(c, nodes);
        }
    }

    private static List<Found> find(Kernel root) {
        List<Kernel> nodes = new ArrayList<>();
        collect(root, nodes);
        Map<String, Integer> total = new HashMap<>();
        for (Kernel n : nodes) {
            if (!n.ownParameters().isEmpty()) {
                total.merge(n.kind(), 1, Integer::sum);
            }
        }
        Map<String, Integer> seen = new HashMap<>();
        List<Found> out = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            Kernel n = nodes.get(i);
            List<KernelParameter> own = n.ownParameters();
            if (own.isEmpty()) {
                continue;
            }
            int occurrence = seen.merge(n.kind(), 1, Integer::sum);
            String prefix = total.get(n.kind()) > 1 ? n.kind() + "#" + occurrence : n.kind();
            for (KernelParameter p : own) {
                out.add(new Found(i, p.renamed(prefix + "." + p.name())));
            }
        }
        return out;
    }

    static List<KernelParameter> parameters(Kernel root) {
        return find(root).stream().map(Found::parameter).collect(Collectors.toUnmodifiableList());
    }

    static Kernel withParameter(Kernel root, String name, double value) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("kernel parameter name is empty");
        }
        String key = name.strip();
        List<Found> all = find(root);
        boolean qualified = key.indexOf('.') >= 0;
        List<Found> hits = all.stream()
                .filter(f -> qualified ? f.parameter.name().equals(key) : f.parameter.simpleName().equals(key))
                .collect(Collectors.toList());
        if (hits.isEmpty()) {
            String known = all.isEmpty() ? "it has no parameters"
                    : "known: " + all.stream().map(f -> f.parameter.name()).collect(Collectors.joining(", "));
            throw new IllegalArgumentException("unknown kernel parameter '" + key + "' for " + root
                    + "; " + known);
        }
        if (hits.size() > 1) {
            throw new IllegalArgumentException("ambiguous kernel parameter '" + key + "' for " + root
                    + "; use one of " + hits.stream().map(f -> f.parameter.name()).collect(Collectors.joining(", ")));
        }
        Found hit = hits.get(0);
        return rebuild(root, hit.node, hit.parameter.simpleName(), value, new int[] {0});
    }

    private static Kernel rebuild(Kernel k, int target, String simple, double value, int[] counter) {
        int me = counter[0]++;
        if (me == target) {
            return k.withOwnParameter(simple, value);
        }
        List<Kernel> children = k.children();
        if (children.isEmpty()) {
            return k;
        }
        List<Kernel> next = new ArrayList<>(children.size());
        boolean changed = false;
        for (Kernel c : children) {
            Kernel r = rebuild(c, target, simple, value, counter);
            changed |= r != c;
            next.add(r);
        }
        return changed ? k.withChildren(next) : k;
    }
}
