package io.github.aclnn4j.runtime;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The product line being emulated: CANN's dtype lists, limits and supported operators differ per
 * SoC. Chosen by the system property {@code aclnn4j.soc} or the environment variable
 * {@code ACLNN4J_SOC}, by CANN's short SoC name ({@code Ascend950}), one of its aliases or a long
 * name that starts with one ({@code Ascend950PR_9599}, {@code Ascend310B1}); read on every use, so a
 * test can switch it. An unknown name selects the default.
 *
 * <p>Which operators a product lacks comes from the operator documents' product tables (CANN's
 * code itself refuses none; a clear refusal serves code written for that product better than
 * results its NPU would not give).
 */
public enum SocProfile {
    /** Atlas A2 training / 800I A2 inference (arch DAV_2201): the default. */
    ASCEND910B("Ascend910B", true, true, false, Set.of()),
    /** Atlas A3 (DAV_2201): the A2 rules. */
    ASCEND910_93("Ascend910_93", true, true, false, Set.of()),
    /**
     * Ascend 950PR / 950DT (DAV_3510, CANN's "regbase"): BFLOAT16, none of the A2-only limits, and
     * the regbase variants of some checks (GroupNormBackward's statistics in mixed precision).
     */
    ASCEND950("Ascend950", true, false, true, Set.of(), "Ascend950PR", "Ascend950DT", "Ascend910_95"),
    /** Atlas training series (DAV_1001): no BFLOAT16. */
    ASCEND910("Ascend910", false, false, false, Set.of()),
    /** Atlas inference series (DAV_2002): no BFLOAT16; three of the ten operators are not offered. */
    ASCEND310P("Ascend310P", false, false, false,
            Set.of("aclnnGroupNormBackward", "aclnnNLLLossBackward", "aclnnPreluBackward")),
    /** Atlas 200I/500 A2 inference (DAV_3002): none of the ten operators is offered. */
    ASCEND310B("Ascend310B", false, false, false, Set.of("aclnnBinaryCrossEntropyBackward", "aclnnPreluBackward",
            "aclnnBinaryCrossEntropyWithLogits", "aclnnGroupNormBackward", "aclnnNLLLossBackward",
            "aclnnBinaryCrossEntropy", "aclnnPrelu", "aclnnGroupNorm", "aclnnNLLLoss",
            "aclnnBinaryCrossEntropyWithLogitsBackward"));

    private final String socName;
    private final boolean bf16;
    private final boolean a2Rules;
    private final boolean regbase;
    private final Set<String> unsupported;
    /** The short name, then the aliases, as {@link #named} matches them. */
    private final List<String> names;

    SocProfile(String socName, boolean bf16, boolean a2Rules, boolean regbase, Set<String> unsupported,
            String... aliases) {
        this.socName = socName;
        this.bf16 = bf16;
        this.a2Rules = a2Rules;
        this.regbase = regbase;
        this.unsupported = unsupported;
        List<String> all = new java.util.ArrayList<>(List.of(socName));
        all.addAll(List.of(aliases));
        this.names = List.copyOf(all);
    }

    /** The environment cannot change in a running JVM; reading it costs an allocation per call. */
    private static final String ENVIRONMENT_SOC = System.getenv("ACLNN4J_SOC");

    public static SocProfile current() {
        String name = selectedName();
        return name == null ? ASCEND910B : named(name);
    }

    /**
     * What {@code aclrtGetSocName} answers: the name the profile was chosen by when it names a
     * product of that profile (a long name such as {@code Ascend910B3} as the user gave it, since
     * programs test for it), else the profile's short name.
     */
    public static String currentSocName() {
        String name = selectedName();
        if (name == null) {
            return ASCEND910B.socName;
        }
        SocProfile p = named(name);
        String lower = name.toLowerCase(Locale.ROOT);
        for (String known : p.names) {
            if (lower.equals(known.toLowerCase(Locale.ROOT))) {
                return known;
            }
        }
        for (String known : p.names) {
            if (lower.startsWith(known.toLowerCase(Locale.ROOT))) {
                return name;
            }
        }
        return p.socName;
    }

    private static String selectedName() {
        String name = System.getProperty("aclnn4j.soc");
        if (name == null) {
            name = ENVIRONMENT_SOC;
        }
        return name == null || name.isBlank() ? null : name.trim();
    }

    /**
     * The profile {@code name} selects: an enum name, a short name or alias (any case), else the
     * profile whose short name or alias is the longest prefix of it; the default when none fits.
     */
    static SocProfile named(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        SocProfile best = null;
        int bestLength = 0;
        for (SocProfile p : values()) {
            if (p.name().equals(name.toUpperCase(Locale.ROOT))) {
                return p;
            }
            for (String known : p.names) {
                String k = known.toLowerCase(Locale.ROOT);
                if (lower.equals(k)) {
                    return p;
                }
                if (lower.startsWith(k) && k.length() > bestLength) {
                    best = p;
                    bestLength = k.length();
                }
            }
        }
        return best == null ? ASCEND910B : best;
    }

    /** CANN's short SoC name, as its SocVersion strings spell it. */
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

    /** CANN's regbase architecture (Ascend 950), whose code paths differ in places. */
    public boolean isRegbase() {
        return regbase;
    }

    /** Whether the product offers {@code operator} (its C name, e.g. {@code aclnnGroupNormBackward}). */
    public boolean supports(String operator) {
        return !unsupported.contains(operator);
    }
}
