/**
 * Layer 1: the CANN C API mirrored mechanically ({@code aclXxx} → {@link io.github.aclnn4j.acl.Acl},
 * {@code aclrtXxx} → {@link io.github.aclnn4j.acl.AclRt}, {@code aclnnXxx} →
 * {@link io.github.aclnn4j.acl.Aclnn}), with its constants, handles and {@link io.github.aclnn4j.acl.Pointer}.
 * Every method returns the C status (or handle, null on failure) and never throws; the recent
 * message says why. This package only translates: it unwraps handles and calls the layers below.
 */
package io.github.aclnn4j.acl;
