package io.github.aclnn4j.bench;

import io.github.aclnn4j.acl.AclDataType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./aclnn4j bench}: one table of every workload × dtype — median time, effective bandwidth
 * (minimum bytes moved / time), that as a share of this machine's 2-thread copy bandwidth measured
 * in the same run, and PyTorch's median on the same workload (when {@code /usr/bin/python3} has
 * torch) with the ratio. Arguments: {@code [repeats] [python]}.
 */
public final class BenchTable {
    private static final int[] DTYPES = {AclDataType.ACL_FLOAT, AclDataType.ACL_BF16, AclDataType.ACL_FLOAT16};

    private BenchTable() {}

    public static void main(String[] args) throws Exception {
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        String python = args.length > 1 ? args[1] : "/usr/bin/python3";
        Workload.initRuntime();
        double copyGbs = copyBandwidth();
        Map<String, String> torch = torchMedians(python, repeats);
        System.out.printf(Locale.ROOT, "2-thread copy bandwidth: %.1f GB/s (bytes read + written / time)%n", copyGbs);
        System.out.printf(Locale.ROOT, "aclnn4j threads: %s, kernels: %s; %s%n%n",
                System.getProperty("aclnn4j.threads", String.valueOf(Runtime.getRuntime().availableProcessors())),
                vectorName(), torch.getOrDefault("#", "PyTorch: not available"));
        System.out.println("| operator | size | dtype | aclnn4j ms | GB/s | % copy | PyTorch ms | PyTorch / aclnn4j |");
        System.out.println("|---|---|---|---:|---:|---:|---:|---:|");
        for (Workload.Kind kind : Workload.Kind.values()) {
            for (int dtype : DTYPES) {
                if (kind == Workload.Kind.BCE_BACKWARD_2X2 && dtype != AclDataType.ACL_FLOAT) {
                    continue;
                }
                try (Workload w = Workload.create(kind, dtype)) {
                    boolean small = kind == Workload.Kind.BCE_BACKWARD_2X2;
                    double ms = medianMs(w, small ? 20000 : repeats);
                    String name = Workload.dtypeName(dtype);
                    String theirs = torch.get(kind.name() + " " + name);
                    String ratio = "";
                    String theirCell = theirs == null ? "–" : theirs;
                    if (theirs != null && !theirs.startsWith("n/a")) {
                        double t = Double.parseDouble(theirs);
                        theirCell = small ? fmt("%.2f µs", t * 1e3) : fmt("%.2f", t);
                        ratio = fmt("%.2f×", t / ms);
                    }
                    double gbs = w.minBytes() / (ms * 1e6);
                    System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", kind.title, kind.size,
                            name, small ? fmt("%.2f µs", ms * 1e3) : fmt("%.2f", ms), small ? "" : fmt("%.1f", gbs),
                            small ? "" : fmt("%.0f%%", 100 * gbs / copyGbs), theirCell, ratio);
                }
            }
        }
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    private static String vectorName() {
        try {
            Class<?> c = Class.forName("io.github.aclnn4j.kernel.BulkMath");
            return String.valueOf(c.getMethod("name").invoke(c.getField("INSTANCE").get(null)));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "unknown";
        }
    }

    /** The median of {@code repeats} runs, after at least two seconds of warm-up (the JIT compiles per shape). */
    private static double medianMs(Workload w, int repeats) {
        long warmUntil = System.nanoTime() + 2_000_000_000L;
        for (int i = 0; i < 5 || System.nanoTime() < warmUntil; i++) {
            w.run();
        }
        long[] t = new long[repeats];
        for (int i = 0; i < repeats; i++) {
            long start = System.nanoTime();
            w.run();
            t[i] = System.nanoTime() - start;
        }
        Arrays.sort(t);
        return t[repeats / 2] / 1e6;
    }

    /** Two threads each copying 128 MiB between off-heap buffers; the median of 9 rounds. */
    static double copyBandwidth() throws InterruptedException {
        long bytes = 128L << 20;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment[] src = {arena.allocate(bytes, 64), arena.allocate(bytes, 64)};
            MemorySegment[] dst = {arena.allocate(bytes, 64), arena.allocate(bytes, 64)};
            double[] rates = new double[9];
            for (int round = 0; round < rates.length; round++) {
                CountDownLatch done = new CountDownLatch(2);
                long start = System.nanoTime();
                for (int t = 0; t < 2; t++) {
                    int k = t;
                    Thread.ofPlatform().start(() -> {
                        MemorySegment.copy(src[k], 0, dst[k], 0, bytes);
                        done.countDown();
                    });
                }
                done.await();
                rates[round] = 2 * 2 * bytes / ((System.nanoTime() - start) / 1e9) / 1e9;
            }
            Arrays.sort(rates);
            return rates[rates.length / 2];
        }
    }

    /** PyTorch's medians by "KIND DTYPE", from bench/torch_bench.py; empty when torch is absent. */
    private static Map<String, String> torchMedians(String python, int repeats) throws IOException {
        Map<String, String> result = new HashMap<>();
        Path script = Path.of("bench", "torch_bench.py");
        if (!Files.isExecutable(Path.of(python)) || !Files.exists(script)) {
            return result;
        }
        Process p = new ProcessBuilder(python, script.toString(), "2", String.valueOf(repeats))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("# ")) {
                    result.put("#", "PyTorch: " + line.substring(2));
                    continue;
                }
                String[] f = line.split(" ", 3);
                if (f.length == 3) {
                    result.put(f[0] + " " + f[1], f[2]);
                }
            }
        }
        return result;
    }
}
