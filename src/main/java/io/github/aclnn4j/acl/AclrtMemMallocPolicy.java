package io.github.aclnn4j.acl;

/** The C enum {@code aclrtMemMallocPolicy}. On the CPU device all three give the same memory. */
public final class AclrtMemMallocPolicy {
    private AclrtMemMallocPolicy() {}

    public static final int ACL_MEM_MALLOC_HUGE_FIRST = 0;
    public static final int ACL_MEM_MALLOC_HUGE_ONLY = 1;
    public static final int ACL_MEM_MALLOC_NORMAL_ONLY = 2;
}
