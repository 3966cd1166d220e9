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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./aclnn4j bench}: one table of every workload × dtype — median time, effective bandwidth
 * (minimum bytes moved / time), that as a share of this machine's 2-thread copy bandwidth measured
 * right after the row in the row's own JVM (printed beside it: on a shared VM it moves from minute
 * to minute, and a row next to its own copy shows when the machine was contended), and PyTorch's
 * median on the same workload (when {@code /usr/bin/python3} has torch) with the ratio. When bench
 * was built with {@code -Ptorch210}, also current PyTorch (2.10, JavaCPP presets;
 * {@link #TORCH210}) in a child JVM, in two more columns. Arguments: {@code [repeats] [python]}.
 *
 * <p>Each row is measured in a JVM of its own, as JMH forks do: in one JVM that has run other
 * workloads the JIT compiles shared code with their profiles, and a row could come out anywhere
 * up to twice as slow depending on what ran before it.
 */
public final class BenchTable {
    /** Compiled only by the torch210 profile, which also puts the libtorch jars on the class path. */
    private static final String TORCH210 = "io.github.aclnn4j.bench.Torch210Bench";
    /** The first argument of a child JVM that measures one row. */
    private static final String ROW = "--row";

    private BenchTable() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals(ROW)) {
            measureRow(Workload.Kind.valueOf(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
            return;
        }
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        String python = args.length > 1 ? args[1] : "/usr/bin/python3";
        Workload.initRuntime();
        double copyGbs = copyBandwidth();
        Map<String, String> torch = torchMedians(python, repeats);
        // One at a time: both PyTorch runs and then aclnn4j share the machine's two cores.
        Map<String, String> torch210 = torch210Available() ? torch210Medians(repeats) : null;
        System.out.printf(Locale.ROOT, "2-thread copy bandwidth: %.1f GB/s at the start (bytes read + written / time;"
                + " each row's own beside it)%n", copyGbs);
        System.out.printf(Locale.ROOT, "aclnn4j threads: %s, kernels: %s; %s%n",
                System.getProperty("aclnn4j.threads", String.valueOf(Runtime.getRuntime().availableProcessors())),
                vectorName(), torch.getOrDefault("#", "PyTorch: not available"));
        System.out.println(torch210 == null
                ? "PyTorch 2.10: not measured (build bench with -Ptorch210: ./aclnn4j bench torch210 [repeats])"
                : torch210.getOrDefault("#", "PyTorch 2.10: no output"));
        System.out.println();
        boolean with210 = torch210 != null;
        System.out.println("| operator | size | dtype | aclnn4j ms | GB/s | copy GB/s | % copy | PyTorch ms"
                + " | PyTorch / aclnn4j |" + (with210 ? " PyTorch 2.10 ms | PyTorch 2.10 / aclnn4j |" : ""));
        System.out.println("|---|---|---|---:|---:|---:|---:|---:|---:|" + (with210 ? "---:|---:|" : ""));
        for (Workload.Kind kind : Workload.Kind.values()) {
            for (int dtype : Workload.DTYPES) {
                if (kind == Workload.Kind.BCE_BACKWARD_2X2 && dtype != AclDataType.ACL_FLOAT) {
                    continue;
                }
                boolean small = kind == Workload.Kind.BCE_BACKWARD_2X2;
                double[] row = rowInFreshJvm(kind, dtype, small ? 20000 : repeats);
                double ms = row[0];
                String name = Workload.dtypeName(dtype);
                String key = kind.name() + " " + name;
                double gbs = row[1] / (ms * 1e6);
                double rowCopyGbs = row[2];
                System.out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%s%n", kind.title,
                        kind.size, name, small ? fmt("%.2f µs", ms * 1e3) : fmt("%.2f", ms),
                        small ? "" : fmt("%.1f", gbs), fmt("%.1f", rowCopyGbs),
                        small ? "" : fmt("%.0f%%", 100 * gbs / rowCopyGbs), cells(torch.get(key), ms, small),
                        with210 ? " " + cells(torch210.get(key), ms, small) + " |" : "");
            }
        }
    }

    /** Child mode: prints the median ms and the minimum bytes of one workload, then the copy bandwidth. */
    private static void measureRow(Workload.Kind kind, int dtype, int repeats) throws InterruptedException {
        Workload.initRuntime();
        try (Workload w = Workload.create(kind, dtype)) {
            double ms = medianMs(w, repeats);
            System.out.println(ms + " " + w.minBytes() + " " + copyBandwidth());
        }
    }

    /**
     * {@code [median ms, minimum bytes, copy GB/s]} of one workload, measured by a child JVM like
     * this one.
     */
    private static double[] rowInFreshJvm(Workload.Kind kind, int dtype, int repeats)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        // the steady state: the Vector API's loops from the first call, as a long-running program has
        // them once the library's warm-up has switched its large calls from plain Java, 5-7 s in
        command.add("-Daclnn4j.warmup=false");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchTable.class.getName(), ROW,
                kind.name(), String.valueOf(dtype), String.valueOf(repeats)));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String last = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                last = line;
            }
        }
        if (p.waitFor() != 0 || last == null) {
            throw new IOException("the child JVM measuring " + kind + " " + Workload.dtypeName(dtype) + " failed");
        }
        String[] f = last.trim().split(" ");
        return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
    }

    /** The "their ms | their / aclnn4j" cells for one PyTorch result (a median, "n/a REASON" or absent). */
    private static String cells(String theirs, double ms, boolean small) {
        if (theirs == null) {
            return "– | ";
        }
        if (theirs.startsWith("n/a")) {
            return theirs + " | ";
        }
        double t = Double.parseDouble(theirs);
        return (small ? fmt("%.2f µs", t * 1e3) : fmt("%.2f", t)) + " | " + fmt("%.2f×", t / ms);
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
        Path script = Path.of("bench", "torch_bench.py");
        if (!Files.isExecutable(Path.of(python)) || !Files.exists(script)) {
            return new HashMap<>();
        }
        Process p = new ProcessBuilder(python, script.toString(), "2", String.valueOf(repeats))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        return readMedians(p, "PyTorch: ");
    }

    /** The lines of torch_bench.py's format by "KIND DTYPE"; "#" holds the comment lines, prefixed. */
    private static Map<String, String> readMedians(Process p, String prefix) throws IOException {
        Map<String, String> result = new HashMap<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith("# ")) {
                    result.merge("#", prefix + line.substring(2), (a, b) -> a + ", " + b.substring(prefix.length()));
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

    /** Whether the torch210 profile built this jar: Torch210Bench and libtorch's natives on the class path. */
    private static boolean torch210Available() {
        ClassLoader loader = BenchTable.class.getClassLoader();
        return loader.getResource(TORCH210.replace('.', '/') + ".class") != null
                && loader.getResource("org/bytedeco/pytorch/linux-x86_64/libjnitorch.so") != null;
    }

    /**
     * PyTorch 2.10's medians from {@link #TORCH210} in child JVMs (this java, this class path), so that
     * a crash while loading libtorch costs a retry, not the table: first a probe run (it unpacks
     * libtorch and checks which one got loaded), then the measurement, and once more after another
     * probe if that fails. The "#" entry says what ran or why nothing did.
     */
    private static Map<String, String> torch210Medians(int repeats) throws IOException, InterruptedException {
        String failure = "";
        for (int attempt = 0; attempt < 2; attempt++) {
            Child probe = Child.run("--probe");
            if (probe.status != 0) {
                failure = probe.describe();
                continue;
            }
            Child bench = Child.run("2", String.valueOf(repeats));
            if (bench.status == 0 && bench.medians.size() > 1) {
                if (attempt > 0) {
                    String first = failure;
                    bench.medians.merge("#", "", (a, b) -> a + " (after a retry; first: " + first + ")");
                }
                return bench.medians;
            }
            failure = bench.describe();
        }
        Map<String, String> result = new HashMap<>();
        result.put("#", "PyTorch 2.10: failed twice, last: " + failure);
        return result;
    }

    /** One finished run of Torch210Bench: exit status, parsed stdout, and stderr's last message lines. */
    private record Child(long pid, int status, Map<String, String> medians, String stderrTail) {
        private static final String ERROR_FILE = System.getProperty("java.io.tmpdir") + "/aclnn4j-torch210-hs_err_";

        static Child run(String... args) throws IOException, InterruptedException {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            Path err = Files.createTempFile("aclnn4j-torch210-", ".err");
            try {
                List<String> command = new ArrayList<>(List.of(java.toString(), "--enable-native-access=ALL-UNNAMED",
                        // A crash report would otherwise land in the working directory, the source tree.
                        "-XX:ErrorFile=" + ERROR_FILE + "%p.log",
                        "-cp", System.getProperty("java.class.path"), TORCH210));
                command.addAll(List.of(args));
                Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
                Map<String, String> medians = readMedians(p, "PyTorch 2.10: ");
                int status = p.waitFor();
                List<String> lines = Files.readAllLines(err).stream()
                        .filter(l -> !l.isBlank() && !l.strip().startsWith("at ") && !l.strip().startsWith("..."))
                        .toList();
                String tail = String.join(" / ", lines.subList(Math.max(0, lines.size() - 2), lines.size()));
                return new Child(p.pid(), status, medians, tail);
            } finally {
                Files.deleteIfExists(err);
            }
        }

        String describe() {
            return (status > 128 ? "killed by signal " + (status - 128) + " (a JVM crash leaves " + ERROR_FILE + pid
                    + ".log)" : "exit " + status) + (stderrTail.isEmpty() ? "" : ": " + stderrTail);
        }
    }
}
