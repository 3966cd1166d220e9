package io.github.aclnn4j.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The library's own compute threads (the common ForkJoin pool has a single thread on two cores).
 * Work is a range of independent tasks, cut into one consecutive share per thread: the calling
 * thread starts on the first, the k-th worker it recruits on share k, and a thread done with its
 * own takes what is left of the others', in runs of consecutive indices; which thread runs a task
 * never changes what it computes, so results are identical for any thread count. As a thread
 * starts on the same share call after call, a long-running program's calls on data that fits the
 * caches find each part in the core that touched it last (PReLU forward on 2^18 elements, two
 * threads: median 0.030 → 0.018 ms, against runs handed out first come, first served). A run covers about
 * {@link #RUN_ELEMENTS} elements: consecutive tasks touch consecutive memory, and a thread that
 * streams through a long stretch keeps the hardware prefetchers going, where one that hops between
 * short blocks restarts them (measured: a quarter of the time of a memory-bound kernel). Sized by
 * {@code -Daclnn4j.threads} (default: the number of cores); work below
 * {@link #MIN_PARALLEL_ELEMENTS} stays on the calling thread.
 *
 * <p>{@link #forEach} allocates nothing: each worker is a daemon thread with a one-job mailbox,
 * which it watches for {@link #IDLE_SPIN_NANOS} after a job and then parks on while it is empty
 * (it lives as long as its pool, costing no CPU once parked), and each calling thread reuses one
 * job. A caller never waits for a worker that has not started: once the caller has run out of
 * tasks it takes its offers back from the workers still waking up, so a call that wakes a parked
 * worker costs the wake-up signal, not the tens of microseconds the worker takes to get going
 * (and the worker, awake, watches for the next call). Callers running at the same time share the
 * workers: a caller takes the idle ones, and with none idle runs its tasks alone. A task may call forEach again; on the
 * thread that made the outer call, the inner tasks run on that thread alone.
 */
public final class Parallel {
    /** Below this many elements a second thread costs more than it saves. */
    public static final long MIN_PARALLEL_ELEMENTS = 1 << 15;
    /** Elements a thread takes at a time, when there are enough runs to keep every thread busy. */
    static final long RUN_ELEMENTS = 1 << 16;
    /** Runs per thread at least, so that the threads finish together. */
    private static final long RUNS_PER_THREAD = 4;
    /** Checks of its helpers a caller spins through before it parks: they usually finish together. */
    private static final int SPINS = 1 << 10;
    /** How long an idle worker waits for the next job on its core before it parks. */
    private static final long IDLE_SPIN_NANOS = 50_000;

    private static final AtomicInteger WORKER_COUNT = new AtomicInteger();
    /** Runs taken by workers rather than by the calling thread, summed once per job per worker. */
    private static final AtomicLong WORKER_RUNS = new AtomicLong();
    private static final ThreadLocal<Job> JOBS = new ThreadLocal<>() { // a class, not a lambda to spin at the first call
        @Override
        protected Job initialValue() {
            return new Job();
        }
    };
    private static volatile Pool pool = new Pool(Integer.getInteger("aclnn4j.threads",
            Runtime.getRuntime().availableProcessors()));

    private Parallel() {}

    /**
     * The independent tasks of one kernel call, numbered from 0. A kernel object built by phase 1
     * implements it; what differs between launches comes in as arguments, so that the object can
     * serve launches on several streams at once.
     */
    @FunctionalInterface
    public interface Tasks {
        /** Runs task {@code index}; {@code workspace} is the launch's workspace. */
        void task(long index, MemorySegment workspace);
    }

    public static int threads() {
        return pool.threads();
    }

    /**
     * How many runs of tasks the workers, not the calling threads, have taken since the JVM
     * started: it grows only when a call's work was really split across threads.
     */
    public static long workerRuns() {
        return WORKER_RUNS.get();
    }

    /** Replaces the pool with one of {@code threads} threads (for tests of thread-count independence). */
    public static synchronized void setThreads(int threads) {
        Pool old = pool;
        pool = new Pool(threads);
        old.shutdown();
    }

    /** Whether {@link #forEach} runs this work on the calling thread alone. */
    private static boolean serial(long tasks, long elementsPerTask) {
        return pool.threads() <= 1 || tasks <= 1 || tasks * (double) elementsPerTask < MIN_PARALLEL_ELEMENTS;
    }

    /**
     * Runs {@code body.task(i, workspace)} for every i in [0, tasks), in parallel when the total
     * work ({@code tasks · elementsPerTask}) is worth it. Returns when all have run; rethrows the
     * first failure.
     */
    public static void forEach(long tasks, long elementsPerTask, Tasks body, MemorySegment workspace) {
        Pool p = pool;
        Job job = JOBS.get();
        // small, called from a task, or a cold call on its plain-Java path (Warmup.plainCall): no helpers
        if (serial(tasks, elementsPerTask) || job.body != null || Warmup.plainCall()) {
            for (long i = 0; i < tasks; i++) {
                body.task(i, workspace);
            }
            return;
        }
        long run = Math.max(1, Math.min(RUN_ELEMENTS / Math.max(1, elementsPerTask),
                tasks / (p.threads() * RUNS_PER_THREAD)));
        job.start(tasks, run, p.threads(), body, workspace);
        try {
            p.recruit(job, tasks - 1);
            job.work(0);
            job.finish();
        } finally {
            job.clear();
        }
    }

    /** The workers of one thread count. */
    private static final class Pool {
        private final int threads;
        private final Worker[] workers;

        Pool(int threads) {
            this.threads = Math.max(1, threads);
            workers = new Worker[this.threads - 1];
            for (int i = 0; i < workers.length; i++) {
                workers[i] = new Worker();
            }
        }

        int threads() {
            return threads;
        }

        /**
         * Gives {@code job} to idle workers, at most {@code wanted} of them; the k-th recruited
         * takes the job's share k (the caller's is 0).
         */
        void recruit(Job job, long wanted) {
            job.helpers(workers.length);
            for (int i = 0; i < workers.length && job.helperCount < wanted; i++) {
                if (workers[i].offer(job, job.helperCount + 1)) {
                    job.helpers[job.helperCount++] = workers[i];
                }
            }
        }

        void shutdown() {
            for (Worker w : workers) {
                w.stop();
            }
        }
    }

    /**
     * A compute thread with a one-job mailbox: null when idle, the job while it is offered,
     * {@link #RUNNING} once the worker has taken it (until then the caller may take it back).
     */
    private static final class Worker implements Runnable {
        private static final VarHandle MAILBOX;
        /** In the mailbox of a stopped worker: no job can be offered to it any more. */
        private static final Job STOPPED = new Job();
        /** In the mailbox while the worker runs a job it has taken. */
        private static final Job RUNNING = new Job();

        static {
            try {
                MAILBOX = MethodHandles.lookup().findVarHandle(Worker.class, "mailbox", Job.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Thread thread;
        /** The share of the job in the mailbox this worker starts on; written before the job is. */
        private int share;
        private volatile Job mailbox;
        private volatile boolean stopping;

        Worker() {
            thread = new Thread(this, "aclnn4j-worker-" + WORKER_COUNT.incrementAndGet());
            thread.setDaemon(true);
            thread.start();
        }

        /** Hands {@code job} to this worker if it is idle, to start on its share {@code share}. */
        boolean offer(Job job, int share) {
            this.share = share;
            job.joined();
            if (!MAILBOX.compareAndSet(this, (Job) null, job)) {
                job.left();
                return false;
            }
            LockSupport.unpark(thread);
            return true;
        }

        /** Takes back {@code job} if this worker has not started on it yet: true if it had not. */
        boolean withdraw(Job job) {
            return MAILBOX.compareAndSet(this, job, (Job) null);
        }

        /**
         * Spins up to {@link #IDLE_SPIN_NANOS} for the next offer: true if one came. A program's
         * calls come back to back, and a parked thread takes tens of microseconds to wake.
         */
        private boolean awaitOffer() {
            long start = System.nanoTime();
            while (mailbox == null && !stopping) {
                if (System.nanoTime() - start > IDLE_SPIN_NANOS) {
                    return false;
                }
                Thread.onSpinWait();
            }
            return true;
        }

        void stop() {
            stopping = true;
            LockSupport.unpark(thread);
        }

        @Override
        public void run() {
            while (true) {
                Job job = mailbox;
                if (job == null) {
                    if (stopping && MAILBOX.compareAndSet(this, (Job) null, STOPPED)) {
                        return;
                    }
                    if (!awaitOffer()) {
                        LockSupport.park(this);
                    }
                } else if (MAILBOX.compareAndSet(this, job, RUNNING)) { // fails if the caller took it back
                    long runs = job.work(share);
                    if (runs > 0) {
                        WORKER_RUNS.addAndGet(runs);
                    }
                    mailbox = null; // idle again before the caller can see the job done and offer the next
                    job.left();
                }
            }
        }
    }

    /**
     * One forEach call, reused by its calling thread for the next. {@code pending} counts the
     * threads still working on it: the caller, and each worker from its offer until it is idle again.
     */
    private static final class Job {
        /** Longs between two shares' cursors, so that each has a cache line pair of its own. */
        private static final int PAD = 16;
        private final AtomicInteger pending = new AtomicInteger();
        private final Thread caller = Thread.currentThread();
        /** Per share, the next task its runs start from; grows with the thread count. */
        private AtomicLongArray cursors = new AtomicLongArray(0);
        /** The workers this call was offered to, {@code helperCount} of them. */
        private Worker[] helpers = new Worker[0];
        private int helperCount;
        private int shares;
        private long tasks;
        private long run;
        private Tasks body;
        private MemorySegment workspace;
        /** The caller's {@link Warmup#callBits}: helpers take the loops the call takes (plain Java while cold). */
        private int call;
        private volatile Throwable failure;

        void start(long tasks, long run, int shares, Tasks body, MemorySegment workspace) {
            this.tasks = tasks;
            this.run = run;
            this.shares = shares;
            this.body = body;
            this.workspace = workspace;
            call = Warmup.callBits();
            failure = null;
            if (cursors.length() < shares * PAD) {
                cursors = new AtomicLongArray(shares * PAD);
            }
            for (int k = 0; k < shares; k++) {
                cursors.set(k * PAD, shareStart(k));
            }
            pending.set(1);
        }

        /** Makes room for {@code workers} helpers and forgets the last call's. */
        void helpers(int workers) {
            if (helpers.length < workers) {
                helpers = new Worker[workers];
            }
            helperCount = 0;
        }

        /** The first task of share {@code k}: the shares cut the tasks into equal consecutive ranges. */
        private long shareStart(int k) {
            return tasks * k / shares; // tasks times threads stays far below 2^63
        }

        void joined() {
            pending.incrementAndGet();
        }

        void left() {
            if (pending.decrementAndGet() == 0) {
                LockSupport.unpark(caller);
            }
        }

        /**
         * Takes runs of share {@code home} until it has none left, then of the other shares in
         * turn (those of threads that came late or not at all); returns how many it took. A thread
         * starts on the same share call after call, so a call over data that stays in the caches
         * finds its part in its own core's.
         */
        long work(int home) {
            long runs = 0;
            int own = Warmup.enterCall(call);
            try {
                for (int k = home, taken = 0; taken < shares && failure == null; taken++, k = k + 1 == shares ? 0 : k + 1) {
                    long end = k + 1 == shares ? tasks : shareStart(k + 1);
                    for (long first; failure == null && (first = cursors.getAndAdd(k * PAD, run)) < end; runs++) {
                        for (long i = first, last = Math.min(end, first + run); i < last && failure == null; i++) {
                            body.task(i, workspace);
                        }
                    }
                }
            } catch (Throwable t) {
                failure = t;
            } finally {
                Warmup.enterCall(own);
            }
            return runs;
        }

        /**
         * The caller's part done, so no task is left to start: takes the offer back from workers
         * that have not started, waits for the others, then rethrows the first failure.
         */
        void finish() {
            for (int i = 0; i < helperCount; i++) {
                if (helpers[i].withdraw(this)) {
                    pending.decrementAndGet();
                }
            }
            if (pending.decrementAndGet() != 0) {
                for (int spin = 0; pending.get() != 0; spin++) {
                    if (spin < SPINS) {
                        Thread.onSpinWait();
                    } else {
                        LockSupport.park(this); // returns early on an interrupt, whose status stays set
                    }
                }
            }
            Throwable t = failure;
            if (t instanceof RuntimeException re) {
                throw re;
            }
            if (t instanceof Error er) {
                throw er;
            }
        }

        /** Forgets the call's objects, so that an idle thread keeps no kernel or memory reachable. */
        void clear() {
            body = null;
            workspace = null;
            Arrays.fill(helpers, 0, helperCount, null);
            helperCount = 0;
        }
    }
}
