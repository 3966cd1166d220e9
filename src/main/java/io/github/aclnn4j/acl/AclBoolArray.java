package io.github.aclnn4j.acl;

/** The C handle {@code aclBoolArray*}: a copy of the values given to {@link Acl#createBoolArray}. */
public final class AclBoolArray {
    final boolean[] values;
    volatile boolean destroyed;

    AclBoolArray(boolean[] values) {
        this.values = values;
    }
}
