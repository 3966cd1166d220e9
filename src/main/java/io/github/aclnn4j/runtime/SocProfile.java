package io.github.aclnn4j.runtime;

import java.util.Locale;

/**
 * The product line being emulated: CANN's dtype lists and limits differ per SoC. Chosen by the
 * system property {@code aclnn4j.soc} or the environment variable {@code ACLNN4J_SOC}; read on
 * every use, so a test can switch it.
 */
public enum SocProfile {
    /** Atlas A2 training / 800I A2 inference: the default. */
    ASCEND910B("Ascend910B", true, true),
    /** Atlas A3: the A2 rules. */
    ASCEND910_93("Ascend910_93", true, true),
    /** Atlas training series: no BFLOAT16. */
    ASCEND910("Ascend910", false, false),
    /** Atlas inference series: no BFLOAT16, no GroupNormBackward or NLLLossBackward. */
    ASCEND310P("Ascend310P", false, false);

    private final String socName;
    private final boolean bf16;
    private final boolean a2Rules;

    SocProfile(String socName, boolean bf16, boolean a2Rules) {
        this.socName = socName;
        this.bf16 = bf16;
        this.a2Rules = a2Rules;
    }

    /** The environment cannot change in a running JVM; reading it costs an allocation per call. */
    private static final String ENVIRONMENT_SOC = System.getenv("ACLNN4J_SOC");

    public static SocProfile current() {
        String name = System.getProperty("aclnn4j.soc");
        if (name == null) {
            name = ENVIRONMENT_SOC;
        }
        if (name == null || name.isBlank()) {
            return ASCEND910B;
        }
        for (SocProfile p : values()) {
            if (p.socName.equalsIgnoreCase(name.trim()) || p.name().equals(name.trim().toUpperCase(Locale.ROOT))) {
                return p;
            }
        }
        return ASCEND910B;
    }

    public String socName() {
        return socName;
    }

    public boolean supportsBf16() {
        return bf16;
    }

    /** The A2/A3 limits (e.g. GroupNormBackward's C / group ≤ 8000) apply. */
    public boolean hasA2Rules() {
        return a2Rules;
    }

    public boolean isInferenceSeries() {
        return this == ASCEND310P;
    }
}
