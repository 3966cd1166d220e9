package io.github.aclnn4j.acl;

/**
 * The C enum {@code aclrtMemAttr} of {@code aclrtGetMemInfo}. The CPU device has one kind of
 * memory: every attribute reports the same capacity and free bytes.
 */
public final class AclrtMemAttr {
    private AclrtMemAttr() {}

    /** DDR memory, huge and normal pages. */
    public static final int ACL_DDR_MEM = 0;
    /** HBM memory, huge and normal pages. */
    public static final int ACL_HBM_MEM = 1;
    /** DDR memory on huge pages. */
    public static final int ACL_DDR_MEM_HUGE = 2;
    /** DDR memory on normal pages. */
    public static final int ACL_DDR_MEM_NORMAL = 3;
    /** HBM memory on huge pages. */
    public static final int ACL_HBM_MEM_HUGE = 4;
    /** HBM memory on normal pages. */
    public static final int ACL_HBM_MEM_NORMAL = 5;
    /** DDR peer-to-peer memory on huge pages. */
    public static final int ACL_DDR_MEM_P2P_HUGE = 6;
    /** DDR peer-to-peer memory on normal pages. */
    public static final int ACL_DDR_MEM_P2P_NORMAL = 7;
    /** HBM peer-to-peer memory on huge pages. */
    public static final int ACL_HBM_MEM_P2P_HUGE = 8;
    /** HBM peer-to-peer memory on normal pages. */
    public static final int ACL_HBM_MEM_P2P_NORMAL = 9;
    /** HBM memory on 1 GB pages. */
    public static final int ACL_HBM_MEM_HUGE1G = 10;
    /** HBM peer-to-peer memory on 1 GB pages. */
    public static final int ACL_HBM_MEM_P2P_HUGE1G = 11;
    /** Device memory on normal pages. */
    public static final int ACL_MEM_NORMAL = 12;
    /** Device memory on huge pages. */
    public static final int ACL_MEM_HUGE = 13;
    /** Device memory on 1 GB pages. */
    public static final int ACL_MEM_HUGE1G = 14;
    /** Peer-to-peer memory on normal pages. */
    public static final int ACL_MEM_P2P_NORMAL = 15;
    /** Peer-to-peer memory on huge pages. */
    public static final int ACL_MEM_P2P_HUGE = 16;
    /** Peer-to-peer memory on 1 GB pages. */
    public static final int ACL_MEM_P2P_HUGE1G = 17;
}
