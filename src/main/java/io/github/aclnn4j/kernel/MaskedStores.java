package io.github.aclnn4j.kernel;

import java.nio.file.Path;

/**
 * Whether a vector store under a lane mask is fast on this processor, decided once per JVM like
 * {@link Gathers}: it depends on the processor, not on the data, and never changes a result (the
 * other way is a plain loop of element stores, which writes the same elements).
 *
 * <p>AVX-512 stores under a mask register at full speed on Intel and AMD alike. AVX2 has only
 * {@code vmaskmovps}, fast on Intel and microcoded on AMD: on Zen 3, every other float of a 4096-float
 * row stored under a mask took 1.58 ns per element in L1 and 3.8–4.2 from memory, element stores
 * 0.30 and 1.07–1.14 (and FLOAT PReLU with a stepped output spent 75% of its time in the masked
 * stores). So masks are used with 512-bit vectors or on Intel processors, element stores elsewhere.
 * {@code -Daclnn4j.maskedStores=true} or {@code false} decides instead.
 */
final class MaskedStores {
    private MaskedStores() {}

    /** Whether masked stores are used, for vectors of {@code VectorBulkMath}'s preferred size. */
    static boolean fast(int vectorBits) {
        String forced = System.getProperty("aclnn4j.maskedStores");
        if (forced != null) {
            return Boolean.parseBoolean(forced);
        }
        return fast(Gathers.firstLine(Path.of("/proc/cpuinfo"), "vendor_id"), vectorBits);
    }

    /** The rule, on the {@code vendor_id} line of {@code /proc/cpuinfo} (null when not readable). */
    static boolean fast(String vendor, int vectorBits) {
        return vectorBits >= 512 || vendor != null && vendor.endsWith("GenuineIntel");
    }
}
