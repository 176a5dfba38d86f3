package dev.wordstats.numa.lock;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * The lock algorithms on offer, each with its one factory, {@link #create(LockContext, LockSettings,
 * LockProbe)}: a {@link Guard}, the critical-section API every type offers. A type that is a
 * {@link Lock} ({@link #isLock()}) gives a {@link LockGuard}, whose {@link LockGuard#lock()} is the
 * lock itself, so a caller that needs a {@code Lock} asks the guard ({@code guard instanceof LockGuard
 * g ? g.lock() : ...}) and no factory exists only to refuse. So does a caller that needs a
 * {@link ReadWriteLock}: the guard of a type that {@link #isReadWriteLock() is one} is that lock
 * ({@code guard instanceof ReadWriteLock rw ? rw.writeLock() : ...}).
 *
 * <p>The constant's name is the one spelling used everywhere: the {@code wordstats.lock.type} property,
 * the JMH {@code lockType} parameter, the {@code lock} metric tag and the Grafana {@code lock} variable.
 * Adding a type is one constant here (its factory) plus its class.
 */
public enum LockType {

    /** {@link NumaMcsLock}: one MCS queue per NUMA node and one global flag. */
    NUMA_MCS(locking((context, settings, probe) ->
            new NumaMcsLock(context.nodes(), settings.queue().reserveAfter(), probe))),

    /**
     * {@link NumaHandoffLock}: NUMA_MCS's next version; hands the lock to a running successor of the
     * same node (wake ahead, in-node pass), spins only while the owner runs, one awake waiter.
     */
    NUMA_HANDOFF(locking((context, settings, probe) ->
            new NumaHandoffLock(context.nodes(), settings.queue().reserveAfter(), context.carriers(), probe))),

    /**
     * {@link NumaMonitorLock}: a word of its own (a CAS and a store) until two threads meet on it, then
     * {@code synchronized} on a private monitor while waiters are served, with a {@link #NUMA_HANDOFF} queue
     * in front of it while a waiter starves and the lock stays busy. Not a {@link Lock}.
     */
    NUMA_MONITOR(guarding((context, settings, probe) ->
            new NumaMonitorLock(context, settings.queue().reserveAfter(), settings.monitor(), probe))),

    /**
     * {@link SynchronizedGuard}: {@code synchronized} on a private monitor (no carrier pinning since
     * JDK 24, JEP 491). Not a {@link Lock}.
     */
    SYNCHRONIZED(guarding((context, settings, probe) -> new SynchronizedGuard(probe))),

    /** {@link ReentrantLock} in fair mode: FIFO handoff, no barging. */
    FAIR_REENTRANT(locking((context, settings, probe) -> ProbedJdkLock.probed(new ReentrantLock(true), true, probe))),

    /** {@link ReentrantLock} in its default, non-fair mode: arriving threads may barge. */
    UNFAIR_REENTRANT(
            locking((context, settings, probe) -> ProbedJdkLock.probed(new ReentrantLock(false), false, probe))),

    /**
     * {@link CombiningLock}: waiters publish their critical sections and the holder runs them (CC-Synch);
     * not a {@link Lock}.
     */
    COMBINING(guarding((context, settings, probe) -> new CombiningLock(settings.combining(), probe))),

    /**
     * {@link NumaCombiningLock}: one combining queue per NUMA node under a global lock (H-Synch); not a
     * {@link Lock}.
     */
    NUMA_COMBINING(guarding(
            (context, settings, probe) -> new NumaCombiningLock(context.nodes(), settings.combining(), probe))),

    /**
     * {@link java.util.concurrent.locks.ReentrantReadWriteLock} in fair mode: read sections overlap, write
     * sections exclude. Not a {@link Lock}. The probe hears write sections; for a read probe too, see
     * {@link ReadWriteGuards}.
     */
    FAIR_REENTRANT_RW(
            guarding((context, settings, probe) -> ReentrantReadWriteGuard.create(true, LockProbe.NONE, probe))),

    /**
     * {@link java.util.concurrent.locks.ReentrantReadWriteLock} in its default, non-fair mode; as
     * {@link #FAIR_REENTRANT_RW}.
     */
    UNFAIR_REENTRANT_RW(
            guarding((context, settings, probe) -> ReentrantReadWriteGuard.create(false, LockProbe.NONE, probe))),

    /**
     * {@link java.util.concurrent.locks.StampedLock}'s read and write locks (no optimistic reads: a read
     * section of a map a writer changes cannot validate before it goes wrong); as {@link #FAIR_REENTRANT_RW}.
     * No bound on a writer's wait: under a stream of overlapping readers a writer may wait on and on.
     */
    STAMPED(guarding((context, settings, probe) -> StampedGuard.create(LockProbe.NONE, probe))),

    /**
     * The project's NUMA-aware reader-writer lock: readers announce themselves on their node's indicator,
     * writers queue in a {@link #NUMA_HANDOFF} lock and close the door to new readers after the queue
     * settings' bound (writer preference); as {@link #FAIR_REENTRANT_RW}, but its guard is also a
     * {@link ReadWriteLock} whose write lock has {@link java.util.concurrent.locks.Condition}s
     * ({@link #isReadWriteLock()}).
     */
    NUMA_RW(guarding((context, settings, probe) ->
            NumaRwLock.create(context, settings.queue().reserveAfter(), LockProbe.NONE, probe)));

    /** Builds a guard of one type; {@code probe} may be {@link LockProbe#NONE}. */
    @FunctionalInterface
    private interface GuardFactory {
        Guard create(LockContext context, LockSettings settings, LockProbe probe);
    }

    /** Builds the lock of a type that is a {@link Lock}. */
    @FunctionalInterface
    private interface LockFactory {
        Lock create(LockContext context, LockSettings settings, LockProbe probe);
    }

    /** A type's factory and whether its guards are {@link LockGuard}s. */
    private record Maker(GuardFactory factory, boolean isLock) {}

    private static Maker locking(LockFactory factory) {
        return new Maker((context, settings, probe) -> new LockGuard(factory.create(context, settings, probe)), true);
    }

    private static Maker guarding(GuardFactory factory) {
        return new Maker(factory, false);
    }

    private final GuardFactory factory;
    private final boolean isLock;

    LockType(Maker maker) {
        this.factory = maker.factory();
        this.isLock = maker.isLock();
    }

    /**
     * A new guard of this type, tuned by its family's part of {@code settings}, reporting to {@code probe}
     * ({@link LockProbe#NONE} for none: then it pays nothing for observation). The lock behaves the same
     * with a probe as without. One probe observes one lock (see {@link LockProbe}).
     */
    public Guard create(LockContext context, LockSettings settings, LockProbe probe) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(probe, "probe");
        return factory.create(context, settings, probe);
    }

    /**
     * As {@link #create(LockContext, LockSettings, LockProbe)} with the default settings and the default
     * probe: for the library's algorithms that report from inside, {@link JfrLockProbe#byDefault}, so their
     * waits, reservations, batches and mode switches appear in a JDK Flight Recorder recording that enables
     * them ({@link LockEvents}) while their acquisitions that do not wait pay nothing for it
     * ({@code -Dwordstats.lock.jfr=false}: no probe); none for the JDK's locks ({@link #SYNCHRONIZED},
     * {@link #FAIR_REENTRANT}, {@link #UNFAIR_REENTRANT}) and {@link #NUMA_MONITOR}, whose lean mode is a
     * monitor: a probe reaches them through a wrapper on their fast path, and JFR sees their waits already
     * as {@code jdk.JavaMonitorEnter} and {@code jdk.ThreadPark}. Give those a probe explicitly to see them.
     */
    public Guard create(LockContext context) {
        return create(context, LockSettings.DEFAULTS, defaultProbe(context));
    }

    /**
     * JFR's probe for a type whose lock calls its probe itself, so that a probe that hears no fast path
     * costs its fast path nothing; none for a type reported through {@link ProbedJdkLock} or by a probed
     * monitor ({@link SynchronizedGuard}, {@link NumaMonitorLock}), whose fast path would pay for the wrapper
     * (checked, for every type, by JfrLockProbeTest.aLockBuiltWithoutAProbeHasNoReportingWrapperOnItsFastPath).
     */
    private LockProbe defaultProbe(LockContext context) {
        return switch (this) {
            case SYNCHRONIZED, NUMA_MONITOR, FAIR_REENTRANT, UNFAIR_REENTRANT -> LockProbe.NONE;
            default -> JfrLockProbe.byDefault(this, context.nodes());
        };
    }

    /** Whether this type reads {@link LockSettings#queue()}: its lock is, or has, a queue lock. */
    public boolean readsQueueSettings() {
        return switch (this) {
            case NUMA_MCS, NUMA_HANDOFF, NUMA_MONITOR, NUMA_RW -> true;
            default -> false;
        };
    }

    /**
     * Whether this type's guard switches between a lean and a queued mode, and so reports
     * {@link LockProbe#modeSwitched}: {@link #NUMA_MONITOR} only.
     */
    public boolean hasModes() {
        return this == NUMA_MONITOR;
    }

    /** Whether this type reads {@link LockSettings#monitor()}: {@link #NUMA_MONITOR} only. */
    public boolean readsMonitorSettings() {
        return this == NUMA_MONITOR;
    }

    /** Whether this type reads {@link LockSettings#combining()}. */
    public boolean readsCombiningSettings() {
        return this == COMBINING || this == NUMA_COMBINING;
    }

    /**
     * Whether this type's read sections ({@link Guard#read}) may overlap each other: the reader-writer types
     * {@link #FAIR_REENTRANT_RW}, {@link #UNFAIR_REENTRANT_RW}, {@link #STAMPED} and {@link #NUMA_RW}, whose read
     * sections {@link ReadWriteGuards#create} gives a probe of their own.
     */
    public boolean isReadWrite() {
        return switch (this) {
            case FAIR_REENTRANT_RW, UNFAIR_REENTRANT_RW, STAMPED, NUMA_RW -> true;
            default -> false;
        };
    }

    /**
     * Whether this type's guards are also {@link ReadWriteLock}s, whose read and write locks take the
     * guard's own read and write holds: {@link #NUMA_RW} only.
     */
    public boolean isReadWriteLock() {
        return this == NUMA_RW;
    }

    /** Whether this type is a {@link Lock}: its guards are then {@link LockGuard}s. */
    public boolean isLock() {
        return isLock;
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
