package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;

/**
 * The lock contract through {@link LockType#createObserved}: the counting wrapper must keep every
 * promise of the lock it wraps. The timer counts records, so the timed path runs too.
 */
abstract class ObservedLockContractTest extends LockContractTest {

    /** The wrapped type. */
    protected abstract LockType type();

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return type().createObserved(nodes, new CountingTimer());
    }

    /** ObservedLock tracks its own depth but offers no hold-count view. */
    @Override
    protected Optional<HoldCounts> holdCounts() {
        return Optional.empty();
    }

    /** Counts records; thread-safe, as a LockTimer must be. */
    static final class CountingTimer implements LockTimer {
        final LongAdder waits = new LongAdder();
        final LongAdder holds = new LongAdder();
        final LongAdder negative = new LongAdder();

        @Override
        public void recordWait(long nanos) {
            waits.increment();
            if (nanos < 0) {
                negative.increment();
            }
        }

        @Override
        public void recordHold(long nanos) {
            holds.increment();
            if (nanos < 0) {
                negative.increment();
            }
        }
    }
}
