package io.github.aclnn4j.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Host memory: a Java array, a caller's segment, or a block from {@code aclrtMallocHost}. */
public final class HostBlock implements MemoryBlock {
    private final MemorySegment segment;
    private final Arena arena; // non-null only for aclrtMallocHost blocks, which the runtime frees
    private volatile boolean freed;

    private HostBlock(MemorySegment segment, Arena arena) {
        this.segment = segment;
        this.arena = arena;
    }

    /** Host memory the caller owns (a heap array or its own segment); never freed by the runtime. */
    public static HostBlock wrap(MemorySegment segment) {
        return new HostBlock(segment, null);
    }

    static HostBlock allocate(long size) {
        Arena arena = Arena.ofShared();
        try {
            return new HostBlock(arena.allocate(size, DeviceBlock.ALIGNMENT), arena);
        } catch (RuntimeException | OutOfMemoryError e) {
            arena.close();
            throw e;
        }
    }

    public boolean isRuntimeOwned() {
        return arena != null;
    }

    void free() {
        freed = true;
        DeviceBlock.closeWhenReleased(arena);
    }

    @Override
    public MemorySegment segment() {
        if (freed) {
            throw new Failure(Status.ACL_INVALID_PARAM, "host memory from aclrtMallocHost was already freed");
        }
        return segment;
    }

    @Override
    public long byteSize() {
        return segment.byteSize();
    }

    @Override
    public boolean isDevice() {
        return false;
    }

    @Override
    public boolean isLive() {
        return !freed;
    }

    @Override
    public String describe() {
        return (arena != null ? "host block from aclrtMallocHost" : "host memory") + " of " + segment.byteSize() + " bytes";
    }
}
