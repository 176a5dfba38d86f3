package dev.wordstats.numa.lock.combining;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.GuardProvider;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;

/**
 * The factory of {@link LockType#COMBINING}: a {@link CombiningLock} with the settings' batch bounds. Found by
 * {@link LockType} through {@code META-INF/services/dev.wordstats.numa.lock.GuardProvider}.
 */
public final class CombiningLockProvider implements GuardProvider {

    /** Called by {@link java.util.ServiceLoader}. */
    public CombiningLockProvider() {}

    @Override
    public LockType type() {
        return LockType.COMBINING;
    }

    @Override
    public Guard create(LockContext context, LockSettings settings, LockProbe probe) {
        return new CombiningLock(settings.combining(), probe);
    }
}
