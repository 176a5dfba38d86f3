package dev.wordstats.numa.lock;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.locks.Lock;
import java.util.stream.Stream;

/** Builds locks through the {@link LockType} registry the way the tests need them. */
public final class TestLocks {

    /**
     * The JUnit tag of the tests that run for every lock type, each taking its types from {@link #types()}.
     * numa-locks-lab runs the tests of this tag again from numa-locks' test jar with {@link #TYPES_PROPERTY}
     * {@code lab}, so the types in the lab, absent here, keep every check of the library's own types.
     */
    public static final String EVERY_TYPE = "every-type";

    /** The system property that narrows {@link #types()} to the types in the lab: value {@code lab}. */
    public static final String TYPES_PROPERTY = "wordstats.test.types";

    private TestLocks() {}

    /**
     * The types a test of {@link #EVERY_TYPE} runs for: every {@link LockType#isAvailable() available} type
     * (here, without numa-locks-lab, the library's own); with {@link #TYPES_PROPERTY} {@code lab}, only the
     * types {@link LockType#isInLab() in the lab}.
     */
    public static Stream<LockType> types() {
        boolean labOnly = "lab".equals(System.getProperty(TYPES_PROPERTY));
        return LockType.available().stream().filter(type -> !labOnly || type.isInLab());
    }

    /** {@code nodes} with this JVM's carrier count. */
    public static LockContext context(NodeLocator nodes) {
        return new LockContext(nodes, CarrierPinning.schedulerParallelism());
    }

    /** A guard of {@code type} with the default settings and no probe. */
    public static Guard guard(LockType type, NodeLocator nodes) {
        return guard(type, nodes, LockProbe.NONE);
    }

    /** A guard of {@code type} with the default settings, reporting to {@code probe}. */
    public static Guard guard(LockType type, NodeLocator nodes, LockProbe probe) {
        return type.create(context(nodes), LockSettings.DEFAULTS, probe);
    }

    /** The lock of a guard of {@code type}, a type that {@link LockType#isLock() is a Lock}. */
    public static Lock lock(LockType type, NodeLocator nodes, LockSettings settings, LockProbe probe) {
        return ((LockGuard) type.create(context(nodes), settings, probe)).lock();
    }

    /** The lock of a guard of {@code type} with the default settings and no probe. */
    public static Lock lock(LockType type, NodeLocator nodes) {
        return lock(type, nodes, LockSettings.DEFAULTS, LockProbe.NONE);
    }
}
