package io.github.aclnn4j.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Device blocks of up to {@value #MAX_SLOT} bytes, carved from slabs. An arena of its own per block
 * would cost a handshake with every thread of the JVM when the block is freed (30 µs and more on two
 * cores), more than a small operator call takes; a slab is one shared arena divided into slots of
 * one power-of-two size, and only a slab that has become empty is closed. A freed slot is zeroed
 * when it is handed out again, so every block starts as zeros, as a fresh arena's does.
 *
 * <p>A slot goes back to its slab only once no stream can still touch it ({@link Fence}); a freed
 * block is refused at every boundary (phase 1, launch, copies) by its own {@code isLive}, and its
 * old segment never reaches a new block's memory before the work queued before the free has run.
 * Not thread-safe: {@link DeviceMemory} holds its lock around every call.
 */
final class Slabs {
    /** The largest block served from a slab; larger ones get an arena of their own. */
    static final long MAX_SLOT = 1 << 20;
    private static final long MIN_SLOT = DeviceBlock.ALIGNMENT;
    private static final long MIN_SLAB = 64 << 10;
    private static final long MAX_SLAB = 4 << 20;

    /** Per size class (slot size {@code MIN_SLOT << i}), its slabs; those with free slots first. */
    private final List<List<Slab>> classes = new ArrayList<>();
    private long reservedBytes;

    Slabs() {
        for (long slot = MIN_SLOT; slot <= MAX_SLOT; slot <<= 1) {
            classes.add(new ArrayList<>());
        }
    }

    /** A slot in a slab: where a small block lives. */
    record Slot(Slab slab, int index, MemorySegment segment) {}

    /** A zeroed slot for a block of {@code size} bytes ({@code 0 < size <= MAX_SLOT}). */
    Slot take(long size) {
        int sizeClass = sizeClass(size);
        List<Slab> slabs = classes.get(sizeClass);
        Slab slab = slabs.isEmpty() ? null : slabs.get(0);
        if (slab == null || slab.free == 0) {
            slab = new Slab(MIN_SLOT << sizeClass);
            reservedBytes += slab.memory.byteSize();
            slabs.add(0, slab);
        }
        int index = slab.freeSlots[--slab.free];
        if (slab.free == 0 && slabs.size() > 1) { // keep one with free slots at the front
            slabs.remove(0);
            slabs.add(slab);
            promoteFreeSlab(slabs);
        }
        MemorySegment segment = slab.memory.asSlice(index * slab.slotBytes, size);
        if (slab.used[index]) {
            segment.fill((byte) 0);
        }
        slab.used[index] = true;
        return new Slot(slab, index, segment);
    }

    /**
     * Gives {@code slot} back. An empty slab is closed when another slab of its class has room, so
     * a burst of allocations does not pin memory for good, and a loop that allocates and frees one
     * block does not open and close a slab per call.
     */
    void give(Slot slot) {
        Slab slab = slot.slab();
        slab.freeSlots[slab.free++] = slot.index();
        List<Slab> slabs = classes.get(sizeClass(slab.slotBytes));
        if (slab.free == 1) { // it had no room: now it has
            slabs.remove(slab);
            slabs.add(0, slab);
        } else if (slab.free == slab.freeSlots.length && anotherHasRoom(slabs, slab)) {
            slabs.remove(slab);
            reservedBytes -= slab.memory.byteSize();
            DeviceBlock.closeWhenReleased(slab.arena);
        }
    }

    /** Bytes of the slabs now open, used or not. */
    long reservedBytes() {
        return reservedBytes;
    }

    /** Closes every slab (the device's memory is being released). */
    void closeAll() {
        for (List<Slab> slabs : classes) {
            for (Slab slab : slabs) {
                DeviceBlock.closeWhenReleased(slab.arena);
            }
            slabs.clear();
        }
        reservedBytes = 0;
    }

    private static boolean anotherHasRoom(List<Slab> slabs, Slab slab) {
        for (Slab other : slabs) {
            if (other != slab && other.free > 0) {
                return true;
            }
        }
        return false;
    }

    private static void promoteFreeSlab(List<Slab> slabs) {
        for (int i = 1; i < slabs.size(); i++) {
            if (slabs.get(i).free > 0) {
                slabs.add(0, slabs.remove(i));
                return;
            }
        }
    }

    private static int sizeClass(long size) {
        long slot = Math.max(MIN_SLOT, Long.highestOneBit(size - 1) << 1);
        return Long.numberOfTrailingZeros(slot) - Long.numberOfTrailingZeros(MIN_SLOT);
    }

    /** One shared arena cut into equal slots; a stack of the free ones. */
    static final class Slab {
        final long slotBytes;
        final Arena arena;
        final MemorySegment memory;
        final int[] freeSlots;
        /** Slots handed out before: their bytes must be zeroed again. */
        final boolean[] used;
        int free;

        Slab(long slotBytes) {
            this.slotBytes = slotBytes;
            long bytes = Math.min(MAX_SLAB, Math.max(MIN_SLAB, 16 * slotBytes));
            int slots = (int) (bytes / slotBytes);
            Arena a = Arena.ofShared();
            try {
                memory = a.allocate(bytes, 4096);
            } catch (RuntimeException | OutOfMemoryError e) {
                a.close();
                throw e;
            }
            arena = a;
            freeSlots = new int[slots];
            used = new boolean[slots];
            for (int i = 0; i < slots; i++) {
                freeSlots[i] = slots - 1 - i; // lowest address first
            }
            free = slots;
        }
    }
}
