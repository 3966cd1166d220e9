package io.github.aclnn4j.acl;

/** The C enum {@code aclFormat}: the layout tag of a tensor. */
public final class AclFormat {
    private AclFormat() {}

    /** No format. */
    public static final int ACL_FORMAT_UNDEFINED = -1;
    /** Batch, channels, height, width. */
    public static final int ACL_FORMAT_NCHW = 0;
    /** Batch, height, width, channels (channels last). */
    public static final int ACL_FORMAT_NHWC = 1;
    /** Any number of dimensions with no layout meaning; the usual tag. */
    public static final int ACL_FORMAT_ND = 2;
    /** NPU private 5-D layout: channels split into C1 blocks of C0. */
    public static final int ACL_FORMAT_NC1HWC0 = 3;
    /** NPU private layout of convolution weights. */
    public static final int ACL_FORMAT_FRACTAL_Z = 4;
    /** NPU private layout: {@link #ACL_FORMAT_NC1HWC0} with C0 = 4. */
    public static final int ACL_FORMAT_NC1HWC0_C04 = 12;
    /** Height, width, channels, N. */
    public static final int ACL_FORMAT_HWCN = 16;
    /** Batch, depth, height, width, channels (channels last). */
    public static final int ACL_FORMAT_NDHWC = 27;
    /** NPU private layout of matrices in fractal blocks. */
    public static final int ACL_FORMAT_FRACTAL_NZ = 29;
    /** Batch, channels, depth, height, width. */
    public static final int ACL_FORMAT_NCDHW = 30;
    /** NPU private 6-D layout: {@link #ACL_FORMAT_NC1HWC0} with a depth dimension. */
    public static final int ACL_FORMAT_NDC1HWC0 = 32;
    /** NPU private layout of 3-D convolution weights. */
    public static final int ACL_FRACTAL_Z_3D = 33;
    /** Alias of {@link #ACL_FRACTAL_Z_3D}, whose C name lacks the {@code FORMAT_} part. */
    public static final int ACL_FORMAT_FRACTAL_Z_3D = ACL_FRACTAL_Z_3D;
    /** Batch, channels. */
    public static final int ACL_FORMAT_NC = 35;
    /** Batch, channels, length. */
    public static final int ACL_FORMAT_NCL = 47;
}
