package io.github.aclnn4j.acl;

/**
 * The C handle {@code aclScalarList*}: scalars passed together, made by {@link Acl#createScalarList}.
 * Destroying the list destroys its scalars, as in CANN.
 */
public final class AclScalarList {
    final AclScalar[] scalars;
    volatile boolean destroyed;

    AclScalarList(AclScalar[] scalars) {
        this.scalars = scalars;
    }
}
