package io.github.aclnn4j.robust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.acl.Acl;
import io.github.aclnn4j.acl.AclRt;
import io.github.aclnn4j.testing.ChildJvm;
import io.github.aclnn4j.testing.TestDevice;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The JIT settles on the library's code, checked on the JVM's JIT events rather than on times (so
 * it is stable on a noisy machine): in a fresh JVM, every operator × dtype × layout (dense;
 * strided: transposed inputs and gapped outputs) × reduction, with broadcast weights, at sizes that
 * run inline, inline and split, and on a stream thread, runs round after round, every call mixed
 * with the others as in a long-running program. After the warm-up rounds, no library method may
 * have more than {@link #MAX_DEOPTIMIZED_VERSIONS} compiled versions deoptimized (one recompiled
 * and deoptimized again and again is a storm: its loops run interpreted or re-profiled between
 * compilations; one version's trap hit by several tasks at once is a single event), and C2 must
 * have compiled every operator's hot code (a method too large or too polluted to compile would run
 * in C1 forever). The events come from the JVM's own log ({@code -Xlog:deoptimization,
 * jit+compilation}) in a file of its own (JFR's stream delivered only some of the compilations
 * here, and the JIT's threads printing on stdout cut into the child's lines).
 */
class JitStabilityTest {
    private static final int WARM_UP_ROUNDS = 30;
    private static final int MEASURED_ROUNDS = 15;
    private static final int MAX_DEOPTIMIZED_VERSIONS = 2;
    /** Inline, inline and split across threads, and on a stream thread (Executor.INLINE_ELEMENTS is 2^18). */
    private static final int[] SIZES = {3000, 50_000, 300_000};
    /**
     * Per operator, where its hot code lives (its kernel class, or its loops in the shared loop
     * classes): C2 must have compiled some method whose name contains one of these.
     */
    private static final Map<String, List<String>> HOT_CODE = Map.of(
            "BCE backward", List.of("BceBackwardKernel::", "::bceBackward"),
            "BCE with logits", List.of("BceWithLogitsKernel::", "::bceWithLogits", "::bceLosses"),
            "PReLU backward", List.of("PreluBackwardKernel::", "::prelu"),
            "GroupNorm backward", List.of("GroupNormBackwardKernel::", "::groupSums", "::groupNormUpdate"),
            "NLL backward", List.of("NllLossBackwardKernel::"),
            "PReLU", List.of("PreluKernel::", "::preluForward"),
            "BCE", List.of("BceKernel::"),
            "BCE with logits backward", List.of("BceWithLogitsBackwardKernel::", "::bceWithLogitsGradients"),
            "NLL", List.of("NllLossKernel::"),
            "GroupNorm", List.of("GroupNormKernel::"));
    private static final String MEASURING = "measuring from uptime ms ";
    /** {@code [1.234s][debug][deoptimization] cid= 895 level=4 io.github.aclnn4j.x.Y.rows(JI)V trap_bci=19 unstable_if ...}. */
    private static final Pattern DEOPT = Pattern.compile("^\\[(\\d+\\.\\d+)s\\]\\[debug *\\]\\[deoptimization *\\] cid=\\s*(\\d+)"
            + ".* (io\\.github\\.aclnn4j\\.[\\w.$]+)\\([^)]*\\)\\S* trap_bci=(\\d+) (\\w+)");
    /** {@code [1.440s][info ][jit,compilation] 2259  %  4       io.github.aclnn4j.kernel.X::task (308 bytes)}. */
    private static final Pattern COMPILED = Pattern.compile("^\\[[\\d.]+s\\]\\[\\w+ *\\]\\[jit,compilation *\\]\\s+\\d+\\s"
            + "[%sbn! ]*?(\\d)\\s+(io\\.github\\.aclnn4j\\.\\S+::\\S+)");

    @Test
    void noLibraryMethodKeepsBeingDeoptimized() throws Exception {
        assertSettles(MIXED, WARM_UP_ROUNDS + " warm-up rounds of every call", true);
    }

    /**
     * A program that runs for a while at one size and then at another (another model, another
     * layer) must not set off a storm either: the code compiled for the first phase meets the new
     * shapes (GroupNorm's group geometry changes with them), and after the few deoptimizations that
     * takes, it settles. Each phase runs every call at its size; deoptimizations count from the
     * second phase's first round.
     */
    @Test
    void noStormWhenAProgramChangesSizes() throws Exception {
        assertSettles(PHASES, "a first phase at " + SIZES[2] + " elements, then " + SIZES[1], false);
    }

    /** Runs the child in {@code mode}; fails on a storm after its marker (and, if asked, on code C2 never compiled). */
    private static void assertSettles(String mode, String before, boolean requireC2) throws Exception {
        Path log = Files.createTempFile("aclnn4j-jit", ".log");
        String output;
        List<String> events;
        try {
            output = ChildJvm.runWith(List.of("-Xlog:deoptimization=debug,jit+compilation=debug:file=" + log
                    + ":uptime,level,tags"), JitStabilityTest.class, mode);
            events = Files.readAllLines(log);
        } finally {
            Files.deleteIfExists(log);
        }
        double measuringFrom = Double.NaN;
        for (String line : output.lines().toList()) {
            if (line.startsWith(MEASURING)) {
                measuringFrom = Long.parseLong(line.substring(MEASURING.length())) / 1000.0;
            }
        }
        assertTrue(!Double.isNaN(measuringFrom), "the child printed no marker:\n" + output);
        Map<String, TreeSet<String>> versions = new TreeMap<>();
        Map<String, List<String>> reasons = new TreeMap<>();
        TreeSet<String> c2 = new TreeSet<>();
        for (String line : events) {
            Matcher d = DEOPT.matcher(line);
            if (d.find() && !isHarness(d.group(3)) && Double.parseDouble(d.group(1)) >= measuringFrom) {
                versions.computeIfAbsent(d.group(3), k -> new TreeSet<>()).add(d.group(2));
                reasons.computeIfAbsent(d.group(3), k -> new ArrayList<>()).add("cid " + d.group(2) + " bci "
                        + d.group(4) + " " + d.group(5));
            }
            Matcher c = COMPILED.matcher(line);
            if (c.find() && c.group(1).equals("4")) {
                c2.add(c.group(2));
            }
        }
        List<String> storms = versions.entrySet().stream().filter(e -> e.getValue().size() > MAX_DEOPTIMIZED_VERSIONS)
                .map(e -> e.getKey() + ": " + e.getValue().size() + " versions " + reasons.get(e.getKey())).toList();
        assertTrue(storms.isEmpty(), "after " + before + ", library methods with more than "
                + MAX_DEOPTIMIZED_VERSIONS + " compiled versions deoptimized in " + MEASURED_ROUNDS + " rounds: "
                + storms + "; all deoptimizations in those rounds: " + reasons);
        if (requireC2) {
            HOT_CODE.forEach((op, places) -> assertTrue(c2.stream().anyMatch(m -> places.stream().anyMatch(m::contains)),
                    op + ": none of its code " + places + " was compiled by C2; library methods C2 compiled: " + c2));
        }
    }

    private static boolean isHarness(String method) {
        return method.startsWith("io.github.aclnn4j.robust.") || method.startsWith("io.github.aclnn4j.testing.");
    }

    private static final String MIXED = "mixed";
    private static final String PHASES = "phases";

    /**
     * The child JVM: {@link #MIXED} runs every call at every size, round after round; {@link #PHASES}
     * runs every call at the largest size, then at the middle one. Prints the JVM uptime at which
     * the measured rounds begin.
     */
    public static void main(String[] args) throws Exception {
        TestDevice.init();
        boolean phases = args.length > 0 && args[0].equals(PHASES);
        List<Workload> first = calls(phases ? new int[] {SIZES[2]} : SIZES);
        List<Workload> second = phases ? calls(new int[] {SIZES[1]}) : first;
        for (int round = 0; round < WARM_UP_ROUNDS + MEASURED_ROUNDS; round++) {
            if (round == WARM_UP_ROUNDS) {
                System.out.println(MEASURING + ManagementFactory.getRuntimeMXBean().getUptime());
            }
            for (Workload w : round < WARM_UP_ROUNDS ? first : second) {
                assertEquals(0, w.launch(null), () -> w + ": " + Acl.getRecentErrMsg());
                assertEquals(0, AclRt.synchronizeStream(null), () -> w + ": " + Acl.getRecentErrMsg());
                w.retire();
            }
        }
        first.forEach(Workload::close);
        if (second != first) {
            second.forEach(Workload::close);
        }
    }

    private static List<Workload> calls(int[] sizes) {
        List<Workload> calls = new ArrayList<>();
        for (Workload.Case c : Workload.everyCase()) {
            for (int size : sizes) {
                calls.add(new Workload(c.op(), c.dtype(), size, c.seed(), c.layout()));
            }
        }
        return calls;
    }
}
