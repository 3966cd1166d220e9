package io.github.aclnn4j.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.OperatingSystemMXBean;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The device allocator: small blocks are slots of slabs (no arena, and no handshake with every
 * thread, per block), reused at once when nothing can still touch them, zeroed when reused, held
 * back while a stream may still run work queued before their free, and empty slabs are closed.
 */
class DeviceMemoryTest {
    private final DeviceMemory memory = new DeviceMemory(0);

    @AfterEach
    void release() {
        memory.freeAll();
    }

    @Test
    void theDefaultCapacityIsThreeQuartersOfTheMachinesMemory() {
        if (System.getProperty("aclnn4j.deviceMemoryBytes") != null
                || !(ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os)) {
            return; // a capacity set by hand, or no bean to compare with
        }
        assertEquals(os.getTotalMemorySize() / 4 * 3, memory.capacity(), "from /proc/meminfo's MemTotal");
    }

    @Test
    void aReusedSlotStartsAsZeros() {
        DeviceBlock first = memory.allocate(100, false);
        first.segment().fill((byte) 0x5A);
        assertTrue(memory.free(first, null));
        DeviceBlock second = memory.allocate(100, false);
        assertEquals(first.address(), second.address(), "the freed slot is handed out again");
        assertEquals(100, second.byteSize());
        assertEquals(-1, second.segment().mismatch(MemorySegment.ofArray(new byte[100])), "reused slot not zeroed");
        assertThrows(Failure.class, first::segment, "the freed block still gives its memory");
        assertTrue(!memory.free(first, null), "a second free of the same block");
    }

    @Test
    void aSlotFreedWhileAStreamMayUseItWaitsForThatWork() throws InterruptedException {
        Stream stream = new Stream(0, false);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        DeviceBlock block = memory.allocate(256, false);
        stream.submit(ws -> {
            running.countDown();
            await(release);
        }, MemorySegment.NULL, false);
        running.await();
        Fence fence = Fence.of(new Stream[] {stream, null});
        assertNotNull(fence, "a stream with a task running is busy");
        assertTrue(memory.free(block, fence));
        List<DeviceBlock> others = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            DeviceBlock other = memory.allocate(256, false);
            others.add(other);
            assertNotEquals(block.address(), other.address(), "the slot was reused while the stream could touch it");
        }
        release.countDown();
        assertNull(stream.synchronize());
        assertNull(Fence.of(new Stream[] {stream}), "an idle stream needs no fence");
        assertTrue(fence.passed());
        others.forEach(b -> memory.free(b, null));
        boolean reused = false;
        for (int i = 0; i <= others.size() && !reused; i++) {
            reused = memory.allocate(256, false).address() == block.address();
        }
        assertTrue(reused, "the slot comes back once the work ran");
    }

    @Test
    void emptySlabsAreClosed() {
        long before = memory.reservedBytes();
        List<DeviceBlock> blocks = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            blocks.add(memory.allocate(1000, false));
        }
        assertTrue(memory.reservedBytes() >= before + 5000 * 1000L);
        blocks.forEach(b -> memory.free(b, null));
        assertTrue(memory.reservedBytes() <= before + Slabs.MAX_SLOT * 4,
                "slabs kept open after every block was freed: " + memory.reservedBytes() + " bytes");
        assertEquals(0, memory.usedBytes());
    }

    /** Seeded mixed sizes across the slab limit: aligned, exactly sized, disjoint, and found by address. */
    @Test
    void blocksAreAlignedDisjointAndFound() {
        Random random = new Random(20261127);
        TreeMap<Long, DeviceBlock> live = new TreeMap<>();
        long expectedUsed = 0;
        for (int step = 0; step < 3000; step++) {
            if (!live.isEmpty() && random.nextInt(3) == 0) {
                DeviceBlock gone = live.remove(random.nextBoolean() ? live.firstKey() : live.lastKey());
                expectedUsed -= gone.byteSize();
                assertTrue(memory.free(gone, null));
                continue;
            }
            long size = random.nextInt(8) == 0 ? Slabs.MAX_SLOT + 1 + random.nextInt(1 << 20)
                    : 1 + random.nextInt(random.nextBoolean() ? 200 : (int) Slabs.MAX_SLOT);
            DeviceBlock b = memory.allocate(size, false);
            assertEquals(0, b.address() % DeviceBlock.ALIGNMENT, "alignment of a block of " + size);
            assertEquals(size, b.byteSize());
            assertEquals(0, b.segment().get(ValueLayout.JAVA_BYTE, size - 1), "a new block's last byte");
            var below = live.floorEntry(b.address());
            var above = live.ceilingEntry(b.address());
            assertTrue(below == null || below.getKey() + below.getValue().byteSize() <= b.address(), "overlaps below");
            assertTrue(above == null || b.address() + size <= above.getKey(), "overlaps above");
            b.segment().set(ValueLayout.JAVA_BYTE, size - 1, (byte) 7);
            assertEquals(b, memory.find(b.address() + size - 1));
            live.put(b.address(), b);
            expectedUsed += size;
            assertEquals(expectedUsed, memory.usedBytes());
        }
    }

    @Test
    void aLargeBlockHasAnArenaOfItsOwn() {
        DeviceBlock large = memory.allocate(Slabs.MAX_SLOT + 1, false);
        assertNull(large.slot());
        MemorySegment segment = large.segment();
        assertTrue(memory.free(large, null));
        assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_BYTE, 0),
                "a large block's memory is unmapped when it is freed");
    }

    /** A large block freed under queued work stays mapped for that work, and is unmapped once it ran. */
    @Test
    void aLargeBlockFreedUnderQueuedWorkIsUnmappedAfterIt() throws InterruptedException {
        Stream stream = new Stream(0, false);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        DeviceBlock large = memory.allocate(Slabs.MAX_SLOT * 3, false);
        MemorySegment segment = large.segment();
        stream.submit(ws -> {
            running.countDown();
            await(release);
            segment.set(ValueLayout.JAVA_BYTE, 0, (byte) 1); // the task's last write, after the free
        }, MemorySegment.NULL, false);
        running.await();
        assertTrue(memory.free(large, Fence.of(new Stream[] {stream})));
        assertThrows(Failure.class, large::segment, "a freed block is refused at once");
        assertEquals(0, memory.usedBytes(), "and no longer counted");
        release.countDown();
        assertNull(stream.synchronize(), "the task wrote to memory still mapped");
        memory.free(memory.allocate(64, false), null); // the allocator's next call gives back what the fence held
        assertThrows(IllegalStateException.class, () -> segment.get(ValueLayout.JAVA_BYTE, 0),
                "unmapped once the work ran");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
