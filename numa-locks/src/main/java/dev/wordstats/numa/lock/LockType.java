package dev.wordstats.numa.lock;

import dev.wordstats.numa.lock.jdk.ProbedJdkLock;
import dev.wordstats.numa.lock.jdk.SynchronizedGuard;
import dev.wordstats.numa.lock.probe.JfrLockProbe;
import dev.wordstats.numa.lock.probe.LockEvents;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.queue.NumaHandoffLock;
import dev.wordstats.numa.lock.queue.NumaMcsLock;
import dev.wordstats.numa.lock.queue.NumaMonitorLock;
import dev.wordstats.numa.lock.queue.NumaRwLock;
import dev.wordstats.numa.lock.queue.ReentrantReadWriteGuard;
import dev.wordstats.numa.lock.queue.StampedGuard;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
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
 *
 * <p>The library's jar holds the classes of the types its README's which-lock table recommends, the baseline
 * {@link #NUMA_MCS} and the JDK's. The others are <em>in the lab</em> ({@link #isInLab()}): their constants
 * and facts are here, so every name above stays one, but their classes are in
 * {@code dev.wordstats:numa-locks-lab}, whose {@link GuardProvider}s this enum finds on the class path. Those
 * are {@link #COMBINING} and {@link #NUMA_COMBINING}. Without the lab on the class path such a type is not
 * {@link #isAvailable() available}: it still parses, and its {@code create} throws an
 * {@link IllegalStateException} naming the artifact to add.
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
     * {@code CombiningLock}: waiters publish their critical sections and the holder runs them (CC-Synch);
     * not a {@link Lock}. In the lab ({@code numa-locks-lab}).
     */
    COMBINING(inLab("CombiningLock")),

    /**
     * {@code NumaCombiningLock}: one combining queue per NUMA node under a global lock (H-Synch); not a
     * {@link Lock}. In the lab ({@code numa-locks-lab}).
     */
    NUMA_COMBINING(inLab("NumaCombiningLock")),

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

    /**
     * A type's factory (null for a type in the lab, whose factory is its {@link GuardProvider}), whether its
     * guards are {@link LockGuard}s and, for a type in the lab, the simple name of its class there.
     */
    private record Maker(GuardFactory factory, boolean isLock, String labClass) {}

    private static Maker locking(LockFactory factory) {
        return new Maker(
                (context, settings, probe) -> new LockGuard(factory.create(context, settings, probe)), true, null);
    }

    private static Maker guarding(GuardFactory factory) {
        return new Maker(factory, false, null);
    }

    private static Maker inLab(String labClass) {
        return new Maker(null, false, labClass);
    }

    /** The artifact that holds the classes of the types in the lab. */
    private static final String LAB_ARTIFACT = "dev.wordstats:numa-locks-lab";

    private final GuardFactory factory; // null for a type in the lab
    private final boolean isLock;
    private final String labClass; // null for a type of the library

    LockType(Maker maker) {
        this.factory = maker.factory();
        this.isLock = maker.isLock();
        this.labClass = maker.labClass();
    }

    /**
     * A new guard of this type, tuned by its family's part of {@code settings}, reporting to {@code probe}
     * ({@link LockProbe#NONE} for none: then it pays nothing for observation). The lock behaves the same
     * with a probe as without. One probe observes one lock (see {@link LockProbe}).
     *
     * @throws IllegalStateException for a type in the lab ({@link #isInLab()}) that is not
     *     {@link #isAvailable() available}: the message names the artifact to put on the class path
     */
    public Guard create(LockContext context, LockSettings settings, LockProbe probe) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(probe, "probe");
        if (factory != null) {
            return factory.create(context, settings, probe);
        }
        GuardProvider provider = LabProviders.of(this);
        if (provider == null) {
            throw new IllegalStateException("lock type " + name() + " is in the lab: its class, " + labClass
                    + ", is in " + LAB_ARTIFACT + ", which is not on the class path; add that artifact (a runtime"
                    + " dependency, class path only) or choose one of the available types: "
                    + available().stream().map(Enum::name).collect(Collectors.joining(", ")));
        }
        Guard guard = Objects.requireNonNull(
                provider.create(context, settings, probe), () -> provider.getClass() + " returned no guard");
        if (guard instanceof LockGuard != isLock) {
            throw new IllegalStateException(
                    provider.getClass() + " made a " + guard.getClass().getName() + " for " + name() + ", which "
                            + (isLock ? "is" : "is not") + " a Lock");
        }
        return guard;
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
        return reportsWaitsByDefault() ? JfrLockProbe.byDefault(this, context.nodes()) : LockProbe.NONE;
    }

    /**
     * Whether a guard of this type made by {@link #create(LockContext)}, without a probe of the caller's, records
     * its waits as JFR events: every type whose lock calls its probe itself; not the types reported through
     * {@link ProbedJdkLock} or by a probed monitor, whose fast path would pay for the wrapper.
     */
    public boolean reportsWaitsByDefault() {
        return switch (this) {
            case SYNCHRONIZED, NUMA_MONITOR, FAIR_REENTRANT, UNFAIR_REENTRANT -> false;
            default -> true;
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
     * Whether this type's class is in the lab, {@code dev.wordstats:numa-locks-lab}, not in this library:
     * {@link #COMBINING} and {@link #NUMA_COMBINING}. Such a type is built by the lab's {@link GuardProvider},
     * so it is {@link #isAvailable() available} only with the lab on the class path.
     */
    public boolean isInLab() {
        return labClass != null;
    }

    /**
     * Whether {@link #create(LockContext, LockSettings, LockProbe)} can build this type here: always for a
     * type of the library; for one {@link #isInLab() in the lab}, when the lab's {@link GuardProvider} of it is
     * on the class path (looked up once, on the first question about a type in the lab).
     */
    public boolean isAvailable() {
        return factory != null || LabProviders.of(this) != null;
    }

    /** The types that are {@link #isAvailable() available} here, in declaration order. */
    public static List<LockType> available() {
        return Arrays.stream(values()).filter(LockType::isAvailable).toList();
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

    /**
     * The allowed names, comma-separated, for error messages: every type, whether {@link #isAvailable()
     * available} here or not.
     */
    public static String allowedValues() {
        return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", "));
    }

    /** The lab's {@link GuardProvider}s, found with {@link ServiceLoader} on the first lookup and kept. */
    private static final class LabProviders {

        private static Map<LockType, GuardProvider> found; // guarded by LabProviders.class; set once, then read

        private LabProviders() {}

        /** The provider of {@code type}, or null when the class path has none. */
        static synchronized GuardProvider of(LockType type) {
            if (found == null) {
                found = load();
            }
            return found.get(type);
        }

        private static Map<LockType, GuardProvider> load() {
            Map<LockType, GuardProvider> providers = new EnumMap<>(LockType.class);
            for (GuardProvider provider : ServiceLoader.load(GuardProvider.class, LockType.class.getClassLoader())) {
                LockType type = Objects.requireNonNull(provider.type(), () -> provider.getClass() + ": no type");
                if (!type.isInLab()) {
                    throw new IllegalStateException(provider.getClass() + " provides " + type
                            + ", which this library builds itself; a provider is only for a type in the lab");
                }
                GuardProvider other = providers.putIfAbsent(type, provider);
                if (other != null) {
                    throw new IllegalStateException("two providers of " + type + " on the class path: "
                            + other.getClass() + " and " + provider.getClass());
                }
            }
            return providers;
        }
    }
}
