package io.github.aclnn4j.kernel;

import java.lang.foreign.MemorySegment;

/**
 * Bulk copies between memory segments and Java arrays, in the platform's byte order, as
 * {@code MemorySegment.copy}'s array forms make them, but through a heap segment over the array.
 * The array forms find the array's element type with a pattern switch, whose first use in a JVM
 * spins a class through the class-file API: 9–12 ms before a program's first result when the JVM
 * cannot take that class from an AOT cache (with the Vector API's incubator module it cannot),
 * against 1–2 ms for the first segment-to-segment copy (fresh JVMs, JDK 25, Zen 3). The heap
 * segment does not outlive the copy, and compiled code usually does not allocate it: only where C2
 * inlines the whole copy can it scalar-replace the segment, so an array copied on every call keeps
 * a segment of its own instead ({@link Scratch#workspaceDoubles}, {@link Scratch#segmentOf} for the
 * rows' operands).
 */
public final class ArrayCopies {
    private ArrayCopies() {}

    /** {@code n} floats from {@code src} at byte {@code offset} into {@code dst[at, at + n)}. */
    public static void load(MemorySegment src, long offset, float[] dst, int at, int n) {
        MemorySegment.copy(src, offset, MemorySegment.ofArray(dst), 4L * at, 4L * n);
    }

    /** {@code src[at, at + n)} into {@code dst} at byte {@code offset}. */
    public static void store(float[] src, int at, MemorySegment dst, long offset, int n) {
        MemorySegment.copy(MemorySegment.ofArray(src), 4L * at, dst, offset, 4L * n);
    }

    /** {@code n} 16-bit values from {@code src} at byte {@code offset} into {@code dst[at, at + n)}. */
    public static void load(MemorySegment src, long offset, short[] dst, int at, int n) {
        MemorySegment.copy(src, offset, MemorySegment.ofArray(dst), 2L * at, 2L * n);
    }

    /** {@code src[at, at + n)} into {@code dst} at byte {@code offset}. */
    public static void store(short[] src, int at, MemorySegment dst, long offset, int n) {
        MemorySegment.copy(MemorySegment.ofArray(src), 2L * at, dst, offset, 2L * n);
    }

    /** {@code src[at, at + n)} into {@code dst} at byte {@code offset}. */
    public static void store(double[] src, int at, MemorySegment dst, long offset, int n) {
        MemorySegment.copy(MemorySegment.ofArray(src), 8L * at, dst, offset, 8L * n);
    }

    /** {@code n} longs from {@code src} at byte {@code offset} into {@code dst[at, at + n)}. */
    public static void load(MemorySegment src, long offset, long[] dst, int at, int n) {
        MemorySegment.copy(src, offset, MemorySegment.ofArray(dst), 8L * at, 8L * n);
    }

    /** {@code src[at, at + n)} into {@code dst} at byte {@code offset}. */
    public static void store(long[] src, int at, MemorySegment dst, long offset, int n) {
        MemorySegment.copy(MemorySegment.ofArray(src), 8L * at, dst, offset, 8L * n);
    }

    /** {@code src[at, at + n)} into {@code dst} at byte {@code offset}. */
    public static void store(byte[] src, int at, MemorySegment dst, long offset, int n) {
        MemorySegment.copy(MemorySegment.ofArray(src), at, dst, offset, n);
    }
}
