package io.github.aclnn4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's two Java examples compile exactly as written and print the right numbers: each is
 * taken from the README, compiled against the library by the JDK's javac, run in a fresh JVM (the
 * layer-1 example finalises the runtime), and its output checked against the formulas in double.
 */
class ReadmeExamplesTest {
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern CLASS_NAME = Pattern.compile("public class (\\w+)");

    @TempDir
    Path dir;

    @Test
    void layerTwoExampleComputesTheLossAndItsGradient() throws Exception {
        String out = compileAndRun(example("## Layer 2"));
        float[] x = {0.5f, -1f, 2f, 0f, -0.5f, 1.5f};
        float[] y = {1, 0, 1, 0, 0, 1};
        double loss = 0;
        double[] grad = new double[6];
        for (int i = 0; i < 6; i++) {
            double sigma = 1 / (1 + Math.exp(-x[i]));
            loss += -(y[i] * Math.log(sigma) + (1 - y[i]) * Math.log(1 - sigma)) / 6;
            grad[i] = (sigma - y[i]) / 6;
        }
        assertClose(new double[] {loss}, numbers(out, "loss "), "loss");
        assertClose(grad, numbers(out, "grad "), "grad");
        double[] byColumn = new double[6];
        for (int i = 0; i < 6; i++) {
            int at = (i % 2) * 3 + i / 2; // element (i / 2, i % 2) of the transposed [3, 2] view
            double sigma = 1 / (1 + Math.exp(-x[at]));
            byColumn[i] = -(y[at] * Math.log(sigma) + (1 - y[at]) * Math.log(1 - sigma));
        }
        assertClose(byColumn, numbers(out, "loss per element, by column "), "per-column losses");
    }

    @Test
    void layerOneExampleComputesTheBceGradient() throws Exception {
        String out = compileAndRun(example("## Layer 1"));
        double[] expected = new double[4];
        float[] y = {0, 1, 0, 1};
        for (int i = 0; i < 4; i++) {
            double x = 0.3f;
            expected[i] = (x - y[i]) / (x * (1 - x)); // gradOutput 1, no weight, reduction none
        }
        assertClose(expected, numbers(out, "gradInput "), "gradInput");
    }

    /** The first Java block after {@code heading} in the README. */
    private static String example(String heading) throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        int at = readme.indexOf("\n" + heading);
        assertTrue(at >= 0, "README has no section " + heading);
        Matcher m = JAVA_BLOCK.matcher(readme);
        assertTrue(m.find(at), "no Java example after " + heading);
        return m.group(1);
    }

    private String compileAndRun(String source) throws Exception {
        Matcher name = CLASS_NAME.matcher(source);
        assertTrue(name.find(), "the example declares no public class");
        Path file = dir.resolve(name.group(1) + ".java");
        Files.writeString(file, source);
        String classPath = System.getProperty("java.class.path");
        Process javac = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
                "--release", "25", "-cp", classPath, "-d", dir.toString(), file.toString()).redirectErrorStream(true)
                .start();
        String errors = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, javac.waitFor(), "the README example does not compile as written:\n" + errors);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-modules") || a.startsWith("--enable-native-access")).toList());
        command.addAll(List.of("-cp", dir + java.io.File.pathSeparator + classPath, name.group(1)));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, child.waitFor(), out);
        return out;
    }

    /** The numbers printed after {@code prefix} on its line. */
    private static double[] numbers(String out, String prefix) {
        String line = out.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line starting with '" + prefix + "' in:\n" + out));
        Matcher m = Pattern.compile("-?\\d+\\.\\d+(E-?\\d+)?").matcher(line.substring(prefix.length()));
        List<Double> values = new ArrayList<>();
        while (m.find()) {
            values.add(Double.parseDouble(m.group()));
        }
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Within a few fp32 ulps of the double values. */
    private static void assertClose(double[] expected, double[] actual, String what) {
        assertEquals(expected.length, actual.length, what + ": count");
        for (int i = 0; i < expected.length; i++) {
            double tolerance = 4 * Math.ulp((float) expected[i]) + 1e-7;
            assertEquals(expected[i], actual[i], tolerance, what + "[" + i + "]");
        }
    }
}
