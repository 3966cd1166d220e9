/**
 * aclnn4j: the CANN aclnn operator API on the CPU. Exported: layer 1 ({@code io.github.aclnn4j.acl}),
 * the mirror of the C API, and layer 2 ({@code io.github.aclnn4j.nn}), the Java-first API built on
 * it; the runtime, tensor model, operators and kernels beneath them are free to change.
 */
module io.github.aclnn4j {
    requires jdk.management;
    // The Vector API is used when present (--add-modules jdk.incubator.vector), not required.
    requires static jdk.incubator.vector;

    exports io.github.aclnn4j.acl;
    exports io.github.aclnn4j.nn;
}
