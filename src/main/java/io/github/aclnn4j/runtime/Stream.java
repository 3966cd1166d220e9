package io.github.aclnn4j.runtime;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * An in-order asynchronous queue of device work ({@code aclrtStream}). Tasks run one after the
 * other, in submission order, on a driver thread borrowed from a shared pool while the stream has
 * work; an idle stream holds no thread. The first failure of a task is kept and handed to the next
 * {@link #synchronize()}, after which the stream is usable again.
 */
public final class Stream {
    /**
     * One unit of device work. It reports a run-time failure by throwing {@link Failure}. It takes
     * its workspace when it runs, so that the same object can be queued again and again without a
     * capturing wrapper around it (phase 2 allocates nothing).
     */
    @FunctionalInterface
    public interface Work {
        void run(MemorySegment workspace);
    }

    private static final ParkedThreads DRIVERS = new ParkedThreads("aclnn4j-stream");

    private final int deviceId;
    private final boolean isDefault;
    /** Queued work, with its workspace at the same place in {@link #workspaces}. */
    private final ArrayDeque<Work> queue = new ArrayDeque<>();
    private final ArrayDeque<MemorySegment> workspaces = new ArrayDeque<>();
    private boolean driving;
    private boolean destroyed;
    /** Tasks taken and tasks finished since the stream was made: what a {@link Fence} waits on. */
    private long submitted;
    private long finished;
    private Failure firstFailure;
    /** What a driver thread runs: made once, so that a hand-off allocates nothing. */
    private final Runnable driver = new Runnable() { // a class, not a lambda to spin at the first stream
        @Override
        public void run() {
            drain(false);
        }
    };

    Stream(int deviceId, boolean isDefault) {
        this.deviceId = deviceId;
        this.isDefault = isDefault;
    }

    public int deviceId() {
        return deviceId;
    }

    public boolean isDefault() {
        return isDefault;
    }

    public synchronized boolean isDestroyed() {
        return destroyed;
    }

    /**
     * Enqueues {@code work} with its workspace; it runs after everything submitted before it or,
     * when it is {@code small} and the stream is idle, at once on the calling thread: the order is
     * the same and a tiny call saves two thread hand-offs.
     */
    public void submit(Work work, MemorySegment workspace, boolean small) {
        synchronized (this) {
            if (destroyed) {
                throw new Failure(Status.ACL_INVALID_PARAM, "the stream was destroyed");
            }
            queue.addLast(work);
            workspaces.addLast(workspace);
            submitted++;
            if (driving) {
                return;
            }
            driving = true;
        }
        if (small) {
            drain(true);
            return;
        }
        startDriver();
    }

    private void startDriver() {
        if (!DRIVERS.execute(driver)) { // no thread could be started: run here, keeping order
            drain(false);
        }
    }

    /**
     * Runs queued tasks in order. On the caller's thread ({@code inline}) it runs only the task the
     * caller submitted: whatever other threads queued meanwhile goes to a driver thread, so a small
     * call never waits for someone else's work.
     */
    private void drain(boolean inline) {
        while (true) {
            Work work;
            MemorySegment workspace;
            synchronized (this) {
                work = queue.peekFirst();
                workspace = workspaces.peekFirst();
                if (work == null) {
                    driving = false;
                    notifyAll();
                    return;
                }
            }
            Failure failure = runGuarded(work, workspace);
            synchronized (this) {
                queue.pollFirst();
                workspaces.pollFirst();
                finished++;
                if (failure != null && firstFailure == null) {
                    firstFailure = failure;
                }
                if (inline && !queue.isEmpty()) {
                    break;
                }
            }
        }
        startDriver(); // still driving: the flag passes to the driver
    }

    private static Failure runGuarded(Work work, MemorySegment workspace) {
        try {
            work.run(workspace);
            return null;
        } catch (Failure f) {
            return f.status() == Status.RUNTIME_ERROR ? f : new Failure(Status.RUNTIME_ERROR, f.getMessage());
        } catch (IllegalStateException e) { // memory freed under a running kernel
            return new Failure(Status.RUNTIME_ERROR, "device memory was freed while a task was using it: " + e.getMessage());
        } catch (Throwable t) {
            return new Failure(Status.RUNTIME_ERROR, "internal error in a device task: " + t);
        }
    }

    /**
     * Waits until everything submitted so far has run. Returns the first failure since the last
     * synchronize (and forgets it), or null.
     */
    public Failure synchronize() {
        boolean interrupted = false;
        synchronized (this) {
            while (driving) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            Failure failure = firstFailure;
            firstFailure = null;
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return failure;
        }
    }

    /** How many tasks this stream has taken so far, if some of them have not finished; else -1. */
    synchronized long unfinishedUpTo() {
        return finished < submitted ? submitted : -1;
    }

    /** Whether the first {@code count} tasks this stream took have finished. */
    synchronized boolean hasFinished(long count) {
        return finished >= count;
    }

    /** Refuses any more work, then waits for what was queued; returns its first failure. */
    Failure destroy() {
        synchronized (this) {
            destroyed = true;
        }
        return synchronize();
    }
}
