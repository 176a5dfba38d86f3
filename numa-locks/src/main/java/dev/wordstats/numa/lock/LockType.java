package dev.wordstats.numa.lock;

import dev.wordstats.numa.topology.NodeLocator;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * The lock algorithms on offer. Every type offers the critical-section API, {@link Guard}
 * ({@link #createGuard}, observed: {@link #createObservedGuard}); the types that are
 * {@link Lock}s ({@link #isLock()}) also give a {@link Lock} ({@link #create}, observed:
 * {@link #createObserved}). The constant's name is the one spelling used everywhere: the
 * {@code wordstats.lock.type} property, the JMH {@code lockType} parameter, the {@code lock} metric
 * tag and the Grafana {@code lock} variable.
 */
public enum LockType {

    /** {@link NumaMcsLock}: one MCS queue per NUMA node and one global flag. */
    NUMA_MCS {
        @Override
        public Lock create(NodeLocator nodes, LockSettings settings) {
            return new NumaMcsLock(nodes, settings.reserveAfter());
        }
    },

    /**
     * {@link NumaHandoffLock}: NUMA_MCS's next version; hands the lock to a running successor of the
     * same node (wake ahead, in-node pass), spins only while the owner runs, one awake waiter.
     */
    NUMA_HANDOFF {
        @Override
        public Lock create(NodeLocator nodes, LockSettings settings) {
            return new NumaHandoffLock(nodes, settings);
        }
    },

    /**
     * {@link NumaAdaptiveLock}: a lean spin-then-park lock while the lock is not saturated, the
     * {@link #NUMA_HANDOFF} queue while it stays saturated; the recommended type.
     */
    NUMA_ADAPTIVE {
        @Override
        public Lock create(NodeLocator nodes, LockSettings settings) {
            return new NumaAdaptiveLock(nodes, settings);
        }
    },

    /**
     * {@link SynchronizedGuard}: {@code synchronized} on a private monitor (no carrier pinning since
     * JDK 24, JEP 491). Not a {@link Lock}: it offers only {@link #createGuard}.
     */
    SYNCHRONIZED {
        @Override
        public Guard createGuard(NodeLocator nodes, LockSettings settings) {
            return new SynchronizedGuard();
        }

        @Override
        public boolean isLock() {
            return false;
        }
    },

    /** {@link ReentrantLock} in fair mode: FIFO handoff, no barging. */
    FAIR_REENTRANT {
        @Override
        public Lock create(NodeLocator nodes, LockSettings settings) {
            return new ReentrantLock(true);
        }

        /** {@code tryLock()} barges even on a fair lock; the zero-timeout form honours fairness. */
        @Override
        boolean tryFast(Lock lock) throws InterruptedException {
            return lock.tryLock(0L, TimeUnit.NANOSECONDS);
        }
    },

    /** {@link ReentrantLock} in its default, non-fair mode: arriving threads may barge. */
    UNFAIR_REENTRANT {
        @Override
        public Lock create(NodeLocator nodes, LockSettings settings) {
            return new ReentrantLock(false);
        }
    },

    /**
     * {@link CombiningLock}: waiters publish their critical sections and the holder runs them (CC-Synch);
     * not a {@link Lock}, only a {@link Guard}.
     */
    COMBINING {
        @Override
        public Guard createGuard(NodeLocator nodes, LockSettings settings) {
            return new CombiningLock(settings);
        }

        @Override
        public boolean isLock() {
            return false;
        }
    },

    /**
     * {@link NumaCombiningLock}: one combining queue per NUMA node under a global lock (H-Synch); not a
     * {@link Lock}, only a {@link Guard}.
     */
    NUMA_COMBINING {
        @Override
        public Guard createGuard(NodeLocator nodes, LockSettings settings) {
            return new NumaCombiningLock(nodes, settings);
        }

        @Override
        public boolean isLock() {
            return false;
        }
    };

    /**
     * A new, unobserved {@link Guard} of this type: the critical-section API every type offers. For a
     * type that {@link #isLock() is a Lock} it takes a {@link #create(NodeLocator, LockSettings) new lock}
     * around each critical section; a type that is not overrides this.
     */
    public Guard createGuard(NodeLocator nodes, LockSettings settings) {
        return new LockGuard(this, create(nodes, settings));
    }

    /** As {@link #createGuard(NodeLocator, LockSettings)} with the default settings. */
    public Guard createGuard(NodeLocator nodes) {
        return createGuard(nodes, LockSettings.DEFAULTS);
    }

    /**
     * A new {@link ObservedGuard} of this type, for every type: it counts fast/slow acquisitions and
     * same/cross-node handoffs, and reports wait and hold times to {@code timer} ({@link LockTimer#NONE}
     * for no clock reads). A type that {@link #isLock() is a Lock} is observed through an
     * {@link ObservedLock} (fast path = the lock's first attempt); any other type through an
     * {@link ObservedSectionGuard} wrapped around its {@link #createGuard guard} (fast path = the guard
     * was idle when the call arrived).
     */
    public ObservedGuard createObservedGuard(NodeLocator nodes, LockSettings settings, LockTimer timer) {
        if (isLock()) {
            return new ObservedLockGuard(createObserved(nodes, settings, timer));
        }
        return new ObservedSectionGuard(createGuard(nodes, settings), nodes, timer);
    }

    /** As {@link #createObservedGuard(NodeLocator, LockSettings, LockTimer)} with the default settings. */
    public ObservedGuard createObservedGuard(NodeLocator nodes, LockTimer timer) {
        return createObservedGuard(nodes, LockSettings.DEFAULTS, timer);
    }

    /**
     * Whether this type is a {@link Lock} ({@link #create} and {@link #createObserved} work); a type
     * that is not offers only {@link #createGuard} and {@link #createObservedGuard}.
     */
    public boolean isLock() {
        return true;
    }

    /**
     * A new, unobserved lock of this type with the default settings: it counts nothing and costs nothing extra.
     *
     * @throws UnsupportedOperationException if this type {@link #isLock() is not a Lock}
     */
    public Lock create(NodeLocator nodes) {
        return create(nodes, LockSettings.DEFAULTS);
    }

    /**
     * A new, unobserved lock of this type, tuned by the {@code settings} that apply to it.
     *
     * @throws UnsupportedOperationException if this type {@link #isLock() is not a Lock}
     */
    public Lock create(NodeLocator nodes, LockSettings settings) {
        throw new UnsupportedOperationException(name() + " is not a java.util.concurrent.locks.Lock: it offers only "
                + "the critical-section API (LockType.createGuard / createObservedGuard)");
    }

    /**
     * A new lock of this type with the default settings that counts fast/slow acquisitions and
     * same/cross-node handoffs, and reports wait and hold times to {@code timer}
     * ({@link LockTimer#NONE} for no clock reads).
     *
     * @throws UnsupportedOperationException if this type {@link #isLock() is not a Lock}; use
     *     {@link #createObservedGuard(NodeLocator, LockTimer)}, which every type offers
     */
    public ObservedLock createObserved(NodeLocator nodes, LockTimer timer) {
        return createObserved(nodes, LockSettings.DEFAULTS, timer);
    }

    /** As {@link #createObserved(NodeLocator, LockTimer)}, tuned by the {@code settings} that apply to this type. */
    public ObservedLock createObserved(NodeLocator nodes, LockSettings settings, LockTimer timer) {
        return new ObservedLock(this, create(nodes, settings), nodes, timer);
    }

    /**
     * One attempt that takes the lock only if it can be had without waiting, honouring the type's
     * fairness. {@link ObservedLock} counts a success as a fast-path acquisition.
     */
    boolean tryFast(Lock lock) throws InterruptedException {
        return lock.tryLock();
    }

    /**
     * The type named {@code name}, ignoring case and accepting {@code -} for {@code _}.
     *
     * @throws IllegalArgumentException naming the allowed values when nothing matches
     */
    public static LockType parse(String name) {
        Objects.requireNonNull(name, "name");
        String normalized = name.trim().replace('-', '_').toUpperCase(Locale.ROOT);
        for (LockType type : values()) {
            if (type.name().equals(normalized)) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown lock type '" + name + "'; allowed values: " + allowedValues());
    }

    /** The allowed names, comma-separated, for error messages. */
    public static String allowedValues() {
        return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));
    }
}
