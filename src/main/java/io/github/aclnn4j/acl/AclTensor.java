package io.github.aclnn4j.acl;

import io.github.aclnn4j.tensor.TensorDesc;

/** The C handle {@code aclTensor*}: made by {@link Acl#createTensor}, released by {@link Acl#destroyTensor}. */
public final class AclTensor {
    final TensorDesc desc;

    AclTensor(TensorDesc desc) {
        this.desc = desc;
    }

    @Override
    public String toString() {
        return "AclTensor" + java.util.Arrays.toString(desc.shape()) + " " + io.github.aclnn4j.tensor.DType.nameOf(desc.dtypeCode());
    }
}
