package io.github.aclnn4j.runtime;

/**
 * An {@code aclrtEvent}: a point in a stream's work. Each {@link #record} takes the next
 * generation; the stream completes that generation when its work reaches the record, and notes the
 * time. A wait (by the host or by another stream) waits for the generation recorded last when the
 * wait was asked for, so an event never recorded is complete and waiting on it returns at once.
 */
public final class Event {
    private long recorded;
    private long completed;
    private long completedNanos;
    private boolean destroyed;

    /** Takes the next generation, which the stream's record task then completes. */
    synchronized long record(String function) {
        requireLive(function);
        return ++recorded;
    }

    /** Run by the stream when its work reaches the record of {@code generation}. */
    synchronized void complete(long generation) {
        if (generation > completed) {
            completed = generation;
            completedNanos = System.nanoTime();
        }
        notifyAll();
    }

    /** The generation a wait asked for now must reach: the one recorded last. */
    public synchronized long lastRecorded(String function) {
        requireLive(function);
        return recorded;
    }

    /** Whether the work before the last record has run (true for an event never recorded). */
    public synchronized boolean isComplete(String function) {
        requireLive(function);
        return completed >= recorded;
    }

    /** Blocks until {@code generation} is complete; an interrupt is kept for the caller. */
    public synchronized void await(long generation) {
        boolean interrupted = false;
        while (completed < generation) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The time its last record ran, in {@link System#nanoTime()} units; fails unless recorded and complete. */
    public synchronized long completedNanos(String function, String name) {
        requireLive(function);
        if (recorded == 0) {
            throw Status.aclInvalid(function + ": " + name + " was never recorded (aclrtRecordEvent)");
        }
        if (completed < recorded) {
            throw Status.aclInvalid(function + ": " + name + " is not complete yet: the work before its record has "
                    + "not run (aclrtSynchronizeEvent first)");
        }
        return completedNanos;
    }

    public synchronized void destroy(String function) {
        requireLive(function);
        destroyed = true;
    }

    private void requireLive(String function) {
        if (destroyed) {
            throw Status.aclInvalid(function + ": the event was destroyed (aclrtDestroyEvent)");
        }
    }

    /** Enqueues a record of this event on {@code stream}. */
    public void recordOn(String function, Stream stream) {
        long generation = record(function);
        try {
            stream.submit(ws -> complete(generation), java.lang.foreign.MemorySegment.NULL, true);
        } catch (Failure refused) { // a stream destroyed meanwhile: nothing may wait for this record
            complete(generation);
            throw refused;
        }
    }

    /** Makes {@code stream}'s later work wait for the record this event has now. */
    public void awaitOn(String function, Stream stream) {
        long generation = lastRecorded(function);
        if (generation > 0) { // never run inline: it would block the caller, not the stream
            stream.submit(ws -> await(generation), java.lang.foreign.MemorySegment.NULL, false);
        }
    }
}
