package io.github.aclnn4j.runtime;

import java.util.Arrays;

/**
 * A point in the work of a device's streams: the tasks each busy stream had taken when the fence
 * was made. Memory freed while those tasks may still use it (a caller that frees before it
 * synchronizes) is handed to no other block until the fence has {@linkplain #passed() passed}, so
 * a task racing with a free never writes into someone else's memory.
 */
final class Fence {
    private final Stream[] streams;
    private final long[] counts;

    private Fence(Stream[] streams, long[] counts) {
        this.streams = streams;
        this.counts = counts;
    }

    /** The fence over {@code streams} (null entries skipped), or null when none has unfinished work. */
    static Fence of(Stream[] streams) {
        Stream[] busy = new Stream[streams.length];
        long[] counts = new long[streams.length];
        int n = 0;
        for (Stream s : streams) {
            long upTo = s == null ? -1 : s.unfinishedUpTo();
            if (upTo >= 0) {
                busy[n] = s;
                counts[n++] = upTo;
            }
        }
        return n == 0 ? null : new Fence(Arrays.copyOf(busy, n), Arrays.copyOf(counts, n));
    }

    /** Whether every task the fence waits for has finished. */
    boolean passed() {
        for (int i = 0; i < streams.length; i++) {
            if (!streams[i].hasFinished(counts[i])) {
                return false;
            }
        }
        return true;
    }
}
