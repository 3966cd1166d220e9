package io.github.aclnn4j.runtime;

import java.lang.foreign.MemorySegment;

/**
 * A region a pointer can point into: device memory from {@code aclrtMalloc}, or host memory
 * (a Java array, a caller's segment, or {@code aclrtMallocHost}). Every access goes through
 * {@link #segment()}, so a freed block can never be read or written.
 */
public sealed interface MemoryBlock permits DeviceBlock, HostBlock {
    /** The whole block. Throws {@link Failure} once the block has been freed. */
    MemorySegment segment();

    long byteSize();

    boolean isDevice();

    boolean isLive();

    /** A short description for error messages, e.g. {@code device block #3 of 1024 bytes}. */
    String describe();
}
