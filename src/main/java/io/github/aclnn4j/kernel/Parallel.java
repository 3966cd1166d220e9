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
 * Work is a range of independent tasks, handed out one index at a time to the calling thread and
 * up to {@code threads − 1} pool workers; which thread runs a task never changes what it computes,
 * so results are identical for any thread count. Sized by {@code -Daclnn4j.threads} (default: the
 * number of cores); work below {@link #MIN_PARALLEL_ELEMENTS} stays on the calling thread.
 */
public final class Parallel {
    /** Below this many elements a second thread costs more than it saves. */
    public static final long MIN_PARALLEL_ELEMENTS = 1 << 15;

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
     * Runs {@code task.accept(i)} for every i in [0, tasks), in parallel when the total work
     * ({@code tasks · elementsPerTask}) is worth it. Returns when all have run; rethrows the first
     * failure.
     */
    public static void forEach(long tasks, long elementsPerTask, LongConsumer task) {
        Pool p = pool;
        long helpers = Math.min(p.threads() - 1, tasks - 1);
        if (helpers <= 0 || tasks * (double) elementsPerTask < MIN_PARALLEL_ELEMENTS) {
            for (long i = 0; i < tasks; i++) {
                task.accept(i);
            }
            return;
        }
        Job job = new Job(tasks, task, (int) helpers);
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
        final LongConsumer task;
        final AtomicLong next = new AtomicLong();
        final CountDownLatch done;
        volatile Throwable failure;

        Job(long tasks, LongConsumer task, int helpers) {
            this.tasks = tasks;
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
                for (long i; failure == null && (i = next.getAndIncrement()) < tasks; ) {
                    task.accept(i);
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
