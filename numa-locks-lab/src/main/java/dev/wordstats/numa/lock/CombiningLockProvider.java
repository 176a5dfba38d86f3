package dev.wordstats.numa.lock;

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
