package io.github.aclnn4j.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Bulk zeroing at memset speed. libc's {@code memset} clears whole cache lines without reading them
 * first ({@code rep stosb} where the processor does that fast), where a loop of vector stores, the
 * JDK's fill and copy included, reads every line before it writes it. NLL backward, whose call is
 * mostly its zero fill, in one JVM against the copying build (Zen 3, {@code bench ab}): 65536×64
 * 1.38 → 1.22 ms, 65536×256 6.88 → 6.44 ms. (Stand-alone two-thread fills of 16 MB swung between
 * 2.5× faster and even on this shared machine.) Used where this module may call native code, as
 * {@code runtime.HugePages} is, unless {@code -Daclnn4j.memset=false} (for A/B runs); elsewhere,
 * and for heap memory, a block of zeros is copied.
 *
 * <p>Only fills of at least {@link #MEMSET_MIN} bytes take memset, and the first of them binds it:
 * in a fresh JVM binding takes the FFM linker 100–125 ms, which NLL backward's first call paid even
 * at 4096 elements when every fill took memset. (Binding on a daemon thread instead left the
 * memset branch cold in the profile of the code compiled meanwhile, and the slice passed to it was
 * then allocated at every call: PhaseTwoAllocationTest.)
 *
 * <p>The segment itself goes to the call, so its arena stays alive while memset runs: freeing the
 * block meanwhile waits for the call (see {@code DeviceBlock}) instead of unmapping memory under it,
 * and a block freed before the call makes it throw {@link IllegalStateException}, as any access does.
 */
final class Zeros {
    /**
     * Fills from this size on go to memset (NLL backward zeroes bands of 256 KB); a small call's
     * fill copies, and so never binds it.
     */
    static final long MEMSET_MIN = 1 << 16;
    /** Copied from where memset cannot be used; small enough to stay in L1. */
    private static final MemorySegment BLOCK = Arena.global().allocate(1 << 12);

    private Zeros() {}

    /** Zeroes {@code bytes} bytes of {@code segment} from {@code offset}. */
    static void fill(MemorySegment segment, long offset, long bytes) {
        if (bytes >= MEMSET_MIN && segment.isNative() && Memset.HANDLE != null) {
            memset(segment.asSlice(offset, bytes));
            return;
        }
        long end = offset + bytes;
        for (long at = offset, chunk = BLOCK.byteSize(); at < end; at += chunk) {
            MemorySegment.copy(BLOCK, 0, segment, at, Math.min(chunk, end - at));
        }
    }

    private static void memset(MemorySegment slice) {
        try {
            MemorySegment ignored = (MemorySegment) Memset.HANDLE.invokeExact(slice, 0, slice.byteSize());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("memset failed", t);
        }
    }

    /** Whether fills of {@link #MEMSET_MIN} bytes or more use memset (binding it now if not yet). */
    static boolean usesMemset() {
        return Memset.HANDLE != null;
    }

    /** libc's memset, bound when the class is first used; null where it cannot or must not be. */
    private static final class Memset {
        static final MethodHandle HANDLE = load();

        @SuppressWarnings("restricted") // only bound when this module has native access
        private static MethodHandle load() {
            if (!Zeros.class.getModule().isNativeAccessEnabled()
                    || !Boolean.parseBoolean(System.getProperty("aclnn4j.memset", "true"))) {
                return null;
            }
            try {
                Linker linker = Linker.nativeLinker();
                return linker.downcallHandle(linker.defaultLookup().find("memset").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG),
                        Linker.Option.critical(false)); // microseconds per band: no thread-state transition
            } catch (RuntimeException | LinkageError e) {
                return null; // no memset to bind: copies it is
            }
        }
    }
}
