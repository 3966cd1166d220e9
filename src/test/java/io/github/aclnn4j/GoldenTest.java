package io.github.aclnn4j;

import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static io.github.aclnn4j.acl.AclrtMemcpyKind.ACL_MEMCPY_DEVICE_TO_HOST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclBoolArray;
import io.github.aclnn4j.acl.AclDataType;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.Npy;
import io.github.aclnn4j.testing.TestDevice;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks the operators against golden cases computed by PyTorch in float64
 * ({@code tools/golden/make_goldens.py}, which also describes the manifest). Every case runs
 * through layer 1 exactly as a CANN caller would: device buffers, tensors over them with the
 * recorded strides and offsets, both phases, a stream synchronize. Each output buffer is then
 * compared element by element with the expected buffer: within the recorded tolerance inside the
 * view (NaN for NaN, infinities exactly), bit for bit where the tolerance is 0 (outside the view,
 * and outputs that must stay untouched). Input buffers must come back unchanged.
 */
class GoldenTest {
    private static final String ROOT = "/golden/";
    private static final int MAX_REPORTED = 8;
    private static final Map<String, Integer> DTYPES = Map.of(
            "FLOAT", AclDataType.ACL_FLOAT, "FLOAT16", AclDataType.ACL_FLOAT16, "BF16", AclDataType.ACL_BF16,
            "INT32", AclDataType.ACL_INT32, "INT64", AclDataType.ACL_INT64, "UINT8", AclDataType.ACL_UINT8);

    record View(String name, String dtype, long[] shape, long[] strides, long offset, boolean output) {}

    record GoldenCase(String name, String op, String data, Map<String, String> attrs, List<View> views,
            List<String> nulls) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static AclrtStream stream;

    @BeforeAll
    static void createStream() {
        TestDevice.init();
        stream = new AclrtStream();
        assertEquals(0, AclRt.createStream(stream), () -> "aclrtCreateStream: " + Acl.getRecentErrMsg());
    }

    @AfterAll
    static void destroyStream() {
        assertEquals(0, AclRt.destroyStream(stream), () -> "aclrtDestroyStream: " + Acl.getRecentErrMsg());
    }

    static Stream<Arguments> cases() throws IOException {
        List<GoldenCase> cases = parseManifest();
        assertFalse(cases.isEmpty(), "the golden manifest has no cases");
        return cases.stream().map(c -> Arguments.of(c.name(), c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(String name, GoldenCase golden) throws IOException {
        Map<String, Npy> arrays;
        try (InputStream in = resource(golden.data())) {
            arrays = Npy.readArchive(in);
        }
        Map<String, AclTensor> tensors = new HashMap<>();
        Map<String, Pointer> buffers = new LinkedHashMap<>();
        Pointer workspace = new Pointer();
        try {
            for (View v : golden.views()) {
                Npy buffer = arrays.get(v.output() ? v.name() + ".init" : v.name());
                Pointer device = TestDevice.upload(buffer.data());
                buffers.put(v.name(), device);
                AclTensor tensor = Acl.createTensor(v.shape(), v.shape().length, DTYPES.get(v.dtype()), v.strides(),
                        v.offset(), ACL_FORMAT_ND, new long[] {buffer.length()}, 1, device);
                if (tensor == null) {
                    fail(name + ": aclCreateTensor(" + v.name() + ") failed: " + Acl.getRecentErrMsg());
                }
                tensors.put(v.name(), tensor);
            }
            long[] workspaceSize = new long[1];
            AclOpExecutor executor = new AclOpExecutor();
            Tensors byName = tensorName -> {
                if (tensors.containsKey(tensorName) == golden.nulls().contains(tensorName)) {
                    throw new IllegalStateException(name + ": the manifest has no tensor " + tensorName);
                }
                return tensors.get(tensorName);
            };
            int status = planOperator(golden, byName, workspaceSize, executor);
            assertEquals(0, status, () -> name + ": phase 1 returned " + status + ": " + Acl.getRecentErrMsg());
            if (workspaceSize[0] > 0) {
                workspace = TestDevice.malloc(workspaceSize[0]);
            }
            int launched = runOperator(golden.op(), workspace, workspaceSize[0], executor);
            assertEquals(0, launched, () -> name + ": phase 2 returned " + launched + ": " + Acl.getRecentErrMsg());
            int synced = AclRt.synchronizeStream(stream);
            assertEquals(0, synced, () -> name + ": synchronize returned " + synced + ": " + Acl.getRecentErrMsg());

            List<String> failures = new ArrayList<>();
            for (View v : golden.views()) {
                if (v.output()) {
                    compare(v, buffers.get(v.name()), arrays.get(v.name() + ".expect"), arrays.get(v.name() + ".tol"),
                            failures);
                } else if (!Arrays.equals(downloadBytes(buffers.get(v.name()), arrays.get(v.name()).data().length),
                        arrays.get(v.name()).data())) {
                    failures.add("input " + v.name() + " was modified");
                }
            }
            if (!failures.isEmpty()) {
                fail(name + ":\n  " + String.join("\n  ", failures));
            }
        } finally {
            tensors.values().forEach(Acl::destroyTensor);
            buffers.values().forEach(TestDevice::free);
            if (!workspace.isNull()) {
                TestDevice.free(workspace);
            }
        }
    }

    /** The case's tensors by parameter name; null for those the manifest passes as null. */
    interface Tensors {
        AclTensor get(String name);
    }

    private static int planOperator(GoldenCase c, Tensors t, long[] workspaceSize,
            AclOpExecutor executor) {
        return switch (c.op()) {
            case "bce_backward" -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(t.get("gradOutput"),
                    t.get("self"), t.get("target"), t.get("weight"), attr(c, "reduction"), t.get("out"),
                    workspaceSize, executor);
            case "prelu_backward" -> Aclnn.preluBackwardGetWorkspaceSize(t.get("gradOutput"), t.get("self"),
                    t.get("weight"), t.get("gradInput"), t.get("gradWeight"), workspaceSize, executor);
            case "bce_with_logits" -> Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(t.get("self"),
                    t.get("target"), t.get("weight"), t.get("posWeight"), attr(c, "reduction"), t.get("out"),
                    workspaceSize, executor);
            case "group_norm_backward" -> {
                boolean[] mask = new boolean[3];
                String[] flags = c.attrs().get("outputMask").split(",");
                for (int i = 0; i < mask.length; i++) {
                    mask[i] = flags[i].equals("1");
                }
                AclBoolArray outputMask = Acl.createBoolArray(mask, mask.length);
                try {
                    yield Aclnn.groupNormBackwardGetWorkspaceSize(t.get("gradOut"), t.get("input"), t.get("mean"),
                            t.get("rstd"), t.get("gamma"), attr(c, "N"), attr(c, "C"), attr(c, "HxW"),
                            attr(c, "group"), outputMask, t.get("gradInput"), t.get("gradGammaOut"),
                            t.get("gradBetaOut"), workspaceSize, executor);
                } finally {
                    Acl.destroyBoolArray(outputMask);
                }
            }
            case "nll_loss_backward" -> Aclnn.nllLossBackwardGetWorkspaceSize(t.get("gradOutput"), t.get("self"),
                    t.get("target"), t.get("weight"), attr(c, "reduction"), attr(c, "ignoreIndex"),
                    t.get("totalWeight"), t.get("out"), workspaceSize, executor);
            case "prelu" -> Aclnn.preluGetWorkspaceSize(t.get("self"), t.get("weight"), t.get("out"), workspaceSize,
                    executor);
            case "bce" -> Aclnn.binaryCrossEntropyGetWorkspaceSize(t.get("self"), t.get("target"), t.get("weight"),
                    attr(c, "reduction"), t.get("out"), workspaceSize, executor);
            case "group_norm" -> Aclnn.groupNormGetWorkspaceSize(t.get("self"), t.get("gamma"), t.get("beta"),
                    attr(c, "N"), attr(c, "C"), attr(c, "HxW"), attr(c, "group"),
                    Double.parseDouble(c.attrs().get("eps")), t.get("out"), t.get("meanOut"), t.get("rstdOut"),
                    workspaceSize, executor);
            case "nll_loss" -> Aclnn.nllLossGetWorkspaceSize(t.get("self"), t.get("target"), t.get("weight"),
                    attr(c, "reduction"), attr(c, "ignoreIndex"), t.get("out"), t.get("totalWeightOut"),
                    workspaceSize, executor);
            case "bce_logits_backward" -> Aclnn.binaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
                    t.get("gradOutput"), t.get("self"), t.get("target"), t.get("weightOptional"),
                    t.get("posWeightOptional"), attr(c, "reduction"), t.get("out"), workspaceSize, executor);
            default -> throw new IllegalArgumentException("unknown op " + c.op());
        };
    }

    private static int runOperator(String op, Pointer workspace, long workspaceSize, AclOpExecutor executor) {
        return switch (op) {
            case "bce_backward" -> Aclnn.binaryCrossEntropyBackward(workspace, workspaceSize, executor, stream);
            case "prelu_backward" -> Aclnn.preluBackward(workspace, workspaceSize, executor, stream);
            case "bce_with_logits" -> Aclnn.binaryCrossEntropyWithLogits(workspace, workspaceSize, executor, stream);
            case "group_norm_backward" -> Aclnn.groupNormBackward(workspace, workspaceSize, executor, stream);
            case "nll_loss_backward" -> Aclnn.nllLossBackward(workspace, workspaceSize, executor, stream);
            case "prelu" -> Aclnn.prelu(workspace, workspaceSize, executor, stream);
            case "bce" -> Aclnn.binaryCrossEntropy(workspace, workspaceSize, executor, stream);
            case "bce_logits_backward" -> Aclnn.binaryCrossEntropyWithLogitsBackward(workspace, workspaceSize, executor,
                    stream);
            case "nll_loss" -> Aclnn.nllLoss(workspace, workspaceSize, executor, stream);
            case "group_norm" -> Aclnn.groupNorm(workspace, workspaceSize, executor, stream);
            default -> throw new IllegalArgumentException("unknown op " + op);
        };
    }

    private static long attr(GoldenCase c, String key) {
        return Long.parseLong(c.attrs().get(key));
    }

    /** Appends to failures one line per mismatching element (the first few) and a count. */
    private static void compare(View v, Pointer device, Npy expected, Npy tolerance, List<String> failures) {
        float[] tol = tolerance.floats();
        long[] actualBits = download(v.dtype(), device, tol.length);
        long[] expectedBits = bits(v.dtype(), expected);
        int bad = 0;
        for (int i = 0; i < tol.length; i++) {
            if (!matches(v.dtype(), actualBits[i], expectedBits[i], tol[i])) {
                if (bad++ < MAX_REPORTED) {
                    failures.add(String.format("%s[%d]%s: expected %s, got %s (tolerance %.3g)", v.name(), i,
                            tol[i] == 0 ? " (must be untouched)" : "", describe(v.dtype(), expectedBits[i]),
                            describe(v.dtype(), actualBits[i]), tol[i]));
                }
            }
        }
        if (bad > MAX_REPORTED) {
            failures.add(v.name() + ": " + bad + " of " + tol.length + " buffer elements differ");
        }
    }

    private static boolean matches(String dtype, long actual, long expected, float tol) {
        if (tol == 0) {
            return actual == expected;
        }
        double a = value(dtype, actual);
        double e = value(dtype, expected);
        if (Double.isNaN(e)) {  // SPEC 4: a BFLOAT16 NaN is stored as 0x7FC0; other NaNs just stay NaN
            return dtype.equals("BF16") ? actual == expected : Double.isNaN(a);
        }
        if (Double.isInfinite(e)) {
            return a == e;
        }
        return Math.abs(a - e) <= tol;
    }

    /** The buffer's elements as raw bits (float32 bits or 16-bit patterns). */
    private static long[] download(String dtype, Pointer device, int count) {
        long[] out = new long[count];
        if (dtype.equals("FLOAT")) {
            float[] values = TestDevice.downloadFloats(device, count);
            Arrays.setAll(out, i -> Float.floatToRawIntBits(values[i]) & 0xFFFFFFFFL);
        } else {
            short[] values = TestDevice.downloadShorts(device, count);
            Arrays.setAll(out, i -> values[i] & 0xFFFF);
        }
        return out;
    }

    private static byte[] downloadBytes(Pointer device, int count) {
        byte[] out = new byte[count];
        int ret = count == 0 ? 0 : AclRt.memcpy(Pointer.to(out), count, device, count, ACL_MEMCPY_DEVICE_TO_HOST);
        assertEquals(0, ret, () -> "aclrtMemcpy: " + Acl.getRecentErrMsg());
        return out;
    }

    private static long[] bits(String dtype, Npy array) {
        long[] out = new long[array.length()];
        if (dtype.equals("FLOAT")) {
            float[] values = array.floats();
            Arrays.setAll(out, i -> Float.floatToRawIntBits(values[i]) & 0xFFFFFFFFL);
        } else {
            short[] values = array.shorts();
            Arrays.setAll(out, i -> values[i] & 0xFFFF);
        }
        return out;
    }

    private static double value(String dtype, long bits) {
        return switch (dtype) {
            case "FLOAT" -> Float.intBitsToFloat((int) bits);
            case "FLOAT16" -> Float.float16ToFloat((short) bits);
            case "BF16" -> Float.intBitsToFloat((int) bits << 16);
            default -> throw new IllegalArgumentException("not a floating output dtype: " + dtype);
        };
    }

    private static String describe(String dtype, long bits) {
        String hex = dtype.equals("FLOAT") ? String.format("%08x", bits) : String.format("%04x", bits);
        return value(dtype, bits) + " (0x" + hex + ")";
    }

    // ---------------------------------------------------------------- manifest

    private static InputStream resource(String path) throws IOException {
        InputStream in = GoldenTest.class.getResourceAsStream(ROOT + path);
        if (in == null) {
            throw new IOException("missing test resource " + ROOT + path
                    + " (regenerate with /usr/bin/python3 tools/golden/make_goldens.py)");
        }
        return in;
    }

    private static List<GoldenCase> parseManifest() throws IOException {
        List<GoldenCase> cases = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(resource("manifest.txt"), StandardCharsets.UTF_8))) {
            String name = null, op = null, data = null;
            Map<String, String> attrs = new HashMap<>();
            List<View> views = new ArrayList<>();
            List<String> nulls = new ArrayList<>();
            for (String line; (line = reader.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "case" -> name = f[1];
                    case "op" -> op = f[1];
                    case "data" -> data = f[1];
                    case "attr" -> attrs.put(f[1], f[2]);
                    case "in", "out" -> views.add(new View(f[1], f[2], longs(f[3]), longs(f[4]),
                            Long.parseLong(f[5]), f[0].equals("out")));
                    case "null" -> nulls.add(f[1]);
                    case "end" -> {
                        cases.add(new GoldenCase(name, op, data, Map.copyOf(attrs), List.copyOf(views),
                                List.copyOf(nulls)));
                        attrs.clear();
                        views.clear();
                        nulls.clear();
                    }
                    default -> throw new IOException("bad manifest line: " + line);
                }
            }
        }
        return cases;
    }

    private static long[] longs(String list) {
        String inner = list.substring(1, list.length() - 1);
        return inner.isEmpty() ? new long[0] : Arrays.stream(inner.split(",")).mapToLong(Long::parseLong).toArray();
    }
}
