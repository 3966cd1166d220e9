package io.github.aclnn4j.robust;

import static io.github.aclnn4j.acl.AclDataType.ACL_FLOAT;
import static io.github.aclnn4j.acl.AclFormat.ACL_FORMAT_ND;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclOpExecutor;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.acl.AclTensor;
import io.github.aclnn4j.acl.AclrtStream;
import io.github.aclnn4j.acl.Pointer;
import io.github.aclnn4j.runtime.AclRuntime;
import io.github.aclnn4j.testing.TestDevice;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * A long-running program's load: many small calls (inline on an idle stream) and many large ones
 * (on the streams' drivers, split across compute threads), all five operators and three dtypes,
 * on streams that are destroyed and re-created as the calls go, with tensors made per call,
 * executors left unrun or made repeatable, and device memory allocated and freed. Every result
 * must stay bitwise the result of the call run alone; after the warm-up, heap, device memory,
 * native memory and threads must stay flat, and every tensor descriptor, executor and stream the
 * calls made must be collectable. It needs native memory tracking, and so runs in a JVM of its own
 * (the pom's {@code soak} execution).
 * <p>
 * {@code -Daclnn4j.soak.small} and {@code -Daclnn4j.soak.large} set the counts (the suite's
 * default 100 000 and 500); {@code ./aclnn4j soak} runs 1 000 000 and 10 000.
 */
class SoakTest {
    private static final int SMALL_CALLS = Integer.getInteger("aclnn4j.soak.small", 100_000);
    private static final int LARGE_CALLS = Integer.getInteger("aclnn4j.soak.large", 500);
    private static final int STREAMS = 4;
    /** Calls between synchronize-and-check; the streams are re-created at each. */
    private static final int BATCH = 1000;
    private static final long MAX_HEAP_GROWTH = 32 << 20;
    private static final long MAX_NATIVE_GROWTH = 64 << 20;
    /**
     * Driver and compute threads are pooled: their number must not grow with the calls (idle ones of
     * earlier tests may still be alive, and die meanwhile).
     */
    private static final int MAX_THREAD_GROWTH = 2 * (STREAMS + 1);

    private final List<WeakReference<Object>> probes = new ArrayList<>();
    private AclrtStream[] streams = new AclrtStream[STREAMS];

    @Test
    void soak() throws Exception {
        TestDevice.init();
        assertTrue(Usage.now().nativeOther >= 0, "native memory tracking is off: SoakTest runs in the pom's soak "
                + "execution, a JVM with -XX:NativeMemoryTracking=summary (mvn test, or ./aclnn4j soak)");
        long deviceBefore = AclRuntime.usedDeviceBytes(0);
        List<Workload> small = workloads(64, 1000);
        List<Workload> large = workloads(100_000, 100_000);
        List<byte[][]> smallAlone = alone(small);
        List<byte[][]> largeAlone = alone(large);
        newStreams();
        long begin = System.nanoTime();
        int warmUp = SMALL_CALLS / 10;
        calls(small, smallAlone, warmUp);
        Usage before = Usage.now();
        calls(small, smallAlone, SMALL_CALLS - warmUp);
        calls(large, largeAlone, LARGE_CALLS);
        destroyStreams();
        Usage after = Usage.now();
        double seconds = (System.nanoTime() - begin) / 1e9;
        small.forEach(Workload::close);
        large.forEach(Workload::close);
        long deviceAfter = AclRuntime.usedDeviceBytes(0);
        int collected = collectProbes();

        System.out.printf("soak: %d small + %d large calls in %.1f s; heap in use %d -> %d KiB; device %d -> %d bytes "
                + "(%d at rest); NMT committed: other %s -> %s KiB, Java heap %s -> %s KiB, total %s -> %s KiB; "
                + "RSS %d -> %d MiB; threads %d -> %d (stream drivers %d -> %d); %d of %d probes collected%n",
                SMALL_CALLS, LARGE_CALLS, seconds, before.heap >> 10, after.heap >> 10, before.device, after.device,
                deviceAfter, kib(before.nativeOther), kib(after.nativeOther), kib(before.nativeHeap),
                kib(after.nativeHeap), kib(before.nativeTotal), kib(after.nativeTotal), before.resident >> 20,
                after.resident >> 20, before.threads, after.threads, before.drivers, after.drivers, collected,
                probes.size());
        assertEquals(deviceBefore, deviceAfter, "device memory was left behind");
        assertEquals(before.device, after.device, "device memory in use grew with the calls");
        assertTrue(after.heap - before.heap < MAX_HEAP_GROWTH, "the heap grew by " + (after.heap - before.heap)
                + " bytes");
        // the library's off-heap memory; the JVM's own grows with the heap it commits
        assertTrue(after.nativeOther - before.nativeOther < MAX_NATIVE_GROWTH,
                "NMT Other (off-heap arenas) grew by " + (after.nativeOther - before.nativeOther) + " bytes");
        assertTrue(after.threads - before.threads <= MAX_THREAD_GROWTH, "threads grew from " + before.threads
                + " to " + after.threads);
        assertTrue(after.drivers - before.drivers <= MAX_THREAD_GROWTH, "stream driver threads grew from "
                + before.drivers + " to " + after.drivers);
        assertEquals(probes.size(), collected, "tensor descriptors, executors or streams were kept alive");
    }

    /** Five operators × three dtypes, sizes spread over [from, to], every other one strided. */
    private static List<Workload> workloads(int from, int to) {
        List<Workload> list = new ArrayList<>();
        int k = 0;
        for (Workload.Op op : Workload.Op.values()) {
            for (int dtype : Workload.FLOAT_TYPES) {
                list.add(new Workload(op, dtype, from + (to - from) * k / 14, 0x50A0 + k, k % 2 == 1));
                k++;
            }
        }
        return list;
    }

    private static List<byte[][]> alone(List<Workload> workloads) {
        List<byte[][]> results = new ArrayList<>();
        for (Workload w : workloads) {
            assertEquals(0, w.launch(null), () -> w + ": " + Acl.getRecentErrMsg());
            assertEquals(0, AclRt.synchronizeStream(null), () -> w + ": " + Acl.getRecentErrMsg());
            w.retire();
            results.add(w.writtenOutputs());
            w.resetOutputs();
        }
        return results;
    }

    /**
     * {@code count} calls, round-robin over the workloads, each workload always on the same stream
     * (its outputs and workspace are its own). At every batch: synchronize, check every result,
     * destroy the tensors, re-create the streams, and exercise the other handles.
     */
    private void calls(List<Workload> workloads, List<byte[][]> alone, int count) {
        for (int done = 0; done < count; ) {
            int batch = Math.min(BATCH, count - done);
            for (int i = 0; i < batch; i++) {
                int k = (done + i) % workloads.size();
                Workload w = workloads.get(k);
                assertEquals(0, w.launch(streams[k % STREAMS]), () -> w + ": " + Acl.getRecentErrMsg());
            }
            done += batch;
            for (AclrtStream s : streams) {
                assertEquals(0, AclRt.synchronizeStream(s), Acl::getRecentErrMsg);
            }
            for (int k = 0; k < workloads.size(); k++) {
                Workload w = workloads.get(k);
                w.retire();
                byte[][] got = w.outputs();
                for (int o = 0; o < got.length; o++) {
                    assertArrayEquals(alone.get(k)[o], got[o], "after " + done + " calls: output " + o + " of " + w);
                }
                w.resetOutputs();
            }
            otherHandles(workloads.get(done % workloads.size()));
            destroyStreams();
            newStreams();
        }
    }

    /**
     * An executor planned and never run, a repeatable one run twice and destroyed, a tensor made and
     * destroyed over fresh device memory that is then freed: each watched by a probe.
     */
    private void otherHandles(Workload w) {
        long[] size = new long[1];
        AclOpExecutor unrun = new AclOpExecutor();
        assertEquals(0, w.plan(size, unrun), Acl::getRecentErrMsg);
        probes.add(new WeakReference<>(Internals.of(unrun)));
        AclOpExecutor repeatable = new AclOpExecutor();
        assertEquals(0, w.plan(size, repeatable), Acl::getRecentErrMsg);
        probes.add(new WeakReference<>(Internals.of(repeatable)));
        assertEquals(0, Acl.setAclOpExecutorRepeatable(repeatable), Acl::getRecentErrMsg);
        assertEquals(0, w.run(repeatable, size[0], null), Acl::getRecentErrMsg);
        assertEquals(0, w.run(repeatable, size[0], null), Acl::getRecentErrMsg);
        assertEquals(0, AclRt.synchronizeStream(null), Acl::getRecentErrMsg);
        assertEquals(0, Acl.destroyAclOpExecutor(repeatable), Acl::getRecentErrMsg);
        w.retire();
        w.resetOutputs();

        Pointer block = TestDevice.malloc(4096);
        AclTensor t = Acl.createTensor(new long[] {32, 32}, 2, ACL_FLOAT, null, 0, ACL_FORMAT_ND, new long[] {1024}, 1,
                block);
        probes.add(new WeakReference<>(Internals.of(t)));
        assertEquals(0, Acl.destroyTensor(t), Acl::getRecentErrMsg);
        TestDevice.free(block);
    }

    private void newStreams() {
        for (int i = 0; i < STREAMS; i++) {
            streams[i] = new AclrtStream();
            assertEquals(0, AclRt.createStream(streams[i]), Acl::getRecentErrMsg);
            probes.add(new WeakReference<>(Internals.of(streams[i])));
        }
    }

    private void destroyStreams() {
        for (AclrtStream s : streams) {
            if (s != null) {
                assertEquals(0, AclRt.destroyStream(s), Acl::getRecentErrMsg);
            }
        }
        streams = new AclrtStream[STREAMS];
    }

    /** How many probed objects the collector freed, after dropping every reference the test held. */
    private int collectProbes() throws InterruptedException {
        int collected = 0;
        for (int attempt = 0; attempt < 10 && collected < probes.size(); attempt++) {
            System.gc();
            Thread.sleep(50);
            collected = (int) probes.stream().filter(p -> p.get() == null).count();
        }
        return collected;
    }

    private static String kib(long bytes) {
        return bytes < 0 ? "n/a" : Long.toString(bytes >> 10);
    }

    /**
     * What the process holds: heap after a full collection, device bytes, and from NMT (-1 when the JVM
     * runs without -XX:NativeMemoryTracking) the committed bytes of its "Other" category,
     * where {@code Arena} allocations land, of the Java heap, and in all; the resident set size; threads.
     */
    private record Usage(long heap, long device, long nativeOther, long nativeHeap, long nativeTotal, long resident,
            int threads, int drivers) {
        static Usage now() throws Exception {
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            int drivers = (int) Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("aclnn4j-stream-")).count();
            String nmt = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                    new Object[] {new String[] {"summary"}}, new String[] {String[].class.getName()});
            return new Usage(heap, AclRuntime.usedDeviceBytes(0), committed(nmt, "Other \\("),
                    committed(nmt, "Java Heap \\("), committed(nmt, "Total: "), residentBytes(),
                    ManagementFactory.getThreadMXBean().getThreadCount(), drivers);
        }

        private static long committed(String nmt, String category) {
            Matcher m = Pattern.compile(category + "reserved=\\d+KB, committed=(\\d+)KB").matcher(nmt);
            return m.find() ? Long.parseLong(m.group(1)) << 10 : -1;
        }

        /** The resident set size, reported only: it follows the heap the JVM has committed. */
        private static long residentBytes() throws Exception {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) << 10;
                }
            }
            return -1;
        }
    }
}
