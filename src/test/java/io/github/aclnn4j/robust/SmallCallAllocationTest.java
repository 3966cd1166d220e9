package io.github.aclnn4j.robust;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclDataType.ACL_INT64;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclFormat;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.Aclnn;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.testing.TestDevice;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Phase 2 of a small call allocates nothing: a repeatable executor of each operator, launched and
 * synchronized again and again on an idle stream (the work runs inline on the calling thread),
 * leaves the thread's allocated-bytes counter where it was. A lambda or iterator slipped into the
 * launch path shows up here as tens of bytes per call. Until C2 has compiled the path, the JDK's
 * own wrappers (a heap segment around an array being copied) are still allocated, so rounds run
 * until one allocates nothing, within a generous budget.
 *
 * <p>Each operator is measured in a fresh JVM ({@link #main}), as the benchmarks are: in the test
 * JVM, once Jazzer's agent has attached and re-instrumented the loaded classes (deoptimizing all
 * compiled code), C2 once recompiled BCE with logits' vector loop so that it boxed vectors
 * (368 bytes per call), a state that depends on what ran before.
 */
class SmallCallAllocationTest {
    private static final int ROUND = 20_000;
    private static final int MAX_ROUNDS = 25;

    private final AclrtStream stream = new AclrtStream();

    private void init() {
        TestDevice.init();
        assertEquals(0, AclRt.createStream(stream), Acl::getRecentErrMsg);
    }

    private void destroy() {
        AclRt.destroyStream(stream);
    }

    private interface Phase1 {
        int plan(long[] workspaceSize, AclOpExecutor executor);
    }

    private interface Phase2 {
        int launch(Pointer workspace, long workspaceSize, AclOpExecutor executor, AclrtStream stream);
    }

    private static AclTensor tensor(int dtype, Pointer data, long... shape) {
        long[] strides = new long[shape.length];
        long step = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            strides[d] = step;
            step *= shape[d];
        }
        return Acl.createTensor(shape, shape.length, dtype, strides, 0, AclFormat.ACL_FORMAT_ND, shape, shape.length,
                data);
    }

    private static Pointer ones(int count) {
        float[] host = new float[count];
        Arrays.fill(host, 0.5f);
        return TestDevice.upload(host);
    }

    static Stream<Arguments> calls() {
        return Stream.of(
                Arguments.of("BCE backward 2x2, mean", (Phase1) (ws, ex) -> Aclnn.binaryCrossEntropyBackwardGetWorkspaceSize(
                        tensor(ACL_FLOAT, ones(1)), tensor(ACL_FLOAT, ones(4), 2, 2), tensor(ACL_FLOAT, ones(4), 2, 2),
                        null, 1, tensor(ACL_FLOAT, ones(4), 2, 2), ws, ex), (Phase2) Aclnn::binaryCrossEntropyBackward),
                Arguments.of("BCE with logits 2x2, mean", (Phase1) (ws, ex) ->
                        Aclnn.binaryCrossEntropyWithLogitsGetWorkspaceSize(tensor(ACL_FLOAT, ones(4), 2, 2),
                                tensor(ACL_FLOAT, ones(4), 2, 2), null, null, 1, tensor(ACL_FLOAT, ones(1)), ws, ex),
                        (Phase2) Aclnn::binaryCrossEntropyWithLogits),
                Arguments.of("PReLU backward 2x2", (Phase1) (ws, ex) -> Aclnn.preluBackwardGetWorkspaceSize(
                        tensor(ACL_FLOAT, ones(4), 2, 2), tensor(ACL_FLOAT, ones(4), 2, 2), tensor(ACL_FLOAT, ones(2), 2),
                        tensor(ACL_FLOAT, ones(4), 2, 2), tensor(ACL_FLOAT, ones(2), 2), ws, ex),
                        (Phase2) Aclnn::preluBackward),
                Arguments.of("GroupNorm backward 2x4x2, 2 groups", (Phase1) (ws, ex) ->
                        Aclnn.groupNormBackwardGetWorkspaceSize(tensor(ACL_FLOAT, ones(16), 2, 4, 2),
                                tensor(ACL_FLOAT, ones(16), 2, 4, 2), tensor(ACL_FLOAT, ones(4), 2, 2),
                                tensor(ACL_FLOAT, ones(4), 2, 2), tensor(ACL_FLOAT, ones(4), 4), 2, 4, 2, 2,
                                Acl.createBoolArray(new boolean[] {true, true, true}, 3),
                                tensor(ACL_FLOAT, ones(16), 2, 4, 2), tensor(ACL_FLOAT, ones(4), 4),
                                tensor(ACL_FLOAT, ones(4), 4), ws, ex), (Phase2) Aclnn::groupNormBackward),
                Arguments.of("NLL backward 2x3, mean", (Phase1) (ws, ex) -> Aclnn.nllLossBackwardGetWorkspaceSize(
                        tensor(ACL_FLOAT, ones(1)), tensor(ACL_FLOAT, ones(6), 2, 3),
                        tensor(ACL_INT64, TestDevice.upload(new long[] {0, 2}), 2), tensor(ACL_FLOAT, ones(3), 3), 1,
                        -100, tensor(ACL_FLOAT, ones(1)), tensor(ACL_FLOAT, ones(6), 2, 3), ws, ex),
                        (Phase2) Aclnn::nllLossBackward));
    }

    /** Bytes allocated per phase 2 + synchronize in the last round (0 as soon as a round allocates nothing). */
    private long bytesPerCall(Phase1 phase1, Phase2 phase2) {
        long[] workspaceSize = new long[1];
        AclOpExecutor executor = new AclOpExecutor();
        assertEquals(0, phase1.plan(workspaceSize, executor), Acl::getRecentErrMsg);
        assertEquals(0, Acl.setAclOpExecutorRepeatable(executor), Acl::getRecentErrMsg);
        Pointer workspace = workspaceSize[0] > 0 ? TestDevice.malloc(workspaceSize[0]) : new Pointer();
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long perCall = -1;
        for (int round = 0; round < MAX_ROUNDS && perCall != 0; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < ROUND; i++) {
                launchAndSync(phase2, workspace, workspaceSize[0], executor);
            }
            perCall = (threads.getCurrentThreadAllocatedBytes() - before) / ROUND;
        }
        return perCall;
    }

    /** The probe: measures the named call in this JVM and prints the bytes per call. */
    public static void main(String[] args) {
        SmallCallAllocationTest probe = new SmallCallAllocationTest();
        probe.init();
        try {
            Arguments call = calls().filter(a -> a.get()[0].equals(args[0])).findFirst().orElseThrow();
            System.out.println("bytes per call: " + probe.bytesPerCall((Phase1) call.get()[1], (Phase2) call.get()[2]));
        } finally {
            probe.destroy();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void phaseTwoAllocatesNothing(String name, Phase1 phase1, Phase2 phase2) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-modules") || a.startsWith("--enable-native-access")
                        || a.startsWith("-Xss"))
                .toList());
        command.addAll(java.util.List.of("-cp", System.getProperty("java.class.path"),
                SmallCallAllocationTest.class.getName(), name));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, child.waitFor(), output);
        assertEquals(true, output.contains("bytes per call: 0\n"),
                name + ": phase 2 + synchronize should allocate nothing once compiled, after up to "
                        + MAX_ROUNDS * ROUND + " calls; the probe said:\n" + output);
    }

    private void launchAndSync(Phase2 phase2, Pointer workspace, long workspaceSize, AclOpExecutor executor) {
        int status = phase2.launch(workspace, workspaceSize, executor, stream);
        if (status != 0 || AclRt.synchronizeStream(stream) != 0) {
            throw new AssertionError("launch failed: " + status + " " + Acl.getRecentErrMsg());
        }
    }
}
