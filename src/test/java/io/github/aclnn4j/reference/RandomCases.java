package io.github.aclnn4j.reference;

import java.util.stream.LongStream;

/** The seeds of the random cases, one fixed block per operator. */
final class RandomCases {
    private RandomCases() {}

    static final int CASES_PER_OPERATOR = 1000;

    /** Elements per tensor in the ordinary cases: small enough to run thousands in seconds. */
    static final int MAX_NUMEL = 2000;

    static LongStream seeds(long base) {
        return LongStream.range(base, base + CASES_PER_OPERATOR);
    }
}
