package io.github.aclnn4j.acl;

/**
 * The C enum {@code aclrtMemMallocPolicy}. On the CPU device, the two huge-page policies map blocks
 * of 2 MB and more on the kernel's transparent huge pages (Linux, with native access enabled for
 * this library: {@code --enable-native-access=io.github.aclnn4j}, or {@code ALL-UNNAMED} on the
 * class path; {@code -Daclnn4j.hugePages=false} turns it off), where large operator calls run faster;
 * otherwise, and for {@code ACL_MEM_MALLOC_NORMAL_ONLY}, blocks use normal pages. HUGE_ONLY cannot
 * fail for want of huge pages here: the kernel takes the request as advice and may back any page
 * with a normal one, which behaves the same.
 */
public final class AclrtMemMallocPolicy {
    private AclrtMemMallocPolicy() {}

    /** Huge pages where possible, else normal pages. */
    public static final int ACL_MEM_MALLOC_HUGE_FIRST = 0;
    /** In CANN, huge pages only; here the same as {@link #ACL_MEM_MALLOC_HUGE_FIRST}. */
    public static final int ACL_MEM_MALLOC_HUGE_ONLY = 1;
    /** Normal pages only. */
    public static final int ACL_MEM_MALLOC_NORMAL_ONLY = 2;
}
