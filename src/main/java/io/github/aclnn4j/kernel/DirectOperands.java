package io.github.aclnn4j.kernel;

import io.github.aclnn4j.tensor.DType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Where a {@link DirectMath} loop finds an operand: a dense view in its own memory; a uniform one
 * (a broadcast single value) as that value repeated in per-thread scratch, which the loop then
 * reads like any dense run. Also decides whether a kernel may use the direct loops at all.
 */
final class DirectOperands {
    private DirectOperands() {}

    /** The direct loops in use, or null when a kernel must use rows. */
    static DirectMath math() {
        return DirectMath.INSTANCE;
    }

    /** Whether direct loops exist for {@code dtype}. */
    static boolean supported(DType dtype) {
        return DirectMath.INSTANCE != null && DirectMath.INSTANCE.supports(dtype);
    }

    /** {@code v} is dense in native memory and of {@code dtype}. */
    static boolean dense(StridedView v, DType dtype) {
        return v.dtype() == dtype && denseNative(v);
    }

    /** {@code v} is absent, dense in native memory or uniform, and of {@code dtype}. */
    static boolean denseOrUniform(StridedView v, DType dtype) {
        return v == null || (v.dtype() == dtype && (denseNative(v) || v.isUniform()));
    }

    /**
     * The direct loops read and write native memory only (they tell the JIT so, see
     * VectorLanes): a tensor over a Java array, which host memory may be, goes through rows.
     */
    private static boolean denseNative(StridedView v) {
        return v.isDense() && v.segment().isNative();
    }

    /** {@code v} is absent or uniform, and of {@code dtype}. */
    static boolean absentOrUniform(StridedView v, DType dtype) {
        return v == null || (v.dtype() == dtype && v.isUniform());
    }

    /**
     * Memory holding view {@code v}'s elements from {@code start} for {@code n} elements as FLOAT;
     * read it from {@link #offset}. A dense FLOAT view is read in place; an absent view reads as
     * ones, and a uniform one of any dtype as its value widened and repeated in the scratch run
     * that {@code slot} (0 to 3) picks.
     */
    static MemorySegment segment(StridedView v, int slot, int n) {
        return inPlace(v) ? v.segment() : repeated(v, slot, n);
    }

    /** The byte offset that goes with {@link #segment}. */
    static long offset(StridedView v, long start) {
        return inPlace(v) ? v.denseOffset(start) : 0;
    }

    private static boolean inPlace(StridedView v) {
        return v != null && v.dtype() == DType.FLOAT && denseNative(v);
    }

    private static MemorySegment repeated(StridedView v, int slot, int n) {
        Scratch s = Scratch.get();
        if (v == null) {
            return s.ones32;
        }
        MemorySegment run = s.repeated[slot];
        if (v.dtype() == DType.FLOAT) {
            v.repeatFirstInto(run, n);
        } else if (n > 0) { // the value widened once, then doubled up like repeatFirstInto's bytes
            run.set(ValueLayout.JAVA_FLOAT, 0, v.get(0));
            for (long filled = Float.BYTES, bytes = (long) n * Float.BYTES; filled < bytes; filled *= 2) {
                MemorySegment.copy(run, 0, run, filled, Math.min(filled, bytes - filled));
            }
        }
        return run;
    }

}
