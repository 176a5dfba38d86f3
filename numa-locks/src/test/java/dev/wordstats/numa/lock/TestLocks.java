package dev.wordstats.numa.lock;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.locks.Lock;

/** Builds locks through the {@link LockType} registry the way the tests need them. */
public final class TestLocks {

    private TestLocks() {}

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
