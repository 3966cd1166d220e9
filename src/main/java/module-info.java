/**
 * aclnn4j: the CANN aclnn operator API on the CPU. Only layer 1 ({@code io.github.aclnn4j.acl}),
 * the mirror of the C API, is exported; the runtime, tensor model, operators and kernels beneath
 * it are free to change.
 */
module io.github.aclnn4j {
    requires jdk.management;
    // The Vector API is used when present (--add-modules jdk.incubator.vector), not required.
    requires static jdk.incubator.vector;

    exports io.github.aclnn4j.acl;
}
