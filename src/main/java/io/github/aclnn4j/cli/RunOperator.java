package io.github.aclnn4j.cli;

import io.github.aclnn4j.nn.AclnnException;
import io.github.aclnn4j.nn.Device;
import io.github.aclnn4j.nn.Functional;
import io.github.aclnn4j.nn.GroupNormGrads;
import io.github.aclnn4j.nn.GroupNormResult;
import io.github.aclnn4j.nn.NllLossResult;
import io.github.aclnn4j.nn.Npy;
import io.github.aclnn4j.nn.PreluGrads;
import io.github.aclnn4j.nn.Reduction;
import io.github.aclnn4j.nn.Tensor;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code ./aclnn4j run OP --in DIR --out DIR [attributes]}: runs one operator on {@code .npy}
 * inputs and writes its outputs as {@code .npy} files, so that an NPU's results can be compared
 * with aclnn4j's. Inputs are {@code DIR/<parameter>.npy} under the CANN documents' parameter
 * names; outputs {@code OUT/<output>.npy}. Exit status: 0 done, 2 a usage error (the command line,
 * or an input file missing or unreadable), 1 the operator failed (its status and message are
 * printed) or an output could not be written.
 */
public final class RunOperator {
    private RunOperator() {}

    /** Runs {@link #run} on the process's streams and exits with its status. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** A usage error: exit status 2. */
    private static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    private interface Body {
        Map<String, Tensor> run(Map<String, Tensor> in, Options o) throws UsageException;
    }

    /**
     * One operator: its inputs (those in {@code optional} may be absent), the attribute options it
     * takes, its outputs and the call.
     */
    private record Op(String name, List<String> inputs, Set<String> optional, List<String> options,
            List<String> outputs, Body body) {
        boolean takes(String input) {
            return inputs.contains(input);
        }

        /** The inputs, optional ones in brackets: {@code gradOutput self target [weight]}. */
        List<String> signature() {
            return inputs.stream().map(i -> optional.contains(i) ? "[" + i + "]" : i).toList();
        }
    }

    private static final List<String> REDUCTION = List.of("reduction");
    private static final List<String> SIZES = List.of("n", "c", "hxw");

    private static List<String> options(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    private static final List<Op> OPS = List.of(
            new Op("BinaryCrossEntropyBackward", List.of("gradOutput", "self", "target", "weight"), Set.of("weight"),
                    REDUCTION, List.of("out"),
                    (t, o) -> one("out", Functional.binaryCrossEntropyBackward(t.get("gradOutput"), t.get("self"),
                            t.get("target"), t.get("weight"), o.reduction()))),
            new Op("PreluBackward", List.of("gradOutput", "self", "weight"), Set.of(), List.of(),
                    List.of("gradInput", "gradWeight"),
                    (t, o) -> {
                        PreluGrads g = Functional.preluBackward(t.get("gradOutput"), t.get("self"), t.get("weight"));
                        return outputs("gradInput", g.gradInput(), "gradWeight", g.gradWeight());
                    }),
            new Op("BinaryCrossEntropyWithLogits", List.of("self", "target", "weight", "posWeight"),
                    Set.of("weight", "posWeight"), REDUCTION, List.of("out"),
                    (t, o) -> one("out", Functional.binaryCrossEntropyWithLogits(t.get("self"), t.get("target"),
                            t.get("weight"), t.get("posWeight"), o.reduction()))),
            new Op("GroupNormBackward", List.of("gradOut", "input", "mean", "rstd", "gamma"), Set.of("gamma"),
                    options(List.of("group", "output-mask"), SIZES), List.of("gradInput", "gradGammaOut", "gradBetaOut"),
                    (t, o) -> {
                        long[] ncs = o.sizes(t.get("input"), "input");
                        GroupNormGrads g = Functional.groupNormBackward(t.get("gradOut"), t.get("input"), t.get("mean"),
                                t.get("rstd"), t.get("gamma"), ncs[0], ncs[1], ncs[2], o.group(), o.outputMask());
                        return outputs("gradInput", g.gradInput(), "gradGammaOut", g.gradGamma(),
                                "gradBetaOut", g.gradBeta());
                    }),
            new Op("NLLLossBackward", List.of("gradOutput", "self", "target", "weight", "totalWeight"), Set.of(),
                    List.of("reduction", "ignore-index"), List.of("out"),
                    (t, o) -> one("out", Functional.nllLossBackward(t.get("gradOutput"), t.get("self"),
                            t.get("target"), t.get("weight"), o.reduction(), o.ignoreIndex(), t.get("totalWeight")))),
            new Op("BinaryCrossEntropy", List.of("self", "target", "weight"), Set.of("weight"), REDUCTION,
                    List.of("out"),
                    (t, o) -> one("out", Functional.binaryCrossEntropy(t.get("self"), t.get("target"), t.get("weight"),
                            o.reduction()))),
            new Op("Prelu", List.of("self", "weight"), Set.of(), List.of(), List.of("out"),
                    (t, o) -> one("out", Functional.prelu(t.get("self"), t.get("weight")))),
            new Op("GroupNorm", List.of("self", "gamma", "beta"), Set.of("gamma", "beta"),
                    options(List.of("group", "eps"), SIZES), List.of("out", "meanOut", "rstdOut"),
                    (t, o) -> {
                        long[] ncs = o.sizes(t.get("self"), "self");
                        GroupNormResult r = Functional.groupNorm(t.get("self"), t.get("gamma"), t.get("beta"), ncs[0],
                                ncs[1], ncs[2], o.group(), o.eps());
                        return outputs("out", r.out(), "meanOut", r.mean(), "rstdOut", r.rstd());
                    }),
            new Op("NLLLoss", List.of("self", "target", "weight"), Set.of(), List.of("reduction", "ignore-index"),
                    List.of("out", "totalWeightOut"),
                    (t, o) -> {
                        NllLossResult r = Functional.nllLoss(t.get("self"), t.get("target"), t.get("weight"),
                                o.reduction(), o.ignoreIndex());
                        return outputs("out", r.out(), "totalWeightOut", r.totalWeight());
                    }),
            new Op("BinaryCrossEntropyWithLogitsBackward",
                    List.of("gradOutput", "self", "target", "weight", "posWeight"), Set.of("weight", "posWeight"),
                    REDUCTION, List.of("out"),
                    (t, o) -> one("out", Functional.binaryCrossEntropyWithLogitsBackward(t.get("gradOutput"),
                            t.get("self"), t.get("target"), t.get("weight"), t.get("posWeight"), o.reduction()))));

    /** The file names CANN's documents give the optional inputs, read as well as the short ones. */
    private static final Map<String, String> ALIASES = Map.of("weightOptional", "weight",
            "posWeightOptional", "posWeight");

    private static final String DEFAULTS = """
            Attributes, where the operator takes them:
              --reduction none|mean|sum   (default mean)
              --ignore-index N            (default -100)
              --group G                   (GroupNorm, GroupNormBackward: required)
              --eps E                     (default 1e-05)
              --output-mask M0,M1,M2      (GroupNormBackward: 1 or 0 each, default 1,1,1)
              --n N --c C --hxw HXW       (default: from self's / input's shape [N, C, spatial...],
                                           N, C and the product of the spatial sizes)
            """;

    /** The usage text. */
    static String usage() {
        StringBuilder b = new StringBuilder("""
                usage: ./aclnn4j run OP --in DIR --out DIR [attributes]

                Runs aclnnOP on DIR/<input>.npy (the CANN documents' parameter names; [optional]
                ones may be absent) and writes OUT/<output>.npy. OP is case-insensitive and may be
                snake_case (nll_loss_backward). Exit status: 0 done, 2 usage error (this command line,
                an input missing or unreadable), 1 the operator failed or an output was not written.

                """);
        for (Op op : OPS) {
            List<String> opts = new ArrayList<>();
            for (String option : op.options) {
                if (!SIZES.contains(option) || option.equals("n")) {
                    opts.add(option.equals("n") ? "--n --c --hxw" : "--" + option);
                }
            }
            b.append(String.format(Locale.ROOT, "  %-36s %s%n  %-36s   -> %s%s%n", op.name, String.join(" ", op.signature()), "",
                    String.join(" ", op.outputs), opts.isEmpty() ? "" : "   (" + String.join(" ", opts) + ")"));
        }
        b.append('\n').append(DEFAULTS);
        b.append("[weight] and [posWeight] may also be named weightOptional.npy and posWeightOptional.npy.\n");
        return b.toString();
    }

    /**
     * The command: {@code args} are {@code OP --in DIR --out DIR [attributes]} (or {@code --help});
     * what it writes goes to {@code out} (one line per output file) and {@code err} (errors,
     * warnings). Returns the exit status: 0 done, 2 usage error, 1 operator or output failure.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (Arrays.stream(args).anyMatch(a -> a.equals("--help") || a.equals("-h"))
                || args.length == 1 && args[0].equals("help")) {
            out.print(usage());
            return 0;
        }
        Op op;
        Options options;
        try {
            if (args.length == 0) {
                throw new UsageException("no operator given");
            }
            op = operator(args[0]);
            options = Options.parse(op, Arrays.copyOfRange(args, 1, args.length));
        } catch (UsageException e) {
            err.println("aclnn4j run: " + e.getMessage());
            err.println();
            err.print(usage());
            return 2;
        }
        Map<String, Path> files;
        try {
            files = inputFiles(op, options.in, err);
        } catch (UsageException e) {
            err.println("aclnn4j run: " + e.getMessage());
            return 2;
        }
        String stage = "running aclnn" + op.name;
        try (Device device = Device.open()) {
            Map<String, Tensor> inputs = new LinkedHashMap<>();
            for (Map.Entry<String, Path> f : files.entrySet()) {
                try {
                    inputs.put(f.getKey(), Npy.read(device, f.getValue()));
                } catch (IOException e) {
                    err.println("aclnn4j run: input " + f.getKey() + ": " + e.getMessage());
                    return 2;
                }
            }
            Map<String, Tensor> results;
            try {
                results = op.body.run(inputs, options);
            } catch (UsageException e) {
                err.println("aclnn4j run: " + e.getMessage());
                return 2;
            }
            device.synchronize(); // a failure while running is reported before anything is written
            stage = "writing the outputs";
            Files.createDirectories(options.out);
            for (Map.Entry<String, Tensor> r : results.entrySet()) {
                Path file = options.out.resolve(r.getKey() + ".npy");
                Npy.write(r.getValue(), file);
                out.println("wrote " + file + ": " + r.getValue().dtype() + " " + Arrays.toString(r.getValue().shape()));
            }
            return 0;
        } catch (AclnnException e) {
            err.println("aclnn4j run: " + stage + " failed: status " + e.status() + ": " + e.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("aclnn4j run: " + stage + " failed: " + e);
            return 1;
        }
    }

    /** The operator named {@code name}: the aclnn name without its prefix, any case, or snake_case. */
    private static Op operator(String name) throws UsageException {
        if (name.startsWith("-")) {
            throw new UsageException("the operator comes first, found " + name);
        }
        String key = normalize(name);
        if (key.startsWith("aclnn")) {
            key = key.substring("aclnn".length());
        }
        for (Op op : OPS) {
            if (normalize(op.name).equals(key)) {
                return op;
            }
        }
        throw new UsageException("unknown operator " + name);
    }

    private static String normalize(String name) {
        return name.replace("_", "").replace("-", "").toLowerCase(Locale.ROOT);
    }

    /** The files of {@code op}'s inputs in {@code dir}; warns about the other .npy files there. */
    private static Map<String, Path> inputFiles(Op op, Path dir, PrintStream err) throws UsageException {
        if (!Files.isDirectory(dir)) {
            throw new UsageException("--in " + dir + " is not a directory");
        }
        Map<String, Path> files = new LinkedHashMap<>();
        for (String name : op.inputs) {
            Path plain = dir.resolve(name + ".npy");
            Path alias = null;
            for (Map.Entry<String, String> a : ALIASES.entrySet()) {
                if (a.getValue().equals(name)) {
                    alias = dir.resolve(a.getKey() + ".npy");
                }
            }
            boolean hasPlain = Files.exists(plain);
            boolean hasAlias = alias != null && Files.exists(alias);
            if (hasPlain && hasAlias) {
                throw new UsageException("both " + plain + " and " + alias + " are there: which is " + name + "?");
            }
            if (hasPlain || hasAlias) {
                files.put(name, hasPlain ? plain : alias);
            } else if (!op.optional.contains(name)) {
                throw new UsageException("missing input " + plain + " (" + op.name + " takes "
                        + String.join(", ", op.signature()) + ")");
            }
        }
        Set<String> ignored = new TreeSet<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, "*.npy")) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                name = name.substring(0, name.length() - ".npy".length());
                if (!op.takes(ALIASES.getOrDefault(name, name))) {
                    ignored.add(p.getFileName().toString());
                }
            }
        } catch (IOException e) {
            throw new UsageException("cannot list --in " + dir + ": " + e.getMessage());
        }
        for (String name : ignored) {
            err.println("aclnn4j run: warning: " + op.name + " takes no input " + name + "; it is ignored");
        }
        return files;
    }

    private static Map<String, Tensor> one(String name, Tensor t) {
        return outputs(name, t);
    }

    /** Name, tensor, name, tensor ...: the non-null ones in order. */
    private static Map<String, Tensor> outputs(Object... pairs) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                m.put((String) pairs[i], (Tensor) pairs[i + 1]);
            }
        }
        return m;
    }

    /** The command line's directories and attribute options, checked against the operator. */
    private static final class Options {
        private final Op op;
        private final Map<String, String> values = new LinkedHashMap<>();
        Path in;
        Path out;

        private Options(Op op) {
            this.op = op;
        }

        static Options parse(Op op, String[] args) throws UsageException {
            Options o = new Options(op);
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (!arg.startsWith("--") || arg.length() == 2) {
                    throw new UsageException("unexpected argument " + arg);
                }
                String name = arg.substring(2);
                String value;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw new UsageException("--" + name + " needs a value");
                }
                String option = name;
                boolean known = name.equals("in") || name.equals("out") || op.options.contains(name);
                if (!known) {
                    boolean anyOp = OPS.stream().anyMatch(x -> x.options.contains(option));
                    throw new UsageException(anyOp ? op.name + " takes no --" + name
                            : "unknown option --" + name);
                }
                if (o.values.put(name, value) != null) {
                    throw new UsageException("--" + name + " is given twice");
                }
            }
            if (!o.values.containsKey("in") || !o.values.containsKey("out")) {
                throw new UsageException("both --in DIR and --out DIR are needed");
            }
            o.in = Path.of(o.values.get("in"));
            o.out = Path.of(o.values.get("out"));
            // attribute values are checked now, before any input is read
            if (op.options.contains("reduction")) {
                o.reduction();
            }
            if (op.options.contains("ignore-index")) {
                o.ignoreIndex();
            }
            if (op.options.contains("group")) {
                o.group();
            }
            if (op.options.contains("eps")) {
                o.eps();
            }
            if (op.options.contains("output-mask")) {
                o.outputMask();
            }
            for (String s : SIZES) {
                if (o.values.containsKey(s)) {
                    o.integer(s);
                }
            }
            return o;
        }

        Reduction reduction() throws UsageException {
            String v = values.getOrDefault("reduction", "mean");
            return switch (v.toLowerCase(Locale.ROOT)) {
                case "none", "0" -> Reduction.NONE;
                case "mean", "1" -> Reduction.MEAN;
                case "sum", "2" -> Reduction.SUM;
                default -> throw new UsageException("--reduction " + v + " is not none, mean or sum");
            };
        }

        long ignoreIndex() throws UsageException {
            return values.containsKey("ignore-index") ? integer("ignore-index") : -100;
        }

        long group() throws UsageException {
            if (!values.containsKey("group")) {
                throw new UsageException(op.name + " needs --group G");
            }
            return integer("group");
        }

        double eps() throws UsageException {
            String v = values.getOrDefault("eps", "1e-5");
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new UsageException("--eps " + v + " is not a number");
            }
        }

        boolean[] outputMask() throws UsageException {
            String v = values.getOrDefault("output-mask", "1,1,1");
            String[] parts = v.split(",", -1);
            if (parts.length != 3) {
                throw new UsageException("--output-mask " + v + " is not three comma-separated 1s and 0s");
            }
            boolean[] mask = new boolean[3];
            for (int i = 0; i < 3; i++) {
                mask[i] = switch (parts[i].strip().toLowerCase(Locale.ROOT)) {
                    case "1", "true" -> true;
                    case "0", "false" -> false;
                    default -> throw new UsageException("--output-mask " + v
                            + " is not three comma-separated 1s and 0s");
                };
            }
            return mask;
        }

        /** N, C and HxW: as given, else from {@code like}'s shape [N, C, spatial...]. */
        long[] sizes(Tensor like, String name) throws UsageException {
            long[] shape = like.shape();
            boolean all = SIZES.stream().allMatch(values::containsKey);
            if (!all && shape.length < 2) {
                throw new UsageException(op.name + ": " + name + " has shape " + Arrays.toString(shape)
                        + ", not [N, C, ...]: give --n, --c and --hxw");
            }
            long hxw = 1;
            for (int i = 2; i < shape.length; i++) {
                hxw = Math.multiplyExact(hxw, shape[i]);
            }
            return new long[] {
                values.containsKey("n") ? integer("n") : shape[0],
                values.containsKey("c") ? integer("c") : shape[1],
                values.containsKey("hxw") ? integer("hxw") : hxw
            };
        }

        /** The integer value of option {@code name}; its range is the operator's to check. */
        private long integer(String name) throws UsageException {
            String v = values.get(name);
            try {
                return Long.parseLong(v.strip());
            } catch (NumberFormatException e) {
                throw new UsageException("--" + name + " " + v + " is not an integer");
            }
        }
    }
}
