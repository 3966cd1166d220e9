package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.aclnn4j.testing.ChildJvm;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The warm-up declares a family warm only once C2 has compiled much of the Vector API code it ran:
 * a loop still in C1's code (every vector an object) runs 20–100 times slower, steadily enough to
 * look finished, and the calls switched onto it took 300–650 ms each. Told by the JIT's log in a
 * fresh JVM, not by a timing: under the rule that stopped on any steady pace, none or one of the
 * 33–38 methods of the Vector API classes compiled by then was C2 code; under the round budget,
 * about half.
 */
class WarmupEndsOnCompiledLoopsTest {
    private static final String WARM = "warm at uptime ms ";
    /** {@code [1.440s][info ][jit,compilation] 2259  %  4       io.github.aclnn4j.kernel.X::task (308 bytes)}. */
    private static final Pattern COMPILED = Pattern.compile("^\\[(\\d+\\.\\d+)s\\]\\[\\w+ *\\]\\[jit,compilation *\\]"
            + "\\s+\\d+\\s[%sbn! ]*?(\\d)\\s+(io\\.github\\.aclnn4j\\.kernel\\.\\w*Vector\\w*::\\S+)");

    @Test
    void aFamilyTurnsWarmOnC2Code() throws Exception {
        if (!Warmup.vectorsWanted()) {
            return; // nothing to warm up without the Vector API
        }
        for (String family : new String[] {"BCE_WITH_LOGITS", "GROUP_NORM_BACKWARD"}) {
            Path log = Files.createTempFile("aclnn4j-warmup", ".log");
            String output;
            List<String> lines;
            try {
                output = ChildJvm.runWith(List.of("-Xlog:jit+compilation=debug:file=" + log + ":uptime,level,tags"),
                        WarmupEndsOnCompiledLoopsTest.class, family);
                lines = Files.readAllLines(log);
            } finally {
                Files.deleteIfExists(log);
            }
            int at = output.indexOf(WARM);
            assertTrue(at >= 0, "the child printed no marker:\n" + output);
            double warm = Long.parseLong(output.substring(at + WARM.length()).trim()) / 1000.0;
            Map<String, Integer> levels = new TreeMap<>();
            for (String line : lines) {
                Matcher m = COMPILED.matcher(line);
                if (m.find() && Double.parseDouble(m.group(1)) <= warm) {
                    levels.merge(m.group(3), Integer.parseInt(m.group(2)), Math::max);
                }
            }
            long byC2 = levels.values().stream().filter(level -> level == 4).count();
            assertTrue(!levels.isEmpty() && 4 * byC2 >= levels.size(), family + ": of the " + levels.size()
                    + " Vector API methods compiled when the family turned warm, " + byC2 + " were C2 code: " + levels);
        }
    }

    /** Probe: asks for one family's loops and prints the JVM's uptime once it and the layouts are warm. */
    public static void main(String[] args) throws InterruptedException {
        Warmup.Family family = Warmup.Family.valueOf(args[0]);
        Warmup.end(Warmup.begin(family, 1));
        long deadline = System.nanoTime() + 120_000_000_000L;
        while ((Warmup.cold(family) || Warmup.cold(Warmup.Family.LAYOUTS)) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        System.out.println(WARM + ManagementFactory.getRuntimeMXBean().getUptime());
    }
}
