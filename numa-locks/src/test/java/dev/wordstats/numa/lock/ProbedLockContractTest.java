package dev.wordstats.numa.lock;

import dev.wordstats.numa.lock.probe.CountingProbe;
import dev.wordstats.numa.lock.probe.LockTimer;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;

/**
 * The lock contract of a type's lock built with a {@link CountingProbe}: reporting must keep every
 * promise of the lock. The timer counts records, so the timed path runs too.
 */
public abstract class ProbedLockContractTest extends LockContractTest {

    /** The type under test. */
    protected abstract LockType type();

    @Override
    protected Lock newLock(NodeLocator nodes) {
        return TestLocks.lock(type(), nodes, LockSettings.DEFAULTS, new CountingProbe(nodes, new CountingTimer()));
    }

    /** A probed JDK lock tracks its own depth but offers no hold-count view. */
    @Override
    protected Optional<HoldCounts> holdCounts() {
        return Optional.empty();
    }

    /** A probed JDK lock has no conditions (ProbedJdkLock); the project's locks keep theirs with a probe. */
    @Override
    protected boolean hasConditions() {
        return type() != LockType.FAIR_REENTRANT && type() != LockType.UNFAIR_REENTRANT;
    }

    /** Counts records; thread-safe, as a LockTimer must be. */
    public static final class CountingTimer implements LockTimer {
        public final LongAdder waits = new LongAdder();
        public final LongAdder holds = new LongAdder();
        public final LongAdder negative = new LongAdder();

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
