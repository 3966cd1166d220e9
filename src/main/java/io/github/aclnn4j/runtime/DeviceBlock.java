package io.github.aclnn4j.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One {@code aclrtMalloc} allocation: off-heap, zero-filled, {@value #ALIGNMENT}-byte aligned.
 * A block of up to {@link Slabs#MAX_SLOT} bytes is a slot of a shared slab ({@link Slabs}); a larger
 * one is owned by a shared arena of its own, closed when its memory is given back, so that every
 * later access through an old segment fails instead of touching released memory. Blocks of 2 MB
 * and more that may use huge pages are mapped by {@link HugePages} when it is available. Either
 * way a freed block refuses {@link #segment()} at once, and its memory is given back once the work
 * queued before the free has run ({@link DeviceMemory#free}).
 */
public final class DeviceBlock implements MemoryBlock {
    /** CANN documents 32-byte alignment; cache lines and AVX-512 want 64. */
    public static final long ALIGNMENT = 64;

    /** The block's own arena, or null for a slot of a slab. */
    private final Arena arena;
    private final Slabs.Slot slot;
    private final MemorySegment segment;
    private final int deviceId;
    private volatile boolean freed;

    /** A block with an arena of its own. */
    DeviceBlock(long size, int deviceId, boolean hugePages) {
        Arena a = Arena.ofShared();
        try {
            this.segment = hugePages && size >= HugePages.SIZE && HugePages.available()
                    ? HugePages.map(size, a) : a.allocate(size, ALIGNMENT);
        } catch (RuntimeException | OutOfMemoryError e) {
            a.close();
            throw e;
        }
        this.arena = a;
        this.slot = null;
        this.deviceId = deviceId;
    }

    /** A block in a slot of a slab. */
    DeviceBlock(Slabs.Slot slot, int deviceId) {
        this.arena = null;
        this.slot = slot;
        this.segment = slot.segment();
        this.deviceId = deviceId;
    }

    public int deviceId() {
        return deviceId;
    }

    /** The address the block starts at; device pointers are real addresses. */
    public long address() {
        return segment.address();
    }

    /** Refuses every later {@link #segment()}; the memory is given back by {@link #release} or with its slot. */
    void markFreed() {
        freed = true;
    }

    /** Unmaps a block with its own arena (every access through an old segment then fails). */
    void release() {
        if (arena != null) {
            closeWhenReleased(arena);
        }
    }

    /** The slot this block occupies, or null when it has an arena of its own. */
    Slabs.Slot slot() {
        return slot;
    }

    /**
     * Closes {@code arena}, waiting for the native calls that hold one of its segments (a kernel's
     * memset, microseconds long) to return: closing a shared arena fails while any does.
     */
    static void closeWhenReleased(Arena arena) {
        while (true) {
            try {
                arena.close();
                return;
            } catch (IllegalStateException held) {
                if (!arena.scope().isAlive()) {
                    return;
                }
                Thread.onSpinWait();
            }
        }
    }

    @Override
    public MemorySegment segment() {
        if (freed) {
            throw new Failure(Status.ACL_INVALID_PARAM, "device memory at 0x" + Long.toHexString(segment.address())
                    + " (" + segment.byteSize() + " bytes) was already freed");
        }
        return segment;
    }

    @Override
    public long byteSize() {
        return segment.byteSize();
    }

    @Override
    public boolean isDevice() {
        return true;
    }

    @Override
    public boolean isLive() {
        return !freed;
    }

    @Override
    public String describe() {
        return "device memory at 0x" + Long.toHexString(segment.address()) + " of " + segment.byteSize() + " bytes"
                + (freed ? " (freed)" : "");
    }
}
