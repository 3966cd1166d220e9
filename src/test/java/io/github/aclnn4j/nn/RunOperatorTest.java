package io.github.aclnn4j.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.cli.RunOperator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code ./aclnn4j run}: {@link RunOperator#run} on input directories of {@code .npy} files writes
 * exactly the outputs {@link Functional} gives for the same inputs and attributes (the same bits),
 * under the CANN documents' names; usage errors are exit status 2 with a message and the usage,
 * operator failures 1 with the status and layer 1's message, and nothing is written then.
 */
class RunOperatorTest extends SharedDevice {
    @TempDir
    Path tmp;

    /** What a run returned and printed. */
    private record Result(int status, String out, String err) {}

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RunOperator.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    // ---- input generators

    private static float[] uniform(Random r, int n, float lo, float hi) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = lo + (hi - lo) * r.nextFloat();
        }
        return v;
    }

    private static float[] normal(Random r, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) r.nextGaussian();
        }
        return v;
    }

    /** A case: the command line after OP, the inputs by file name, and Functional's outputs by name on them. */
    private record Case(String name, String op, List<String> options, Map<String, Tensor> inputs,
            Function<Map<String, Tensor>, Map<String, Tensor>> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Inputs by parameter name: the file names, and the name under which Functional's call finds them. */
    private static Tensor in(Map<String, Tensor> in, String name) {
        Tensor t = in.get(name);
        return t != null ? t : in.get(name + "Optional");
    }

    private static Map<String, Tensor> named(Object... pairs) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                m.put((String) pairs[i], (Tensor) pairs[i + 1]);
            }
        }
        return m;
    }

    static Stream<Arguments> cases() {
        Random r = new Random(0x5EED_0101L);
        Device d = device;
        List<Case> cases = new ArrayList<>();
        for (DType dtype : List.of(DType.FLOAT, DType.FLOAT16, DType.BFLOAT16)) {
            for (Reduction red : Reduction.values()) {
                long[] shape = {2, 3};
                Tensor self = d.tensor(dtype, uniform(r, 6, 0.05f, 0.95f), shape);
                Tensor target = d.tensor(dtype, uniform(r, 6, 0f, 1f), shape);
                Tensor weight = d.tensor(dtype, uniform(r, 3, 0.5f, 2f), 3);
                Tensor grad = red == Reduction.NONE ? d.tensor(dtype, normal(r, 6), shape)
                        : d.tensor(dtype, normal(r, 1));
                String reduction = red.name().toLowerCase();
                cases.add(new Case("BCE backward " + dtype + " " + red, "BinaryCrossEntropyBackward",
                        List.of("--reduction", reduction),
                        named("gradOutput", grad, "self", self, "target", target, "weight", weight),
                        t -> named("out", Functional.binaryCrossEntropyBackward(t.get("gradOutput"), t.get("self"),
                                t.get("target"), in(t, "weight"), red))));
                Tensor logits = d.tensor(dtype, normal(r, 6), shape);
                Tensor posWeight = d.tensor(dtype, uniform(r, 3, 0.5f, 2f), 3);
                cases.add(new Case("BCE with logits " + dtype + " " + red, "binary_cross_entropy_with_logits",
                        List.of("--reduction=" + reduction),
                        named("self", logits, "target", target, "weightOptional", weight, "posWeight", posWeight),
                        t -> named("out", Functional.binaryCrossEntropyWithLogits(t.get("self"), t.get("target"),
                                in(t, "weight"), in(t, "posWeight"), red))));
                cases.add(new Case("BCE with logits backward " + dtype + " " + red,
                        "BINARYCROSSENTROPYWITHLOGITSBACKWARD", List.of("--reduction", reduction),
                        named("gradOutput", grad, "self", logits, "target", target, "posWeight", posWeight),
                        t -> named("out", Functional.binaryCrossEntropyWithLogitsBackward(t.get("gradOutput"),
                                t.get("self"), t.get("target"), null, t.get("posWeight"), red))));
                cases.add(new Case("BCE " + dtype + " " + red, "BinaryCrossEntropy", List.of("--reduction", reduction),
                        named("self", self, "target", target),
                        t -> named("out", Functional.binaryCrossEntropy(t.get("self"), t.get("target"), null, red))));
            }
        }
        // the default reduction is mean
        {
            Tensor self = d.tensor(uniform(r, 4, 0.1f, 0.9f), 4);
            Tensor target = d.tensor(uniform(r, 4, 0f, 1f), 4);
            cases.add(new Case("BCE default reduction", "BinaryCrossEntropy", List.of(),
                    named("self", self, "target", target),
                    t -> named("out", Functional.binaryCrossEntropy(t.get("self"), t.get("target"), null,
                            Reduction.MEAN))));
        }
        // PReLU and its backward
        for (DType dtype : List.of(DType.FLOAT, DType.BFLOAT16)) {
            long[] shape = {2, 3, 4};
            Tensor self = d.tensor(dtype, normal(r, 24), shape);
            Tensor weight = d.tensor(dtype, uniform(r, 3, 0f, 0.5f), 3);
            Tensor grad = d.tensor(dtype, normal(r, 24), shape);
            cases.add(new Case("PReLU " + dtype, "prelu", List.of(), named("self", self, "weight", weight),
                    t -> named("out", Functional.prelu(t.get("self"), t.get("weight")))));
            cases.add(new Case("PReLU backward " + dtype, "aclnnPreluBackward", List.of(),
                    named("gradOutput", grad, "self", self, "weight", weight),
                    t -> {
                        PreluGrads g = Functional.preluBackward(t.get("gradOutput"), t.get("self"), t.get("weight"));
                        return named("gradInput", g.gradInput(), "gradWeight", g.gradWeight());
                    }));
        }
        // GroupNorm: N, C, HxW from self's shape [2, 4, 3, 2], or given
        {
            long[] shape = {2, 4, 3, 2};
            Tensor self = d.tensor(normal(r, 48), shape);
            Tensor gamma = d.tensor(uniform(r, 4, 0.5f, 1.5f), 4);
            Tensor beta = d.tensor(normal(r, 4), 4);
            cases.add(new Case("GroupNorm sizes from the shape", "GroupNorm", List.of("--group", "2", "--eps", "1e-3"),
                    named("self", self, "gamma", gamma, "beta", beta),
                    t -> {
                        GroupNormResult g = Functional.groupNorm(t.get("self"), t.get("gamma"), t.get("beta"), 2, 4, 6,
                                2, 1e-3);
                        return named("out", g.out(), "meanOut", g.mean(), "rstdOut", g.rstd());
                    }));
            cases.add(new Case("GroupNorm default eps, no gamma or beta", "group_norm", List.of("--group", "4"),
                    named("self", self),
                    t -> {
                        GroupNormResult g = Functional.groupNorm(t.get("self"), null, null, 2, 4, 6, 4, 1e-5);
                        return named("out", g.out(), "meanOut", g.mean(), "rstdOut", g.rstd());
                    }));
            Tensor same = d.tensor(normal(r, 48), 2, 6, 2, 2);
            cases.add(new Case("GroupNorm sizes given", "GroupNorm",
                    List.of("--group", "3", "--n", "2", "--c", "6", "--hxw", "4"), named("self", same),
                    t -> {
                        GroupNormResult g = Functional.groupNorm(t.get("self"), null, null, 2, 6, 4, 3, 1e-5);
                        return named("out", g.out(), "meanOut", g.mean(), "rstdOut", g.rstd());
                    }));
        }
        // GroupNorm backward reads gradOut and input as [N, C, HxW] whatever their shapes: sizes given
        // that differ from what the shape [2, 12] would give (C = 12, HxW = 1)
        {
            Tensor gradOut = d.tensor(normal(r, 24), 2, 12);
            Tensor input = d.tensor(normal(r, 24), 2, 12);
            Tensor mean = d.tensor(normal(r, 2), 2, 1);
            Tensor rstd = d.tensor(uniform(r, 2, 0.5f, 2f), 2, 1);
            cases.add(new Case("GroupNorm backward sizes given", "GroupNormBackward",
                    List.of("--group", "1", "--c", "4", "--hxw", "3"),
                    named("gradOut", gradOut, "input", input, "mean", mean, "rstd", rstd),
                    t -> {
                        GroupNormGrads g = Functional.groupNormBackward(t.get("gradOut"), t.get("input"), t.get("mean"),
                                t.get("rstd"), null, 2, 4, 3, 1, new boolean[] {true, true, true});
                        return named("gradInput", g.gradInput(), "gradGammaOut", g.gradGamma(), "gradBetaOut",
                                g.gradBeta());
                    }));
        }
        // GroupNorm backward, with output masks
        for (String mask : List.of("1,1,1", "1,0,1", "0,1,0")) {
            long[] shape = {2, 4, 3};
            Tensor gradOut = d.tensor(normal(r, 24), shape);
            Tensor input = d.tensor(normal(r, 24), shape);
            Tensor mean = d.tensor(normal(r, 4), 2, 2);
            Tensor rstd = d.tensor(uniform(r, 4, 0.5f, 2f), 2, 2);
            Tensor gamma = d.tensor(uniform(r, 4, 0.5f, 1.5f), 4);
            boolean[] m = {mask.charAt(0) == '1', mask.charAt(2) == '1', mask.charAt(4) == '1'};
            cases.add(new Case("GroupNorm backward mask " + mask, "GroupNormBackward",
                    mask.equals("1,1,1") ? List.of("--group", "2") : List.of("--group", "2", "--output-mask", mask),
                    named("gradOut", gradOut, "input", input, "mean", mean, "rstd", rstd, "gamma", gamma),
                    t -> {
                        GroupNormGrads g = Functional.groupNormBackward(t.get("gradOut"), t.get("input"), t.get("mean"),
                                t.get("rstd"), t.get("gamma"), 2, 4, 3, 2, m);
                        return named("gradInput", g.gradInput(), "gradGammaOut", g.gradGamma(), "gradBetaOut",
                                g.gradBeta());
                    }));
        }
        // NLLLoss and its backward, with an ignored target
        for (Reduction red : Reduction.values()) {
            Tensor self = d.tensor(normal(r, 20), 4, 5);
            Tensor target = d.tensor(new long[] {3, 2, 0, 4}, 4);
            Tensor target32 = d.tensor(new int[] {1, 2, 2, 0}, 4);
            Tensor weight = d.tensor(uniform(r, 5, 0.5f, 2f), 5);
            String reduction = red.name().toLowerCase();
            cases.add(new Case("NLLLoss " + red, "NLLLoss", List.of("--reduction", reduction, "--ignore-index", "2"),
                    named("self", self, "target", target32, "weight", weight),
                    t -> {
                        NllLossResult n = Functional.nllLoss(t.get("self"), t.get("target"), t.get("weight"), red, 2);
                        return named("out", n.out(), "totalWeightOut", n.totalWeight());
                    }));
            Tensor grad = red == Reduction.NONE ? d.tensor(normal(r, 4), 4) : d.tensor(normal(r, 1));
            Tensor totalWeight = d.tensor(uniform(r, 1, 1f, 3f));
            cases.add(new Case("NLLLoss backward " + red, "nll_loss_backward", List.of("--reduction", reduction),
                    named("gradOutput", grad, "self", self, "target", target, "weight", weight, "totalWeight",
                            totalWeight),
                    t -> named("out", Functional.nllLossBackward(t.get("gradOutput"), t.get("self"), t.get("target"),
                            t.get("weight"), red, -100, t.get("totalWeight")))));
        }
        return cases.stream().map(Arguments::of);
    }

    /**
     * The outputs written are Functional's on the same inputs, bit for bit, and nothing else is
     * written. (The cases share input tensors; the device frees them when it closes.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void writesWhatFunctionalComputes(Case c) throws IOException {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Path out = tmp.resolve("out");
        for (Map.Entry<String, Tensor> e : c.inputs().entrySet()) {
            Npy.write(e.getValue(), in.resolve(e.getKey() + ".npy"));
        }
        List<String> args = new ArrayList<>(List.of(c.op(), "--in", in.toString(), "--out", out.toString()));
        args.addAll(c.options());
        Result result = run(args.toArray(String[]::new));
        assertEquals(0, result.status(), result.err());
        assertEquals("", result.err());

        Map<String, Tensor> expected = c.expected().apply(c.inputs());
        expected.values().forEach(this::keep);
        Set<String> written = new TreeSet<>();
        try (Stream<Path> files = Files.list(out)) {
            files.forEach(p -> written.add(p.getFileName().toString()));
        }
        assertEquals(expected.keySet().stream().map(n -> n + ".npy").collect(Collectors.toCollection(TreeSet::new)),
                written, "the output files");
        for (Map.Entry<String, Tensor> e : expected.entrySet()) {
            Tensor got = keep(Npy.read(device, out.resolve(e.getKey() + ".npy")));
            assertEquals(e.getValue().dtype(), got.dtype(), e.getKey());
            assertArrayEquals(e.getValue().shape(), got.shape(), e.getKey());
            assertArrayEquals(e.getValue().toBytes(), got.toBytes(), e.getKey() + ": the same bits");
            assertTrue(result.out().contains(out.resolve(e.getKey() + ".npy").toString()), result.out());
        }
    }

    // ---- errors

    /** A directory with BinaryCrossEntropy's inputs, [2, 2] FLOAT. */
    private Path bceInputs() throws IOException {
        Path in = Files.createDirectories(tmp.resolve("bce"));
        Npy.write(keep(device.tensor(new float[] {0.1f, 0.5f, 0.7f, 0.9f}, 2, 2)), in.resolve("self.npy"));
        Npy.write(keep(device.tensor(new float[] {0f, 1f, 1f, 0f}, 2, 2)), in.resolve("target.npy"));
        return in;
    }

    private void assertUsage(Result r, String message) {
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains(message), () -> "expected \"" + message + "\" in: " + r.err());
        assertEquals("", r.out());
    }

    @Test
    void usageErrorsAreStatus2WithTheUsage() throws IOException {
        Path in = bceInputs();
        String out = tmp.resolve("out").toString();
        String dir = in.toString();
        assertUsage(run(), "no operator given");
        assertUsage(run("Softmax", "--in", dir, "--out", out), "unknown operator Softmax");
        assertUsage(run("--in", dir, "BinaryCrossEntropy"), "the operator comes first");
        assertUsage(run("BinaryCrossEntropy", "--out", out), "both --in DIR and --out DIR are needed");
        assertUsage(run("BinaryCrossEntropy", "--in", dir, "--out", out, "--foo", "1"), "unknown option --foo");
        assertUsage(run("BinaryCrossEntropy", "--in", dir, "--out", out, "--group", "2"),
                "BinaryCrossEntropy takes no --group");
        assertUsage(run("BinaryCrossEntropy", "--in", dir, "--out", out, "--reduction", "avg"),
                "--reduction avg is not none, mean or sum");
        assertUsage(run("BinaryCrossEntropy", "--in", dir, "--out", out, "--reduction"), "--reduction needs a value");
        assertUsage(run("BinaryCrossEntropy", "--in", dir, "--out", out, "--reduction", "sum", "--reduction", "sum"),
                "--reduction is given twice");
        assertUsage(run("BinaryCrossEntropy", "--in", dir, "--out", out, "extra"), "unexpected argument extra");
        assertUsage(run("GroupNorm", "--in", dir, "--out", out), "GroupNorm needs --group G");
        assertUsage(run("GroupNorm", "--in", dir, "--out", out, "--group", "two"), "--group two is not an integer");
        assertUsage(run("GroupNorm", "--in", dir, "--out", out, "--group", "1", "--eps", "small"),
                "--eps small is not a number");
        assertUsage(run("GroupNormBackward", "--in", dir, "--out", out, "--group", "1", "--output-mask", "1,1"),
                "--output-mask 1,1 is not three comma-separated 1s and 0s");
        assertUsage(run("NLLLoss", "--in", dir, "--out", out, "--ignore-index", "1.5"),
                "--ignore-index 1.5 is not an integer");
        Result withUsage = run("Softmax", "--in", dir, "--out", out);
        assertTrue(withUsage.err().contains("usage: ./aclnn4j run OP --in DIR --out DIR"), withUsage.err());
        assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
    }

    @Test
    void inputProblemsAreStatus2() throws IOException {
        Path in = bceInputs();
        String out = tmp.resolve("out").toString();
        assertUsage(run("BinaryCrossEntropy", "--in", tmp.resolve("nowhere").toString(), "--out", out),
                "is not a directory");
        assertUsage(run("BinaryCrossEntropyBackward", "--in", in.toString(), "--out", out),
                "missing input " + in.resolve("gradOutput.npy")
                        + " (BinaryCrossEntropyBackward takes gradOutput, self, target, [weight])");
        Npy.write(keep(device.tensor(new float[] {1, 1}, 2)), in.resolve("weight.npy"));
        Npy.write(keep(device.tensor(new float[] {1, 1}, 2)), in.resolve("weightOptional.npy"));
        assertUsage(run("BinaryCrossEntropy", "--in", in.toString(), "--out", out), "which is weight?");
        Files.delete(in.resolve("weightOptional.npy"));
        Files.write(in.resolve("weight.npy"), "not numpy".getBytes(StandardCharsets.US_ASCII));
        assertUsage(run("BinaryCrossEntropy", "--in", in.toString(), "--out", out),
                "input weight: " + in.resolve("weight.npy") + " is not a valid .npy file");
        Files.delete(in.resolve("weight.npy"));
        Npy.write(keep(device.tensor(new float[] {1, 2, 3}, 3)), in.resolve("self.npy"));
        assertUsage(run("GroupNorm", "--in", in.toString(), "--out", out, "--group", "1"),
                "GroupNorm: self has shape [3], not [N, C, ...]: give --n, --c and --hxw");
        assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
    }

    @Test
    void operatorFailureIsStatus1WithTheStatusAndMessage() throws IOException {
        Path in = Files.createDirectories(tmp.resolve("mismatch"));
        Path out = tmp.resolve("out");
        Tensor self = keep(device.tensor(new float[] {0.1f, 0.5f, 0.7f, 0.9f, 0.2f, 0.3f}, 2, 3));
        Tensor target = keep(device.tensor(new float[] {0f, 1f, 1f, 0f, 1f, 0f}, 3, 2));
        Npy.write(self, in.resolve("self.npy"));
        Npy.write(target, in.resolve("target.npy"));
        Result r = run("BinaryCrossEntropy", "--in", in.toString(), "--out", out.toString());
        AclnnException expected = org.junit.jupiter.api.Assertions.assertThrows(AclnnException.class,
                () -> Functional.binaryCrossEntropy(self, target, null, Reduction.MEAN));
        assertEquals(1, r.status(), r.err());
        assertEquals("aclnn4j run: running aclnnBinaryCrossEntropy failed: status " + expected.status() + ": "
                + expected.getMessage() + System.lineSeparator(), r.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    /** A failure while running (an NLL target out of range) is reported by the run, before anything is written. */
    @Test
    void runTimeFailureIsStatus1AndWritesNothing() throws IOException {
        Path in = Files.createDirectories(tmp.resolve("nll"));
        Path out = tmp.resolve("out");
        Npy.write(keep(device.tensor(new float[] {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f}, 2, 3)), in.resolve("self.npy"));
        Npy.write(keep(device.tensor(new long[] {1, 7}, 2)), in.resolve("target.npy"));
        Npy.write(keep(device.tensor(new float[] {1, 1, 1}, 3)), in.resolve("weight.npy"));
        Result r = run("NLLLoss", "--in", in.toString(), "--out", out.toString(), "--reduction", "sum");
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().startsWith("aclnn4j run: running aclnnNLLLoss failed: status 361001: "), r.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    @Test
    void unusedInputFilesAreWarnedAbout() throws IOException {
        Path in = bceInputs();
        Npy.write(keep(device.tensor(new float[] {1}, 1)), in.resolve("grad_output.npy"));
        Result r = run("BinaryCrossEntropy", "--in", in.toString(), "--out", tmp.resolve("out").toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("aclnn4j run: warning: BinaryCrossEntropy takes no input grad_output.npy; it is ignored"
                + System.lineSeparator(), r.err());
    }

    @Test
    void helpListsEveryOperatorAndItsFiles() {
        Result r = run("--help");
        assertEquals(0, r.status());
        for (String op : List.of("BinaryCrossEntropyBackward", "PreluBackward", "BinaryCrossEntropyWithLogits",
                "GroupNormBackward", "NLLLossBackward", "BinaryCrossEntropy", "Prelu", "GroupNorm", "NLLLoss",
                "BinaryCrossEntropyWithLogitsBackward")) {
            assertTrue(r.out().contains("  " + op + " "), op);
        }
        for (String name : List.of("gradGammaOut", "gradBetaOut", "meanOut", "rstdOut", "totalWeightOut",
                "[posWeight]", "totalWeight")) {
            assertTrue(r.out().contains(name), name);
        }
        assertEquals("", r.err());
        for (String[] help : List.of(new String[] {"help"}, new String[] {"-h"}, new String[] {"Prelu", "--help"})) {
            Result again = run(help);
            assertEquals(0, again.status(), Arrays.toString(help));
            assertEquals(r.out(), again.out(), Arrays.toString(help));
        }
    }
}
