/**
 * The calling examples of the five operator documents, ported to layer 1 line by line so they can
 * be read side by side with the C++, and examples in their style for forward operators (whose C
 * twins are in native/test/examples). The mechanical conventions: {@code CHECK_RET(cond, expr)} is a
 * one-line {@code if}; {@code LOG_PRINT} is {@code printf} with {@link java.util.Locale#ROOT} so the
 * numbers print as C prints them; an {@code aclTensor**} out-parameter is a one-element
 * {@code AclTensor[]}; {@code main} is {@code run()}, returning what {@code main} returns.
 * {@link io.github.aclnn4j.demo.Demo} runs them all.
 */
package io.github.aclnn4j.demo;
