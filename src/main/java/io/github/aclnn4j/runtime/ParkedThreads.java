package io.github.aclnn4j.runtime;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Daemon threads that run one task at a time and wait parked for the next. Handing a task to an
 * idle thread allocates nothing (a {@code ThreadPoolExecutor} allocates a queue node for each);
 * a thread starts when none is idle and ends after {@link #KEEP_ALIVE_NANOS} without work, so an
 * idle library soon holds no thread. As in {@code ThreadPoolExecutor}, every task starts with its
 * thread's interrupt status clear: an interrupt belongs to the task that received it.
 */
final class ParkedThreads {
    private static final long KEEP_ALIVE_NANOS = 30_000_000_000L;

    private final String name;
    private final AtomicInteger started = new AtomicInteger();
    /** The idle threads, a stack: the most recently idle is the likeliest to be on a core. */
    private Carrier[] idle = new Carrier[4];
    private int idleCount;

    ParkedThreads(String name) {
        this.name = name;
    }

    /**
     * Runs {@code task} on an idle thread, or on a new one. Returns false, and runs nothing, when
     * no thread could be started.
     */
    boolean execute(Runnable task) {
        Carrier carrier;
        synchronized (this) {
            carrier = idleCount == 0 ? null : idle[--idleCount];
            if (carrier != null) {
                idle[idleCount] = null;
                carrier.task = task;
            }
        }
        if (carrier != null) {
            LockSupport.unpark(carrier);
            return true;
        }
        try {
            new Carrier(task).start();
            return true;
        } catch (OutOfMemoryError noThread) { // the system's thread limit
            return false;
        }
    }

    private final class Carrier extends Thread {
        /** The task handed over while idle; guarded by the pool. */
        private Runnable task;

        Carrier(Runnable first) {
            super(name + "-" + started.incrementAndGet());
            setDaemon(true);
            task = first;
        }

        @Override
        public void run() {
            Runnable next;
            synchronized (ParkedThreads.this) {
                next = task;
            }
            while (next != null) {
                Thread.interrupted(); // a task never inherits the interrupt of the one before
                try {
                    next.run();
                } catch (Throwable ignored) { // a task reports its own failures; the thread stays usable
                }
                next = null; // an idle thread keeps nothing reachable (a stream, through its driver)
                next = awaitTask();
            }
        }

        /** Waits idle for the next task; null when none came within the keep-alive time. */
        private Runnable awaitTask() {
            long deadline = System.nanoTime() + KEEP_ALIVE_NANOS;
            synchronized (ParkedThreads.this) {
                task = null;
                if (idleCount == idle.length) {
                    idle = Arrays.copyOf(idle, 2 * idle.length);
                }
                idle[idleCount++] = this;
            }
            while (true) {
                long left = deadline - System.nanoTime();
                synchronized (ParkedThreads.this) {
                    if (task != null) {
                        return task;
                    }
                    if (left <= 0) {
                        removeIdle(this);
                        return null;
                    }
                }
                Thread.interrupted(); // else parkNanos returns at once: an idle thread would spin
                LockSupport.parkNanos(this, left);
            }
        }
    }

    /** Removes {@code carrier} from the idle stack; the caller holds the pool's lock. */
    private void removeIdle(Carrier carrier) {
        for (int i = 0; i < idleCount; i++) {
            if (idle[i] == carrier) {
                System.arraycopy(idle, i + 1, idle, i, idleCount - i - 1);
                idle[--idleCount] = null;
                return;
            }
        }
    }
}
