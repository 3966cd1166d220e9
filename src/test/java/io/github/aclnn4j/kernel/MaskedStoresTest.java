package io.github.aclnn4j.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When stepped outputs are stored under a lane mask: on the vector size and the processor's vendor. */
class MaskedStoresTest {
    @ParameterizedTest(name = "{0}, {1} bits: {2}")
    @CsvSource(nullValues = "null", delimiter = '|', value = {
        "vendor_id\t: AuthenticAMD | 256 | false", // Zen 1-3: vmaskmovps is microcoded
        "vendor_id\t: AuthenticAMD | 512 | true", // Zen 4-5: AVX-512 mask registers
        "vendor_id\t: GenuineIntel | 256 | true",
        "vendor_id\t: GenuineIntel | 512 | true",
        "null | 256 | false", // no /proc/cpuinfo
        "null | 512 | true",
    })
    void masksWith512BitVectorsOrOnIntel(String vendor, int bits, boolean fast) {
        assertEquals(fast, MaskedStores.fast(vendor, bits));
    }
}
