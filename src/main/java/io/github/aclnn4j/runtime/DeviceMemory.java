package io.github.aclnn4j.runtime;

import java.io.FileInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The memory of one emulated device: a fixed capacity (property {@code aclnn4j.deviceMemoryBytes},
 * default three quarters of the machine's physical memory), the live blocks by address, and the
 * accounting that makes an over-large request fail with ACL_ERROR_BAD_ALLOC instead of exhausting
 * the machine.
 */
final class DeviceMemory {
    private final int deviceId;
    private final long capacity;
    private final NavigableMap<Long, DeviceBlock> live = new TreeMap<>();
    private final Slabs slabs = new Slabs();
    /** Freed blocks whose memory work queued before the free may still touch, oldest first. */
    private final ArrayDeque<Held> held = new ArrayDeque<>();
    private long used;

    private record Held(DeviceBlock block, Fence fence) {}

    DeviceMemory(int deviceId) {
        this.deviceId = deviceId;
        this.capacity = Long.getLong("aclnn4j.deviceMemoryBytes", defaultCapacity());
    }

    private static long defaultCapacity() {
        return physicalMemory() / 4 * 3;
    }

    /**
     * MemTotal from /proc/meminfo where there is one, else the OS bean. Read with the stream classes
     * the JVM has loaded at start and parsed by hand: the management beans cost ~30 ms of start-up,
     * and Files.lines with a regex 10–20 ms (the nio channel, stream and regex classes it loads).
     */
    private static long physicalMemory() {
        try (FileInputStream in = new FileInputStream("/proc/meminfo")) {
            String text = new String(in.readNBytes(4096), StandardCharsets.US_ASCII);
            int at = text.indexOf("MemTotal:");
            if (at >= 0) {
                long kb = 0;
                for (int i = at + "MemTotal:".length(); i < text.length() && text.charAt(i) != '\n'; i++) {
                    char c = text.charAt(i);
                    if (c >= '0' && c <= '9') {
                        kb = kb * 10 + (c - '0');
                    }
                }
                if (kb > 0) {
                    return kb * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: ask the JDK
        }
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return 16L << 30;
    }

    /** A zeroed block of {@code size} bytes, on huge pages when {@code hugePages} and possible. */
    synchronized DeviceBlock allocate(long size, boolean hugePages) {
        if (size > capacity - used) {
            throw new Failure(Status.ACL_BAD_ALLOC, "aclrtMalloc: cannot allocate " + size + " bytes on device "
                    + deviceId + ": " + (capacity - used) + " of " + capacity + " bytes are free");
        }
        DeviceBlock block;
        try {
            if (size <= Slabs.MAX_SLOT) {
                releaseHeld();
                block = new DeviceBlock(slabs.take(size), deviceId);
            } else {
                block = new DeviceBlock(size, deviceId, hugePages);
            }
        } catch (OutOfMemoryError | IllegalArgumentException | IllegalStateException e) {
            throw new Failure(Status.ACL_BAD_ALLOC, "aclrtMalloc: cannot allocate " + size + " bytes: " + e.getMessage());
        }
        used += block.byteSize();
        live.put(block.address(), block);
        return block;
    }

    /**
     * Frees {@code block}; false if it is not live here. It is refused everywhere at once, but its
     * memory (a slot to reuse, or an arena to close) is given back only after {@code fence} (the
     * work queued so far, null for none) has passed: a task racing with the free runs to its end on
     * memory no other block has, and reports the free (see the plans' check after a run).
     */
    synchronized boolean free(DeviceBlock block, Fence fence) {
        if (!live.remove(block.address(), block)) {
            return false;
        }
        used -= block.byteSize();
        block.markFreed();
        if (fence == null) {
            giveBack(block);
        } else {
            held.addLast(new Held(block, fence));
        }
        releaseHeld();
        return true;
    }

    private void giveBack(DeviceBlock block) {
        if (block.slot() != null) {
            slabs.give(block.slot());
        } else {
            block.release();
        }
    }

    /** Gives back the held blocks whose fences have passed, oldest first. */
    private void releaseHeld() {
        while (!held.isEmpty() && held.peekFirst().fence().passed()) {
            giveBack(held.pollFirst().block());
        }
    }

    /** The live block containing {@code address}, or null. */
    synchronized DeviceBlock find(long address) {
        var entry = live.floorEntry(address);
        if (entry == null) {
            return null;
        }
        DeviceBlock block = entry.getValue();
        return address < block.address() + block.byteSize() ? block : null;
    }

    /** Frees every block and closes the slabs: the device's streams have all been destroyed. */
    synchronized void freeAll() {
        for (DeviceBlock block : new ArrayList<>(live.values())) {
            free(block, null);
        }
        while (!held.isEmpty()) {
            giveBack(held.pollFirst().block());
        }
        slabs.closeAll();
    }

    /** Bytes the allocator holds: blocks of their own plus every open slab, used or not. */
    synchronized long reservedBytes() {
        long own = 0;
        for (DeviceBlock b : live.values()) {
            own += b.slot() == null ? b.byteSize() : 0;
        }
        return own + slabs.reservedBytes();
    }

    long capacity() {
        return capacity;
    }

    /** What aclrtMalloc could still hand out: the capacity less the bytes of live blocks. */
    synchronized long freeBytes() {
        return capacity - used;
    }

    synchronized long usedBytes() {
        return used;
    }
}
