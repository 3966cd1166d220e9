package io.github.aclnn4j.acl;

/** The C handle {@code aclIntArray*}: a copy of the values given to {@link Acl#createIntArray}. */
public final class AclIntArray {
    final long[] values;
    volatile boolean destroyed;

    AclIntArray(long[] values) {
        this.values = values;
    }
}
