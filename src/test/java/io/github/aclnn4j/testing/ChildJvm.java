package io.github.aclnn4j.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A test class's {@code main} in a fresh JVM, for what only a new JVM shows (the first call that
 * builds a table, code before the JIT has compiled it): this JVM's java, module, native-access and
 * stack options and class path.
 */
public final class ChildJvm {
    private ChildJvm() {}

    /** Runs {@code main.main(args)} in a fresh JVM, asserts it exited with 0, and returns its output. */
    public static String run(Class<?> main, String... args) throws IOException, InterruptedException {
        return launch(a -> false, List.of(), main, args);
    }

    /**
     * As {@link #run}, without this JVM's options that start with {@code dropped} (for one that
     * lacks {@code --enable-native-access}, say); stdout and stderr together.
     */
    public static String runWithout(String dropped, Class<?> main, String... args)
            throws IOException, InterruptedException {
        return launch(a -> a.startsWith(dropped), List.of(), main, args);
    }

    /** As {@link #run}, with {@code options} added to the child's JVM options (logging, say). */
    public static String runWith(List<String> options, Class<?> main, String... args)
            throws IOException, InterruptedException {
        return launch(a -> false, options, main, args);
    }

    private static String launch(Predicate<String> dropped, List<String> options, Class<?> main, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-modules") || a.startsWith("--enable-native-access")
                        || a.startsWith("-Xss"))
                .filter(dropped.negate())
                .toList());
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, child.waitFor(), output);
        return output;
    }
}
