package io.github.aclnn4j.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The drop-in C ABI end to end: builds native/ with the machine's gcc into a temporary prefix
 * (recording this JVM's JDK and target/classes), then compiles the C and C++ programs of
 * native/test against it, with the compile line a CANN user would use, and runs them. Without
 * gcc and g++ they fail: a run that skipped them would not have tested the C ABI.
 */
class NativeAbiTest {
    private static final Path NATIVE = Path.of("native").toAbsolutePath();
    private static final Path TESTS = NATIVE.resolve("test");
    private static final Path JDK = Path.of(System.getProperty("java.home"));
    private static final Path CLASSES = Path.of("target", "classes").toAbsolutePath();
    private static final long TIMEOUT_SECONDS = 120;

    /** Each example, by the Java demo section it must reproduce: an operator's, or the training step. */
    private static final Map<String, String> EXAMPLES = new LinkedHashMap<>();

    static {
        EXAMPLES.put("aclnnBinaryCrossEntropyBackward", "seed_binary_cross_entropy_backward");
        EXAMPLES.put("aclnnPreluBackward", "seed_prelu_backward");
        EXAMPLES.put("aclnnBinaryCrossEntropyWithLogits", "binary_cross_entropy_with_logits");
        EXAMPLES.put("aclnnGroupNormBackward", "seed_group_norm_backward");
        EXAMPLES.put("aclnnNLLLossBackward", "nll_loss_backward");
        EXAMPLES.put("aclnnPrelu", "prelu");
        EXAMPLES.put("aclnnBinaryCrossEntropy", "binary_cross_entropy");
        EXAMPLES.put("aclnnBinaryCrossEntropyWithLogitsBackward", "binary_cross_entropy_with_logits_backward");
        EXAMPLES.put("aclnnNLLLoss", "nll_loss");
        EXAMPLES.put("aclnnGroupNorm", "group_norm");
        EXAMPLES.put("training step: GroupNorm -> PReLU -> BCE-with-logits / NLLLoss, and back", "training_step");
    }

    private static Path work;
    private static Path prefix;

    private record Result(int exitCode, String stdout, String stderr) {
        String describe() {
            return "exit code " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    @BeforeAll
    static void install() throws IOException, InterruptedException {
        for (String compiler : List.of("gcc", "g++")) {
            assertTrue(onPath(compiler), compiler + " is not on the PATH: the C ABI tests compile C and C++ programs "
                    + "(apt-get install -y gcc g++)");
        }
        work = Files.createTempDirectory("aclnn4j-native-test");
        prefix = work.resolve("prefix");
        Result build = run(List.of(NATIVE.resolve("build.sh").toString(), prefix.toString(), JDK.toString(),
                CLASSES.toString()), Map.of());
        assertEquals(0, build.exitCode(), () -> "native/build.sh failed: " + build.describe());
    }

    @AfterAll
    static void cleanUp() throws IOException {
        if (work != null) {
            try (Stream<Path> files = Files.walk(work)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static boolean onPath(String program) {
        return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, program)));
    }

    /**
     * The calling examples (three verbatim from the seed documents, the others in their style, the
     * training step last) compile unchanged with CANN's compile line and print what the Java demo
     * prints in the same section, run in a JVM configured as the libraries configure theirs.
     */
    @TestFactory
    Stream<DynamicTest> examplesPrintWhatTheJavaDemoPrints() throws IOException, InterruptedException {
        Map<String, List<String>> demo = javaDemoSections();
        return EXAMPLES.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getValue(), () -> {
            Path exe = compile("g++", List.of("-std=c++17"), TESTS.resolve("examples").resolve(e.getValue() + ".cpp"),
                    List.of());
            Result r = run(List.of(exe.toString()), Map.of());
            assertEquals(0, r.exitCode(), r::describe);
            assertEquals(demo.get(e.getKey()), r.stdout().lines().toList(),
                    () -> "the C example and the Java demo of " + e.getKey() + " differ");
        }));
    }

    /** The results the three documents print. */
    @Test
    void seedExamplesPrintTheDocumentedResults() throws IOException, InterruptedException {
        String bce = runExample("seed_binary_cross_entropy_backward");
        for (int i = 0; i < 4; i++) {
            assertTrue(bce.contains("result[" + i + "] is: -0.095238\n"), bce);
        }
        String prelu = runExample("seed_prelu_backward");
        assertTrue(prelu.startsWith("gradInput[0] is: 0.500000\ngradInput[1] is: 1.000000\n"), prelu);
        for (int i = 2; i < 8; i++) {
            assertTrue(prelu.contains("gradInput[" + i + "] is: 1.000000\n"), prelu);
        }
        assertTrue(prelu.endsWith("gradWeight[0] is: 0.000000\ngradWeight[1] is: 0.000000\n"), prelu);
        String groupNorm = runExample("seed_group_norm_backward");
        assertTrue(groupNorm.contains("gradGammaOutResultData[2] is: 155.849289\n"), groupNorm);
    }

    /**
     * Installed from a jar, as {@code ./aclnn4j native} installs, the C ABI comes with an AOT cache
     * of the JVM it starts (classes and profiles from a training run through the C ABI), which the
     * examples' JVM opens, its entry classes included;
     * a cache the JVM cannot use (here: overwritten with garbage) is passed over silently, leaving
     * the program's output as it was.
     */
    @Test
    void aJarInstallStartsTheJvmFromItsAotCache() throws IOException, InterruptedException {
        Path jar = jarOfClasses("jar");
        Path jarPrefix = work.resolve("jar-prefix");
        Result build = run(List.of(NATIVE.resolve("build.sh").toString(), jarPrefix.toString(), JDK.toString(),
                jar.toString()), Map.of());
        assertEquals(0, build.exitCode(), build::describe);
        Path cache = jarPrefix.resolve("lib64/aclnn4j/aclnn4j.aot");
        assertTrue(Files.size(cache) > 0, "no AOT cache in " + cache.getParent());

        Path exe = work.resolve("seed-bce-jar");
        Result compiled = run(List.of("g++", "-std=c++17",
                TESTS.resolve("examples/seed_binary_cross_entropy_backward.cpp").toString(), "-I",
                jarPrefix.resolve("include").toString(), "-L", jarPrefix.resolve("lib").toString(), "-lascendcl",
                "-lnnopbase", "-lopapi", "-Wl,-rpath," + jarPrefix.resolve("lib"), "-o", exe.toString()), Map.of());
        assertEquals(0, compiled.exitCode(), compiled::describe);
        String documented = runExample("seed_binary_cross_entropy_backward");

        Result plain = run(List.of(exe.toString()), Map.of());
        assertEquals(0, plain.exitCode(), plain::describe);
        assertEquals(documented, plain.stdout(), "with the AOT cache");
        Result logged = run(List.of(exe.toString()), Map.of("ACLNN4J_JAVA_OPTIONS", "-Xlog:aot=info:stderr"));
        assertTrue(logged.stderr().contains("Opened AOT cache " + cache), logged::describe);
        // trained through the C ABI itself: the bridge's own entry classes come from the cache
        Result loaded = run(List.of(exe.toString()), Map.of("ACLNN4J_JAVA_OPTIONS", "-Xlog:class+load=info:stderr"));
        for (String entries : List.of("RuntimeEntries", "TensorEntries", "OperatorEntries")) {
            assertTrue(loaded.stderr().contains("io.github.aclnn4j.nativeabi." + entries + " source: shared objects file"),
                    () -> entries + " not from the AOT cache: " + loaded.describe());
        }

        Files.write(cache, new byte[4096]);
        Result stale = run(List.of(exe.toString()), Map.of());
        assertEquals(0, stale.exitCode(), stale::describe);
        assertEquals(documented, stale.stdout(), "with an unusable AOT cache");
        assertEquals("", stale.stderr(), "with an unusable AOT cache");
    }

    /**
     * Installed like a CANN toolkit: CANN's documented CMake recipe (native/test/cmake), after
     * nothing but {@code source PREFIX/set_env.sh}, builds every calling example against lib64
     * (libopapi_nn, libopapi_math included) without an rpath, and each prints what it prints built
     * with the g++ line. Skipped, saying so, only where cmake is missing.
     */
    @Test
    void cannsSampleRecipeBuildsAgainstTheToolkit() throws IOException, InterruptedException {
        org.junit.jupiter.api.Assumptions.assumeTrue(onPath("cmake"),
                "cmake is not on the PATH (apt-get install -y cmake): CANN's sample recipe is not tried");
        for (String name : List.of("libascendcl.so", "libnnopbase.so", "libopapi.so", "libopapi_nn.so",
                "libopapi_math.so")) {
            assertTrue(Files.exists(prefix.resolve("lib64").resolve(name)), name + " in lib64");
            assertTrue(Files.exists(prefix.resolve("lib").resolve(name)), name + " in lib");
        }
        Path build = work.resolve("cmake-build");
        for (String example : EXAMPLES.values()) {
            String script = "set -e; source '" + prefix.resolve("set_env.sh") + "'; cmake -S '"
                    + TESTS.resolve("cmake") + "' -B '" + build + "' -DEXAMPLE=" + example
                    + " -DCMAKE_CXX_COMPILER=g++ -DCMAKE_SKIP_RPATH=TRUE >/dev/null; cmake --build '" + build
                    + "' >/dev/null; cd '" + build + "'; ./bin/opapi_test";
            Result r = run(List.of("bash", "-c", script), Map.of());
            assertEquals(0, r.exitCode(), () -> example + ": " + r.describe());
            assertEquals(runExample(example), r.stdout(), example);
        }
    }

    /**
     * A prefix can move (the jar is found beside the libraries, set_env.sh finds itself), and a
     * JAVA_HOME that is not a JDK 25 (the machine's JDK 17, or no JDK at all) is passed over for
     * the recorded one, as {@code ./aclnn4j} passes it over. When no JDK 25 can be found anywhere,
     * aclInit says so on stderr, with what to install.
     */
    @Test
    void aMovedPrefixFindsItsJarAndAJdk() throws IOException, InterruptedException {
        Path jdkLink = work.resolve("jdk-link");
        Files.createSymbolicLink(jdkLink, JDK);
        Path jar = jarOfClasses("move-jar");
        Path installed = work.resolve("installed");
        Result build = run(List.of(NATIVE.resolve("build.sh").toString(), installed.toString(), jdkLink.toString(),
                jar.toString()), Map.of());
        assertEquals(0, build.exitCode(), build::describe);
        Path moved = work.resolve("moved");
        Files.move(installed, moved);

        Path exe = work.resolve("seed-bce-moved");
        String compile = "set -e; source '" + moved.resolve("set_env.sh") + "'; g++ -std=c++17 '"
                + TESTS.resolve("examples/seed_binary_cross_entropy_backward.cpp") + "' -I \"$ASCEND_HOME_PATH/include\""
                + " -L \"$ASCEND_HOME_PATH/lib64\" -lascendcl -lnnopbase -lopapi_nn -o '" + exe + "'";
        Result compiled = run(List.of("bash", "-c", compile), Map.of());
        assertEquals(0, compiled.exitCode(), compiled::describe);
        String documented = runExample("seed_binary_cross_entropy_backward");
        String notAJdk25 = Files.isDirectory(Path.of("/usr/lib/jvm/java-17-openjdk-amd64"))
                ? "/usr/lib/jvm/java-17-openjdk-amd64" : work.resolve("no-such-jdk").toString();
        Map<String, String> env = Map.of("LD_LIBRARY_PATH", moved.resolve("lib64").toString(), "JAVA_HOME", notAJdk25);
        Result r = run(List.of(exe.toString()), env);
        assertEquals(0, r.exitCode(), r::describe);
        assertEquals(documented, r.stdout(), "from the moved prefix, with JAVA_HOME " + notAJdk25);

        Files.delete(jdkLink); // the recorded JDK is gone, JAVA_HOME is no JDK 25, and no directory has one
        Path empty = Files.createDirectories(work.resolve("no-jdks"));
        Result none = run(List.of(exe.toString()), Map.of("LD_LIBRARY_PATH", moved.resolve("lib64").toString(),
                "JAVA_HOME", notAJdk25, "ACLNN4J_JDK_DIRS", empty.toString()));
        assertTrue(none.exitCode() != 0, none::describe);
        assertTrue(none.stderr().contains("needs a JDK 25 or newer and found none")
                && none.stderr().contains("Install one"), none::describe);
    }

    /** target/classes as a jar, in a directory {@code dir} of its own (installs copy jars, not directories). */
    private static Path jarOfClasses(String dir) throws IOException {
        Path jar = work.resolve(dir).resolve("aclnn4j.jar");
        Files.createDirectories(jar.getParent());
        int jarred = java.util.spi.ToolProvider.findFirst("jar").orElseThrow()
                .run(System.out, System.err, "--create", "--file", jar.toString(), "-C", CLASSES.toString(), ".");
        assertEquals(0, jarred, "jar --create");
        return jar;
    }

    private String runExample(String name) throws IOException, InterruptedException {
        Path exe = compile("g++", List.of("-std=c++17"), TESTS.resolve("examples").resolve(name + ".cpp"), List.of());
        Result r = run(List.of(exe.toString()), Map.of());
        assertEquals(0, r.exitCode(), r::describe);
        return r.stdout();
    }

    /** Every header compiles on its own terms as strict C99 and as C++, and has SPEC §2's values. */
    @Test
    void headersAreStrictC99AndCpp() throws IOException, InterruptedException {
        Path source = TESTS.resolve("headers_test.c");
        Path c = compile("gcc", List.of("-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror"), source, List.of());
        Path cpp = compile("g++", List.of("-std=c++17", "-x", "c++", "-pedantic", "-Wall", "-Wextra", "-Werror"),
                source, List.of());
        for (Path exe : List.of(c, cpp)) {
            Result r = run(List.of(exe.toString()), Map.of());
            assertEquals(0, r.exitCode(), r::describe);
        }
    }

    /** Runtime, tensors, the five operators' known cases and documented errors, garbage, two threads. */
    @Test
    void cApiTest() throws IOException, InterruptedException {
        Path exe = compile("gcc", List.of("-std=gnu11", "-Wall", "-Wextra", "-Werror"), TESTS.resolve("api_test.c"),
                List.of("-lpthread", "-lm"));
        Result r = run(List.of(exe.toString()), Map.of());
        assertEquals(0, r.exitCode(), r::describe);
        assertTrue(r.stdout().contains(", 0 failed"), r::describe);
    }

    /**
     * The C half conversions (no JVM) give what the Java layer's give: every pattern read, and every
     * finite value, midpoint and float beside a midpoint rounded, with the saturation of infinities
     * and NaN (the Java side is checked against the JDK in rt.HalfConversionTest).
     */
    @Test
    void halfConversionsInCAgreeWithJava() throws IOException, InterruptedException {
        Path exe = compile("gcc", List.of("-std=gnu11", "-Wall", "-Wextra", "-Werror"), TESTS.resolve("half_table.c"),
                List.of());
        Result r = run(List.of(exe.toString()), Map.of());
        assertEquals(0, r.exitCode(), r::describe);
        List<String> lines = r.stdout().lines().toList();
        int read = 0;
        int rounded = 0;
        for (String line : lines) {
            String[] f = line.split(" ");
            if (f[0].equals("H")) {
                short h = (short) Integer.parseInt(f[1], 16);
                assertEquals(Float.floatToRawIntBits(io.github.aclnn4j.acl.Acl.float16ToFloat(h)),
                        Integer.parseUnsignedInt(f[2], 16), line);
                read++;
            } else {
                float x = Float.intBitsToFloat(Integer.parseUnsignedInt(f[1], 16));
                assertEquals(io.github.aclnn4j.acl.Acl.floatToFloat16(x), (short) Integer.parseInt(f[2], 16), line);
                rounded++;
            }
        }
        assertEquals(1 << 16, read, "patterns read");
        assertTrue(rounded > 4 * 63_000, "values rounded: " + rounded);
    }

    /** Threads that make the first calls at once start one JVM, and exactly one aclInit succeeds. */
    @Test
    void concurrentFirstCalls() throws IOException, InterruptedException {
        Path exe = compile("gcc", List.of("-std=gnu11", "-Wall", "-Wextra", "-Werror"),
                TESTS.resolve("start_race_test.c"), List.of("-lpthread", "-lm"));
        Result r = run(List.of(exe.toString()), Map.of());
        assertEquals(0, r.exitCode(), r::describe);
    }

    /** Without a JVM every call fails cleanly and says why. */
    @Test
    void aMissingJvmIsAStatusAndAMessage() throws IOException, InterruptedException {
        Path exe = compile("gcc", List.of("-std=gnu11", "-Wall", "-Wextra", "-Werror"),
                TESTS.resolve("start_failure_test.c"), List.of("-lpthread", "-lm"));
        Result r = run(List.of(exe.toString()), Map.of("ACLNN4J_JAVA_HOME", work.resolve("no-such-jdk").toString()));
        assertEquals(0, r.exitCode(), r::describe);
    }

    private static final Pattern MICROSECONDS = Pattern.compile("phase 1 \\+ phase 2 \\+ synchronize: *([0-9.]+) us");

    /**
     * The overhead report: JVM start on the first call, one bridge round trip (FFM upcall and, for
     * comparison, JNI), and a warmed-up 2x2 operator call through C. Printed for the build log; the
     * bound only catches a gross regression (the goal is under 10 us).
     */
    @Test
    void overhead() throws IOException, InterruptedException {
        Path exe = compile("gcc", List.of("-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror", "-I",
                JDK.resolve("include").toString(), "-I", JDK.resolve("include/linux").toString()),
                TESTS.resolve("bench.c"), List.of("-ldl"));
        Result r = run(List.of(exe.toString()), Map.of());
        assertEquals(0, r.exitCode(), r::describe);
        System.out.println("[aclnn4j native C ABI overhead]\n" + r.stdout());
        assertTrue(r.stdout().contains("result check: -0.095238"), r::describe);
        Matcher m = MICROSECONDS.matcher(r.stdout());
        assertTrue(m.find(), r::describe);
        double micros = Double.parseDouble(m.group(1));
        assertTrue(micros < 200, () -> "a 2x2 operator call through C took " + micros + " us: " + r.stdout());
    }

    /**
     * The Java demo's output, section by operator, from a JVM started as ./aclnn4j demo starts it,
     * which is also how the libraries start theirs (with the Vector API when the JDK has it).
     */
    private static Map<String, List<String>> javaDemoSections() throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(JDK.resolve("bin/java").toString(), "-Xrs",
                "--enable-native-access=ALL-UNNAMED"));
        if (Files.readString(JDK.resolve("release")).contains("jdk.incubator.vector")) {
            command.add("--add-modules=jdk.incubator.vector");
        }
        command.addAll(List.of("-cp", CLASSES.toString(), "io.github.aclnn4j.demo.Demo"));
        Result r = run(command, Map.of());
        assertEquals(0, r.exitCode(), r::describe);
        Map<String, List<String>> sections = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : r.stdout().lines().toList()) {
            if (line.startsWith("== ") && line.endsWith(" ==")) {
                current = new ArrayList<>();
                sections.put(line.substring(3, line.length() - 3), current);
            } else if (current != null) {
                current.add(line);
            }
        }
        assertEquals(EXAMPLES.keySet(), sections.keySet(), r::describe);
        return sections;
    }

    /**
     * Compiles one source against the installed prefix, with CANN's compile line around {@code flags};
     * once per source and compiler.
     */
    private static Path compile(String compiler, List<String> flags, Path source, List<String> libraries)
            throws IOException, InterruptedException {
        Path exe = work.resolve(source.getFileName().toString().replaceAll("\\.[^.]*$", "") + "-" + compiler);
        if (Files.exists(exe)) {
            return exe;
        }
        List<String> command = new ArrayList<>();
        command.add(compiler);
        command.addAll(flags);
        command.addAll(List.of(source.toString(), "-I", prefix.resolve("include").toString(), "-L",
                prefix.resolve("lib").toString(), "-lascendcl", "-lnnopbase", "-lopapi",
                "-Wl,-rpath," + prefix.resolve("lib"), "-o", exe.toString()));
        command.addAll(libraries);
        Result r = run(command, Map.of());
        if (r.exitCode() != 0) {
            fail("cannot compile " + source.getFileName() + ": " + String.join(" ", command) + "\n" + r.describe());
        }
        return exe;
    }

    /**
     * Runs a command without JAVA_HOME and ACLNN4J_JAVA_OPTIONS in its environment (the installed
     * libraries must find their JDK by themselves), plus {@code environment}.
     */
    private static Result run(List<String> command, Map<String, String> environment)
            throws IOException, InterruptedException {
        // In the scratch directory: a JVM that crashes leaves its hs_err file there, not in the project.
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile());
        builder.environment().remove("JAVA_HOME");
        builder.environment().remove("ACLNN4J_JAVA_OPTIONS");
        builder.environment().remove("ACLNN4J_JAVA_HOME");
        builder.environment().remove("ACLNN4J_JDK_DIRS");
        builder.environment().putAll(environment);
        Path out = Files.createTempFile(work, "out", ".txt");
        Path err = Files.createTempFile(work, "err", ".txt");
        try {
            Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                fail(String.join(" ", command) + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
