package dev.wordstats.numa.lock.combining;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.GuardProvider;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;

/**
 * The factory of {@link LockType#NUMA_COMBINING}: a {@link NumaCombiningLock} over the context's nodes with
 * the settings' batch bounds. Found by {@link LockType} through
 * {@code META-INF/services/dev.wordstats.numa.lock.GuardProvider}.
 */
public final class NumaCombiningLockProvider implements GuardProvider {

    /** Called by {@link java.util.ServiceLoader}. */
    public NumaCombiningLockProvider() {}

    @Override
    public LockType type() {
        return LockType.NUMA_COMBINING;
    }

    @Override
    public Guard create(LockContext context, LockSettings settings, LockProbe probe) {
        return new NumaCombiningLock(context.nodes(), settings.combining(), probe);
    }
}
