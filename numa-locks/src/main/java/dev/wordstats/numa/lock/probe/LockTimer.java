package dev.wordstats.numa.lock.probe;

import dev.wordstats.numa.lock.Guard;

/**
 * Receives wait and hold times from a {@link CountingProbe}, which passes on each
 * {@link LockProbe#released} call: on the releasing thread right after the release, or on the caller's
 * thread after its {@code call} returns. Either way outside the critical section, so an implementation
 * may record into a histogram without lengthening it; it must be thread-safe and should be cheap.
 */
public interface LockTimer {

    /** No timing: the lock then reads no clock at all. */
    LockTimer NONE = new LockTimer() {
        @Override
        public void recordWait(long nanos) {}

        @Override
        public void recordHold(long nanos) {}
    };

    /**
     * Time from the call to {@code lock} (or a timed/interruptible variant), or to {@link Guard#call},
     * to the acquisition (to the start of the critical section, on whichever thread runs it).
     */
    void recordWait(long nanos);

    /**
     * {@link #recordWait(long)} with the path the acquisition took: {@code slowPath} false when the
     * first attempt got the lock (the "wait" is then the cost of that attempt), true when the thread
     * had to wait. A timer that separates the two overrides this; by default the path is dropped.
     */
    default void recordWait(long nanos, boolean slowPath) {
        recordWait(nanos);
    }

    /** Time from the outermost acquisition (start of the critical section) to the matching release (its end). */
    void recordHold(long nanos);
}
