package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When the 16-bit softplus lookups gather: on what Linux reports of the processor. */
class GathersTest {
    @ParameterizedTest(name = "{0} / {1}: {2}")
    @CsvSource(nullValues = "null", delimiter = '|', value = {
        "vendor_id\t: GenuineIntel | Not affected | true", // Sapphire Rapids and later
        "vendor_id\t: GenuineIntel | Vulnerable | true", // affected, mitigation not loaded
        "vendor_id\t: GenuineIntel | Vulnerable: No microcode | true",
        "vendor_id\t: GenuineIntel | Mitigation: Microcode | false", // Skylake to Ice Lake, patched
        "vendor_id\t: GenuineIntel | Mitigation: AVX disabled, no microcode | false",
        "vendor_id\t: GenuineIntel | null | false", // a kernel that does not report it
        "vendor_id\t: AuthenticAMD | Not affected | false", // Zen: measured slower
        "null | Not affected | false", // no /proc/cpuinfo
    })
    void gathersOnlyOnIntelWithoutTheGdsMitigation(String vendor, String gds, boolean fast) {
        assertEquals(fast, Gathers.fast(vendor, gds));
    }
}
