package io.github.aclnn4j.acl;

/** The C handle {@code aclFloatArray*}: a copy of the values given to {@link Acl#createFloatArray}. */
public final class AclFloatArray {
    final float[] values;
    volatile boolean destroyed;

    AclFloatArray(float[] values) {
        this.values = values;
    }
}
