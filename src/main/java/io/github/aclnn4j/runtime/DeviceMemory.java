package io.github.aclnn4j.runtime;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
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
    private long used;

    DeviceMemory(int deviceId) {
        this.deviceId = deviceId;
        this.capacity = Long.getLong("aclnn4j.deviceMemoryBytes", defaultCapacity());
    }

    private static long defaultCapacity() {
        return physicalMemory() / 4 * 3;
    }

    /** /proc/meminfo where there is one (the management beans cost ~30 ms of start-up), else the OS bean. */
    private static long physicalMemory() {
        try (var lines = Files.lines(Path.of("/proc/meminfo"))) {
            var total = lines.filter(l -> l.startsWith("MemTotal:")).findFirst();
            if (total.isPresent()) {
                return Long.parseLong(total.get().replaceAll("[^0-9]", "")) * 1024;
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
            block = new DeviceBlock(size, deviceId, hugePages);
        } catch (OutOfMemoryError | IllegalArgumentException | IllegalStateException e) {
            throw new Failure(Status.ACL_BAD_ALLOC, "aclrtMalloc: cannot allocate " + size + " bytes: " + e.getMessage());
        }
        used += block.byteSize();
        live.put(block.address(), block);
        return block;
    }

    synchronized boolean free(DeviceBlock block) {
        if (live.remove(block.address(), block)) {
            used -= block.byteSize();
            block.free();
            return true;
        }
        return false;
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

    synchronized void freeAll() {
        for (DeviceBlock block : new ArrayList<>(live.values())) {
            free(block);
        }
    }

    synchronized long usedBytes() {
        return used;
    }
}
