package io.github.aclnn4j.acl;

import io.github.aclnn4j.runtime.Stream;

/**
 * The C {@code aclrtStream}: pass {@code new AclrtStream()} to {@link AclRt#createStream}, which
 * fills it. An empty holder, like a Java {@code null}, means the default stream.
 */
public final class AclrtStream {
    volatile Stream stream;

    /** An empty holder, the C {@code aclrtStream stream = nullptr;}: the default stream until filled. */
    public AclrtStream() {}

    /** Whether the holder has no stream in it (the C null pointer: the default stream). */
    public boolean isNull() {
        return stream == null;
    }
}
