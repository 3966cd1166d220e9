package io.github.aclnn4j.acl;

/** The C handle {@code aclScalar*}: a value of one dtype, read from memory by {@link Acl#createScalar}. */
public final class AclScalar {
    final int dataType;
    final double value;
    volatile boolean destroyed;

    AclScalar(int dataType, double value) {
        this.dataType = dataType;
        this.value = value;
    }
}
