package dev.wordstats.numa.lock;

/**
 * Receives wait and hold times from an {@link ObservedLock}. The lock calls both on the releasing
 * thread right after the release, outside the critical section, so an implementation may record
 * into a histogram without lengthening it; it must be thread-safe and should be cheap.
 */
public interface LockTimer {

    /** No timing: the lock then reads no clock at all. */
    LockTimer NONE = new LockTimer() {
        @Override
        public void recordWait(long nanos) {}

        @Override
        public void recordHold(long nanos) {}
    };

    /** Time from the call to {@code lock} (or a timed/interruptible variant) to its acquisition. */
    void recordWait(long nanos);

    /**
     * {@link #recordWait(long)} with the path the acquisition took: {@code slowPath} false when the
     * first attempt got the lock (the "wait" is then the cost of that attempt), true when the thread
     * had to wait. A timer that separates the two overrides this; by default the path is dropped.
     */
    default void recordWait(long nanos, boolean slowPath) {
        recordWait(nanos);
    }

    /** Time from the outermost acquisition to the matching release. */
    void recordHold(long nanos);
}
