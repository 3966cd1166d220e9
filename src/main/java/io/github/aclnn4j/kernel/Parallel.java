package io.github.aclnn4j.kernel;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The library's own compute threads (the common ForkJoin pool has a single thread on two cores).
 * Work is a range of independent tasks, handed out in runs of consecutive indices to the calling
 * thread and up to {@code threads − 1} pool workers; which thread runs a task never changes what it
 * computes, so results are identical for any thread count. A run covers about
 * {@link #RUN_ELEMENTS} elements: consecutive tasks touch consecutive memory, and a thread that
 * streams through a long stretch keeps the hardware prefetchers going, where one that hops between
 * short blocks restarts them (measured: a quarter of the time of a memory-bound kernel). Sized by
 * {@code -Daclnn4j.threads} (default: the number of cores); work below
 * {@link #MIN_PARALLEL_ELEMENTS} stays on the calling thread.
 */
public final class Parallel {
    /** Below this many elements a second thread costs more than it saves. */
    public static final long MIN_PARALLEL_ELEMENTS = 1 << 15;
    /** Elements a thread takes at a time, when there are enough runs to keep every thread busy. */
    static final long RUN_ELEMENTS = 1 << 16;
    /** Runs per thread at least, so that the threads finish together. */
    private static final long RUNS_PER_THREAD = 4;

    private static final AtomicInteger WORKER_COUNT = new AtomicInteger();
    private static volatile Pool pool = new Pool(Integer.getInteger("aclnn4j.threads",
            Runtime.getRuntime().availableProcessors()));

    private Parallel() {}

    private record Pool(int threads, ExecutorService workers) {
        Pool(int threads) {
            this(Math.max(1, threads), threads <= 1 ? null : new ThreadPoolExecutor(threads - 1, threads - 1,
                    60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, "aclnn4j-worker-" + WORKER_COUNT.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    }));
            if (workers != null) {
                ((ThreadPoolExecutor) workers).allowCoreThreadTimeOut(true);
            }
        }
    }

    public static int threads() {
        return pool.threads();
    }

    /** Replaces the pool with one of {@code threads} threads (for tests of thread-count independence). */
    public static synchronized void setThreads(int threads) {
        Pool old = pool;
        pool = new Pool(threads);
        if (old.workers() != null) {
            old.workers().shutdown();
        }
    }

    /**
     * Whether {@link #forEach} would run this work on the calling thread alone. A kernel that asks
     * first can then loop itself and skip building a task object: a small call allocates nothing.
     */
    public static boolean serial(long tasks, long elementsPerTask) {
        return pool.threads() <= 1 || tasks <= 1 || tasks * (double) elementsPerTask < MIN_PARALLEL_ELEMENTS;
    }

    /**
     * Runs {@code task.accept(i)} for every i in [0, tasks), in parallel when the total work
     * ({@code tasks · elementsPerTask}) is worth it. Returns when all have run; rethrows the first
     * failure.
     */
    public static void forEach(long tasks, long elementsPerTask, LongConsumer task) {
        Pool p = pool;
        long helpers = Math.min(p.threads() - 1, tasks - 1);
        if (serial(tasks, elementsPerTask)) {
            for (long i = 0; i < tasks; i++) {
                task.accept(i);
            }
            return;
        }
        long run = Math.max(1, Math.min(RUN_ELEMENTS / Math.max(1, elementsPerTask),
                tasks / (p.threads() * RUNS_PER_THREAD)));
        Job job = new Job(tasks, run, task, (int) helpers);
        for (int h = 0; h < helpers; h++) {
            try {
                p.workers().execute(job::help);
            } catch (RuntimeException rejected) { // pool replaced meanwhile: the caller does the rest
                job.done.countDown();
            }
        }
        job.work();
        job.await();
    }

    private static final class Job {
        final long tasks;
        final long run;
        final LongConsumer task;
        final AtomicLong next = new AtomicLong();
        final CountDownLatch done;
        volatile Throwable failure;

        Job(long tasks, long run, LongConsumer task, int helpers) {
            this.tasks = tasks;
            this.run = run;
            this.task = task;
            this.done = new CountDownLatch(helpers);
        }

        void help() {
            try {
                work();
            } finally {
                done.countDown();
            }
        }

        void work() {
            try {
                for (long first; failure == null && (first = next.getAndAdd(run)) < tasks; ) {
                    for (long i = first, end = Math.min(tasks, first + run); i < end && failure == null; i++) {
                        task.accept(i);
                    }
                }
            } catch (Throwable t) {
                failure = t;
            }
        }

        void await() {
            boolean interrupted = false;
            while (true) {
                try {
                    done.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            Throwable t = failure;
            if (t instanceof RuntimeException re) {
                throw re;
            }
            if (t instanceof Error er) {
                throw er;
            }
        }
    }
}
