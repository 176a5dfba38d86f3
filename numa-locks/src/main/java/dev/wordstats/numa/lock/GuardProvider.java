package dev.wordstats.numa.lock;

import dev.wordstats.numa.lock.probe.LockProbe;

/**
 * The factory of a {@link LockType} whose class is not in this library: a type that {@link LockType#isInLab()
 * is in the lab} ({@link LockType#COMBINING}, {@link LockType#NUMA_COMBINING}, whose classes are in
 * {@code dev.wordstats:numa-locks-lab}). {@link LockType#create(LockContext, LockSettings, LockProbe)} finds
 * the provider of such a type with {@link java.util.ServiceLoader}, once, the first time the type is asked for
 * a guard or {@link LockType#isAvailable() whether it is available}; a jar that holds one names it in
 * {@code META-INF/services/dev.wordstats.numa.lock.GuardProvider}. The lab's providers and combining locks are
 * in a package of their own, {@code dev.wordstats.numa.lock.combining}; the lab's jar works on the class path
 * only, since its lab variant of {@code NumaHandoffLock} shares that lock's package (the lab's README says
 * why).
 *
 * <p>A provider is public, with a public no-argument constructor, and builds the guards of exactly one type,
 * with that type's facts ({@link LockType#isLock()} and the others); the library checks its arguments before
 * it calls {@link #create}. There is at most one provider per type, and only for a type in the lab: a second
 * one, or one for a type the library builds itself, fails the lookup.
 */
public interface GuardProvider {

    /** The type this provider builds guards of: one that {@link LockType#isInLab() is in the lab}. */
    LockType type();

    /**
     * A new guard of {@link #type()}, as {@link LockType#create(LockContext, LockSettings, LockProbe)}
     * describes it; the arguments are not null.
     */
    Guard create(LockContext context, LockSettings settings, LockProbe probe);
}
