package io.github.aclnn4j.acl;

/**
 * The C handle {@code aclTensorList*}: tensors passed together, made by {@link Acl#createTensorList}.
 * Destroying the list destroys its tensors, as in CANN.
 */
public final class AclTensorList {
    final AclTensor[] tensors;
    volatile boolean destroyed;

    AclTensorList(AclTensor[] tensors) {
        this.tensors = tensors;
    }
}
