package io.github.aclnn4j.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The cold-start table of {@code ./aclnn4j bench cold}: for each line of {@code bench/cold.txt}, a
 * fresh JVM running {@link ColdStart} and a fresh PyTorch 1.13 process running
 * {@code bench/torch_cold.py}, each {@code runs} times (median per column); the JVM's start itself
 * is not in its times, as PyTorch's import is not in PyTorch's. Also the wall time of
 * {@code java -version} and of a whole ColdStart process, for scale, and the same JVM as a short
 * program can run it: without the Vector API, from an AOT cache of a training run of the same line
 * (docs/cold-start.md's advice). With {@code -Daclnn4j.bench.nativeCold=EXE} (bench/cold.c built
 * against the native C ABI), the same line from a fresh C process, whose times include the JVM's
 * start; with {@code -Daclnn4j.bench.nativeSeed=EXE} (the BCE-backward seed sample, built the same
 * way), that sample's wall time beside {@code java -version}'s. Prints the table and writes it to
 * {@code target/bench/cold.md}.
 *
 * <p>Arguments: {@code RUNS JAVA [JVM OPTION...]}: the java launcher and the options to start
 * ColdStart with (the class path included).
 */
public final class ColdStartTable {
    private static final String PYTHON = "/usr/bin/python3";
    private static final int[] CALLS = {1, 10, 100, 1000};
    private static final int SEED_ROUNDS = 11;

    private ColdStartTable() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        int runs = Integer.parseInt(args[0]);
        String java = args[1];
        List<String> jvm = Arrays.asList(args).subList(2, args.length);
        boolean torch = Files.isExecutable(Path.of(PYTHON)) && run(List.of(PYTHON, "-c", "import torch")).ok;
        String nativeCold = System.getProperty("aclnn4j.bench.nativeCold");
        String nativeSeed = System.getProperty("aclnn4j.bench.nativeSeed");
        StringBuilder table = new StringBuilder();
        if (nativeSeed == null) {
            double javaVersion = median(runs, () -> wall(List.of(java, "-version")));
            table.append(String.format(Locale.ROOT, "`java -version`: %.1f ms wall (median of %d)%n%n", javaVersion, runs));
        } else {
            // both are short and this machine is noisy: alternated, and more of them than the table's runs
            int rounds = Math.max(runs, SEED_ROUNDS);
            double[] javaVersion = new double[rounds];
            double[] seed = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                javaVersion[r] = wall(List.of(java, "-version"));
                seed[r] = wall(List.of(nativeSeed));
            }
            table.append(String.format(Locale.ROOT, "`java -version`: %.1f ms wall; the BCE-backward seed sample through"
                    + " the native C ABI: %.1f ms wall, %.2f× `java -version` (medians of %d, alternated)%n%n",
                    median(javaVersion), median(seed), median(seed) / median(javaVersion), rounds));
        }
        table.append("| call | JVM wall ms | aclnn4j ms after 1 / 10 / 100 / 1000 calls"
                + " | PyTorch ms after 1 / 10 / 100 / 1000 | PyTorch / aclnn4j (1 / 1000 calls)"
                + " | plain Java + AOT cache: JVM wall ms | ms after 1 / 10 / 100 / 1000"
                + (nativeCold == null ? "" : " | C program, native ABI: ms after 1 / 10 / 100 / 1000 (JVM start included)")
                + " |\n");
        table.append("|---|---:|---|---|---|---:|---|" + (nativeCold == null ? "" : "---|") + "\n");
        Path cache = Files.createTempFile("aclnn4j-cold", ".aot");
        for (String line : Files.readAllLines(Path.of("bench/cold.txt"), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            List<String> command = new ArrayList<>();
            command.add(java);
            command.addAll(jvm);
            command.add(ColdStart.class.getName());
            command.add(line);
            Timed ours = timed(command, runs, line);
            double[] ms = ours.ms;
            String theirs = "n/a";
            String ratio = "";
            if (torch) {
                double[][] py = new double[runs][];
                String reason = null;
                for (int r = 0; r < runs && reason == null; r++) {
                    Result result = run(List.of(PYTHON, "bench/torch_cold.py", line));
                    if (result.out.startsWith("n/a")) {
                        reason = result.out;
                    } else {
                        py[r] = result.times(line);
                    }
                }
                if (reason == null) {
                    double[] pm = medians(py);
                    theirs = format(pm);
                    ratio = String.format(Locale.ROOT, "%.2f / %.2f", pm[0] / ms[0], pm[3] / ms[3]);
                } else {
                    theirs = reason;
                }
            }
            List<String> plain = new ArrayList<>(command);
            plain.removeIf(option -> option.startsWith("--add-modules") || option.equals("jdk.incubator.vector"));
            Files.deleteIfExists(cache);
            List<String> training = new ArrayList<>(plain);
            training.add(1, "-XX:AOTCacheOutput=" + cache);
            training.add(2, "-Xlog:aot*=off,cds*=off");
            run(training);
            plain.add(1, "-XX:AOTCache=" + cache);
            plain.add(2, "-Xlog:aot*=off,cds*=off");
            Timed shortProgram = timed(plain, runs, line);
            String throughC = "";
            if (nativeCold != null) { // bench/cold.c makes the lines of native/train/calls.h, and says n/a to others
                Timed c = timed(List.of(nativeCold, line), runs, line);
                throughC = " " + (c == null ? "n/a" : format(c.ms)) + " |";
            }
            table.append(String.format(Locale.ROOT, "| %s | %.0f | %s | %s | %s | %.0f | %s |%s%n", line, ours.wall,
                    format(ms), theirs, ratio, shortProgram.wall, format(shortProgram.ms), throughC));
            System.out.print(table.substring(table.lastIndexOf("| op=")));
        }
        Files.deleteIfExists(cache);
        Files.createDirectories(Path.of("target/bench"));
        Files.writeString(Path.of("target/bench/cold.md"), table.toString());
        System.out.println();
        System.out.print(table);
    }

    /** Median wall time of a ColdStart process and median times after 1, 10, 100, 1000 calls. */
    private record Timed(double wall, double[] ms) {}

    /** {@code runs} runs of {@code command}, or null when its first says the line is {@code n/a} to it. */
    private static Timed timed(List<String> command, int runs, String line) throws IOException, InterruptedException {
        double[][] times = new double[runs][];
        double[] walls = new double[runs];
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            Result result = run(command);
            if (result.out.startsWith("n/a")) {
                return null;
            }
            walls[r] = (System.nanoTime() - t0) / 1e6;
            times[r] = result.times(line);
        }
        return new Timed(median(walls), medians(times));
    }

    private static String format(double[] ms) {
        return String.format(Locale.ROOT, "%.1f / %.1f / %.1f / %.1f", ms[0], ms[1], ms[2], ms[3]);
    }

    private record Result(boolean ok, String out) {
        double[] times(String line) {
            String[] parts = out.strip().split("\\s+");
            if (!ok || parts.length != CALLS.length) {
                throw new IllegalStateException("no times for " + line + ": " + out);
            }
            return Arrays.stream(parts).mapToDouble(Double::parseDouble).toArray();
        }
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor() == 0, out);
    }

    private static double wall(List<String> command) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor();
        return (System.nanoTime() - t0) / 1e6;
    }

    private interface Measure {
        double ms() throws IOException, InterruptedException;
    }

    private static double median(int runs, Measure m) throws IOException, InterruptedException {
        double[] v = new double[runs];
        for (int r = 0; r < runs; r++) {
            v[r] = m.ms();
        }
        return median(v);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double[] medians(double[][] runs) {
        double[] m = new double[CALLS.length];
        for (int k = 0; k < m.length; k++) {
            double[] column = new double[runs.length];
            for (int r = 0; r < runs.length; r++) {
                column[r] = runs[r][k];
            }
            m[k] = median(column);
        }
        return m;
    }
}
