package io.github.aclnn4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Profiles are chosen by CANN's short SoC names, their aliases and the long names built on them. */
class SocProfileTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "Ascend910B, ASCEND910B", "Ascend910B3, ASCEND910B", "ascend910b1, ASCEND910B",
        "Ascend910_93, ASCEND910_93", "Ascend910_9391, ASCEND910_93",
        "Ascend910, ASCEND910",
        "Ascend950, ASCEND950", "Ascend950PR_9599, ASCEND950", "Ascend950DT_9582, ASCEND950",
        "Ascend910_95, ASCEND950",
        "Ascend310P, ASCEND310P", "Ascend310P3, ASCEND310P",
        "Ascend310B, ASCEND310B", "Ascend310B1, ASCEND310B", "ASCEND310B, ASCEND310B",
        "Kirin9030, ASCEND910B", "Ascend, ASCEND910B"})
    void namesSelectProfiles(String name, SocProfile expected) {
        assertEquals(expected, SocProfile.named(name));
    }
}
