package dev.wordstats.numa.lock;

import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.queue.NumaRwLock;
import dev.wordstats.numa.lock.queue.ReentrantReadWriteGuard;
import dev.wordstats.numa.lock.queue.StampedGuard;
import java.util.Objects;

/**
 * Guards whose read and write sections report to probes of their own: {@link LockType#create(LockContext,
 * LockSettings, LockProbe)} takes one probe, which hears the write sections of a reader-writer type (and
 * every section of an exclusive one); this factory takes a second, for read sections.
 */
public final class ReadWriteGuards {

    private ReadWriteGuards() {}

    /**
     * A new guard of {@code type}. For a reader-writer type ({@link LockType#isReadWrite()}),
     * {@code readProbe} hears its read sections and {@code writeProbe} its write sections; read sections
     * overlap, so {@code readProbe} must be thread-safe for every call, {@code acquired} included. For an
     * exclusive type, whose read sections are its critical sections, {@code writeProbe} hears them all
     * and {@code readProbe} is not used. Either may be {@link LockProbe#NONE}.
     */
    public static Guard create(
            LockType type, LockContext context, LockSettings settings, LockProbe readProbe, LockProbe writeProbe) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(readProbe, "readProbe");
        Objects.requireNonNull(writeProbe, "writeProbe");
        return switch (type) {
            case FAIR_REENTRANT_RW -> ReentrantReadWriteGuard.create(true, readProbe, writeProbe);
            case UNFAIR_REENTRANT_RW -> ReentrantReadWriteGuard.create(false, readProbe, writeProbe);
            case STAMPED -> StampedGuard.create(readProbe, writeProbe);
            case NUMA_RW -> NumaRwLock.create(context, settings.queue().reserveAfter(), readProbe, writeProbe);
            default -> type.create(context, settings, writeProbe);
        };
    }
}
