/**
 * The emulated device runtime: devices, memory blocks (device and host), in-order streams,
 * contexts, init/finalize state, the SoC profile, status codes and the per-thread error message.
 * Depends on the JDK only.
 */
package io.github.aclnn4j.runtime;
