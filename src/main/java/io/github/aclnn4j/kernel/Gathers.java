package io.github.aclnn4j.kernel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Whether table lookups should use the processor's vector gather ({@code vgatherdps}) rather than
 * a plain loop of loads: decided once per JVM, as it depends on the processor, not on the data.
 * Both ways return the same table entries, so the choice never changes a result.
 *
 * <p>Measured for BCE with logits' 16-bit softplus lookup (one thread, ns per element, lookup
 * and loss loop): Sapphire Rapids, gather fused into the loss loop 0.32 against 0.50 for the plain
 * loop of loads; Zen 3 and Zen 4 the other way round (a gather alone took 0.45 against 0.33 on
 * Zen 4, 12 against 9 cycles per 8 elements on Zen 3). Intel processors hit by Gather Data
 * Sampling (Skylake to Ice Lake / Tiger Lake) gather several times slower once their microcode
 * mitigation is loaded, which Linux reports in
 * {@code /sys/devices/system/cpu/vulnerabilities/gather_data_sampling}. So gathers are used on
 * Intel processors that Linux reports as not mitigated for it, and nowhere else (no AMD measured
 * faster, and an unknown processor keeps the plain loop). {@code -Daclnn4j.gather=true} or
 * {@code false} decides instead.
 */
final class Gathers {
    private Gathers() {}

    /** Whether the lookups gather. */
    static final boolean FAST = decide();

    private static boolean decide() {
        String forced = System.getProperty("aclnn4j.gather");
        if (forced != null) {
            return Boolean.parseBoolean(forced);
        }
        return fast(firstLine(Path.of("/proc/cpuinfo"), "vendor_id"),
                firstLine(Path.of("/sys/devices/system/cpu/vulnerabilities/gather_data_sampling"), ""));
    }

    /**
     * The rule, on what Linux reports: {@code vendor}, the {@code vendor_id} line of
     * {@code /proc/cpuinfo}, and {@code gds}, the Gather Data Sampling status; either null when it
     * could not be read, which keeps the plain loop.
     */
    static boolean fast(String vendor, String gds) {
        return vendor != null && vendor.endsWith("GenuineIntel")
                && gds != null && !gds.strip().toLowerCase(Locale.ROOT).startsWith("mitigation");
    }

    /** The first line of {@code file} that starts with {@code prefix}, or null (none, or not readable). */
    static String firstLine(Path file, String prefix) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(line -> line.startsWith(prefix)).findFirst().map(String::strip).orElse(null);
        } catch (IOException | RuntimeException e) {
            return null; // not Linux, or not readable
        }
    }
}
