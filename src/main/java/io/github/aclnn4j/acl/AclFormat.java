package io.github.aclnn4j.acl;

/** The C enum {@code aclFormat}: the layout tag of a tensor. */
public final class AclFormat {
    private AclFormat() {}

    public static final int ACL_FORMAT_UNDEFINED = -1;
    public static final int ACL_FORMAT_NCHW = 0;
    public static final int ACL_FORMAT_NHWC = 1;
    public static final int ACL_FORMAT_ND = 2;
    public static final int ACL_FORMAT_NC1HWC0 = 3;
    public static final int ACL_FORMAT_FRACTAL_Z = 4;
    public static final int ACL_FORMAT_NC1HWC0_C04 = 12;
    public static final int ACL_FORMAT_HWCN = 16;
    public static final int ACL_FORMAT_NDHWC = 27;
    public static final int ACL_FORMAT_FRACTAL_NZ = 29;
    public static final int ACL_FORMAT_NCDHW = 30;
    public static final int ACL_FORMAT_NDC1HWC0 = 32;
    public static final int ACL_FRACTAL_Z_3D = 33;
    /** Alias of {@link #ACL_FRACTAL_Z_3D}, whose C name lacks the {@code FORMAT_} part. */
    public static final int ACL_FORMAT_FRACTAL_Z_3D = ACL_FRACTAL_Z_3D;
    public static final int ACL_FORMAT_NC = 35;
    public static final int ACL_FORMAT_NCL = 47;
}
