package io.github.aclnn4j.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * Device memory on transparent huge pages, for {@code aclrtMalloc}'s HUGE_FIRST and HUGE_ONLY
 * policies: an anonymous private mapping (zeroed by the kernel, its pages made on first touch),
 * advised {@code MADV_HUGEPAGE} from its first 2 MB boundary on, unmapped when its arena closes.
 * A kernel streaming tens of megabytes through 4 KB pages misses the TLB at every page; on 2 MB
 * pages the operators' large calls ran 3 to 16% faster here (in-process A/B, both builds in one JVM).
 *
 * <p>Used on Linux when this module may call native code ({@code --enable-native-access=
 * io.github.aclnn4j}, or {@code ALL-UNNAMED} on the class path; the launcher passes it): without
 * that the JDK would print a warning at the first mapping, so blocks then come from an arena as
 * before, as do blocks under 2 MB, which could not fill a huge page. The advice is a request: the
 * kernel may still back some pages with 4 KB ones (THP set to {@code never}, or no free 2 MB
 * page), and the memory behaves the same either way.
 */
final class HugePages {
    /** The huge page size of x86-64 and of arm64 with 4 KB base pages. */
    static final long SIZE = 2L << 20;

    private static final Mapper MAPPER = Mapper.load();

    private HugePages() {}

    /** Whether {@link #map} can be used in this JVM. */
    static boolean available() {
        return MAPPER != null;
    }

    /**
     * {@code size} zeroed bytes, 2 MB-aligned, freed with {@code arena}.
     *
     * @throws OutOfMemoryError when the kernel refuses the mapping (the message gives errno)
     * @throws IllegalStateException when not {@link #available()}
     */
    static MemorySegment map(long size, Arena arena) {
        if (MAPPER == null) {
            throw new IllegalStateException("huge page mappings are not available in this JVM");
        }
        return MAPPER.map(size, arena);
    }

    /** The libc calls, bound once; null where they cannot or must not be used. */
    @SuppressWarnings("restricted") // only made when this module has native access (see the class comment)
    private record Mapper(MethodHandle mmap, MethodHandle madvise, MethodHandle munmap, StructLayout callState,
            VarHandle errno) {
        private static final int PROT_READ_WRITE = 0x1 | 0x2;
        private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
        private static final int MADV_HUGEPAGE = 14;

        static Mapper load() {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
                    || !HugePages.class.getModule().isNativeAccessEnabled()
                    || !Boolean.parseBoolean(System.getProperty("aclnn4j.hugePages", "true"))) {
                return null;
            }
            try {
                Linker linker = Linker.nativeLinker();
                var libc = linker.defaultLookup();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                StructLayout state = Linker.Option.captureStateLayout();
                ValueLayout.OfLong word = ValueLayout.JAVA_LONG;
                ValueLayout.OfInt integer = ValueLayout.JAVA_INT;
                return new Mapper(
                        linker.downcallHandle(libc.find("mmap").orElseThrow(),
                                FunctionDescriptor.of(word, word, word, integer, integer, integer, word), errno),
                        linker.downcallHandle(libc.find("madvise").orElseThrow(),
                                FunctionDescriptor.of(integer, word, word, integer)),
                        linker.downcallHandle(libc.find("munmap").orElseThrow(),
                                FunctionDescriptor.of(integer, word, word)),
                        state,
                        state.varHandle(MemoryLayout.PathElement.groupElement("errno")));
            } catch (RuntimeException | LinkageError e) {
                return null; // no such symbols, or a linker that cannot bind them: arenas it is
            }
        }

        MemorySegment map(long size, Arena arena) {
            // 2 MB more than whole huge pages, so that the block can start on a 2 MB boundary; the
            // slack is address space only, never touched
            long pages = (size + SIZE - 1) / SIZE * SIZE;
            long length = pages + SIZE;
            long address;
            int error;
            try (Arena call = Arena.ofConfined()) {
                MemorySegment state = call.allocate(callState);
                address = (long) mmap.invokeExact(state, 0L, length, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
                error = (int) errno.get(state, 0L);
            } catch (Throwable t) {
                throw new IllegalStateException("mmap failed", t);
            }
            if (address == -1L) {
                throw new OutOfMemoryError("mmap of " + length + " bytes failed with errno " + error);
            }
            long start = (address + SIZE - 1) & -SIZE;
            try {
                int ignored = (int) madvise.invokeExact(start, pages, MADV_HUGEPAGE); // advice: no THP is fine
                return MemorySegment.ofAddress(start).reinterpret(size, arena, segment -> unmap(address, length));
            } catch (Throwable t) {
                unmap(address, length);
                throw t instanceof RuntimeException e ? e : new IllegalStateException("madvise failed", t);
            }
        }

        private void unmap(long address, long length) {
            try {
                int ignored = (int) munmap.invokeExact(address, length);
            } catch (Throwable t) {
                throw new IllegalStateException("munmap failed", t);
            }
        }
    }
}
