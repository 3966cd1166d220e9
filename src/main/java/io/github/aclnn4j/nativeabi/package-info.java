/**
 * The Java half of the drop-in CANN C ABI ({@code native/} builds the C half): libascendcl,
 * libnnopbase and libopapi start a JVM on first use and call, through JNI, the static methods of
 * {@link io.github.aclnn4j.nativeabi.RuntimeEntries}, {@link io.github.aclnn4j.nativeabi.TensorEntries}
 * and {@link io.github.aclnn4j.nativeabi.OperatorEntries}, one per C function and named like it.
 * Every entry forwards to layer 1; C pointers arrive as {@code long} addresses and C handles as
 * opaque ids of {@link io.github.aclnn4j.nativeabi.Handles}. Not exported: it is reached from C only.
 */
package io.github.aclnn4j.nativeabi;
