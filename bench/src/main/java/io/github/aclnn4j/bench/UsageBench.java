package io.github.aclnn4j.bench;

import io.github.aclnn4j.acl.AclrtStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./aclnn4j bench usage}: every call of {@code bench/usage.txt} in one JVM, as a
 * long-running program makes them, twice over (the second pass runs each call after all the others
 * have run, with whatever the JIT made of them), then PyTorch 1.13 on the same calls
 * ({@code bench/torch_usage.py}, when {@code /usr/bin/python3} has torch). Prints a table per part
 * (the matrix, the size sweep) with the ratio to PyTorch, to the operator's dense call of the same
 * size, and the library's deoptimizations during each call (the JVM's own log, which the launcher
 * asks for; "n/a" without it); writes the tables and a chart
 * of the ratios to {@code target/bench/usage.md} and {@code usage.svg}.
 * Arguments: {@code [seconds per call (0.3)] [--only TEXT[|TEXT...]]} (lines containing one of the texts).
 */
public final class UsageBench {
    private static final Path USAGE = Path.of("bench", "usage.txt");
    private static final Path OUT = Path.of("target", "bench");

    /** One call's results. */
    private static final class Result {
        final UsageCall call;
        final double[] ms = new double[2];
        final double[][] windows = new double[2][2]; // JVM uptime in seconds
        int deopts;
        String torch = "";

        Result(UsageCall call) {
            this.call = call;
        }

        double torchMs() {
            try {
                return Double.parseDouble(torch);
            } catch (NumberFormatException notANumber) {
                return Double.NaN;
            }
        }
    }

    private UsageBench() {}

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 && !args[0].startsWith("--") ? Double.parseDouble(args[0]) : 0.3;
        int onlyAt = Arrays.asList(args).indexOf("--only");
        String only = onlyAt >= 0 ? args[onlyAt + 1] : "";
        List<Result> results = new ArrayList<>();
        List<String> lines = Files.readAllLines(USAGE);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.isEmpty() && !line.startsWith("#") && Arrays.stream(only.split("\\|")).anyMatch(line::contains)) {
                results.add(new Result(new UsageCall(i + 1, line)));
            }
        }
        AclrtStream stream = UsageCall.startRuntime();

        for (int pass = 0; pass < 2; pass++) {
            for (Result r : results) {
                try (UsageCall call = r.call.make()) {
                    r.windows[pass][0] = uptimeSeconds();
                    r.ms[pass] = medianMs(call, stream, seconds);
                    r.windows[pass][1] = uptimeSeconds();
                }
                System.err.printf(Locale.ROOT, "pass %d  line %3d  %9.3f ms  %s%n", pass + 1, r.call.line,
                        r.ms[pass], r.call.text);
            }
        }
        countDeoptimizations(results);
        torch(results, seconds, only);
        String report = table("The calls programs make, all in one JVM", results, false)
                + table("The size sweep (FLOAT), in the same JVM", results, true);
        System.out.print(report);
        Files.createDirectories(OUT);
        Files.writeString(OUT.resolve("usage.md"), report);
        Files.writeString(OUT.resolve("usage.svg"), UsageChart.svg(chartRows(results)));
        System.out.println("Written: " + OUT.resolve("usage.md") + ", " + OUT.resolve("usage.svg"));
    }

    /**
     * The JVM's own deoptimization log, when the launcher started this JVM with one
     * ({@code -Xlog:deoptimization=debug:file=F:uptime} and {@code -Daclnn4j.bench.deoptLog=F}):
     * JFR's stream had delivered none of a recompilation storm's events here.
     */
    private static final String DEOPT_LOG = System.getProperty("aclnn4j.bench.deoptLog");
    /** {@code [1.234s] ... level=4 io.github.aclnn4j.kernel.X.y(...)... trap_bci=...}. */
    private static final Pattern DEOPT = Pattern.compile("^\\[(\\d+\\.\\d+)s\\].* (io\\.github\\.aclnn4j\\.[\\w.$]+)\\(.* trap_bci=");

    private static double uptimeSeconds() {
        return ManagementFactory.getRuntimeMXBean().getUptime() / 1000.0;
    }

    /** Each call's library deoptimizations (not the bench's own) inside its timed windows; -1 without a log. */
    private static void countDeoptimizations(List<Result> results) throws IOException {
        if (DEOPT_LOG == null) {
            results.forEach(r -> r.deopts = -1);
            return;
        }
        for (String line : Files.readAllLines(Path.of(DEOPT_LOG))) {
            Matcher m = DEOPT.matcher(line);
            if (!m.find() || m.group(2).startsWith("io.github.aclnn4j.bench.")) {
                continue;
            }
            double at = Double.parseDouble(m.group(1));
            for (Result r : results) {
                for (double[] w : r.windows) {
                    if (at >= w[0] && at <= w[1]) {
                        r.deopts++;
                    }
                }
            }
        }
    }

    /** Warms up for a fifth of {@code seconds}, then times single calls for {@code seconds}: their median. */
    private static double medianMs(UsageCall call, AclrtStream stream, double seconds) {
        long warmEnd = System.nanoTime() + (long) (seconds * 0.2e9);
        for (int k = 0; k < 3 || System.nanoTime() < warmEnd; k++) {
            call.run(stream);
        }
        List<Long> samples = new ArrayList<>();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (samples.size() < 5 || System.nanoTime() < end) {
            long t0 = System.nanoTime();
            call.run(stream);
            samples.add(System.nanoTime() - t0);
        }
        long[] sorted = samples.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[sorted.length / 2] / 1e6;
    }

    /** PyTorch's median per line, from bench/torch_usage.py; nothing when torch is missing. */
    private static void torch(List<Result> results, double seconds, String only)
            throws IOException, InterruptedException {
        String python = "/usr/bin/python3";
        List<String> command = new ArrayList<>(List.of(python, "bench/torch_usage.py", "--threads",
                String.valueOf(Runtime.getRuntime().availableProcessors()), "--seconds", String.valueOf(seconds)));
        if (!only.isEmpty()) {
            command.addAll(List.of("--only", only));
        }
        Map<Integer, String> byLine = new HashMap<>();
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l; (l = out.readLine()) != null; ) {
                    String[] parts = l.strip().split("\\s+", 2);
                    if (parts.length == 2) {
                        byLine.put(Integer.parseInt(parts[0]), parts[1]);
                    }
                }
            }
            if (p.waitFor() != 0) {
                System.err.println("bench/torch_usage.py exited with " + p.exitValue() + ": no PyTorch column");
            }
        } catch (IOException noPython) {
            System.err.println(python + " could not run bench/torch_usage.py: no PyTorch column");
        }
        for (Result r : results) {
            r.torch = byLine.getOrDefault(r.call.line, "");
        }
    }

    private static String table(String title, List<Result> results, boolean sweep) {
        Map<String, Double> dense = new HashMap<>();
        for (Result r : results) {
            if (r.call.layout().equals("contiguous")) {
                dense.putIfAbsent(r.call.denseKey(), r.ms[1]);
            }
        }
        StringBuilder s = new StringBuilder();
        s.append("\n### ").append(title).append("\n\n");
        s.append("| line | call | elements | aclnn4j ms (1st pass) | aclnn4j ms (2nd) | PyTorch ms | PyTorch / aclnn4j"
                + " | × dense call | deopts |\n");
        s.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            if (r.call.sweep != sweep) {
                continue;
            }
            double torch = r.torchMs();
            Double d = dense.get(r.call.denseKey());
            s.append(String.format(Locale.ROOT, "| %d | %s | %d | %.3f | %.3f | %s | %s | %s | %s |%n", r.call.line,
                    r.call.text.replaceFirst("^sweep ", ""), r.call.elements, r.ms[0], r.ms[1],
                    Double.isNaN(torch) ? r.torch : String.format(Locale.ROOT, "%.3f", torch),
                    Double.isNaN(torch) ? "" : String.format(Locale.ROOT, "%.2f", torch / r.ms[1]),
                    d == null ? "" : String.format(Locale.ROOT, "%.2f", r.ms[1] / d),
                    r.deopts < 0 ? "n/a" : Integer.toString(r.deopts)));
        }
        return s.toString();
    }

    private static List<UsageChart.Row> chartRows(List<Result> results) {
        List<UsageChart.Row> rows = new ArrayList<>();
        for (Result r : results) {
            double torch = r.torchMs();
            if (!Double.isNaN(torch)) {
                rows.add(new UsageChart.Row((r.call.sweep ? "sweep " : "") + r.call.line + " "
                        + r.call.text.replaceFirst("^sweep ", "").replace("op=", "").replace("dtype=", ""),
                        torch / r.ms[1]));
            }
        }
        return rows;
    }
}
