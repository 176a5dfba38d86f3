package dev.wordstats.numa.lock.probe;

import dev.wordstats.numa.lock.LockType;

/**
 * A snapshot of what a {@link CountingProbe} (or a set of them, {@link CountingProbe#total}) has counted.
 *
 * @param fastAcquisitions acquisitions that took the lock without waiting (the lock's first
 *     attempt; a combining lock found free; for {@link LockType#SYNCHRONIZED}, calls that found the
 *     guard idle, see {@code SynchronizedGuard})
 * @param slowAcquisitions acquisitions that had to wait (queue, spin or park; a combining lock:
 *     critical sections run by a combiner or a handed combiner role; {@code SYNCHRONIZED}: calls that
 *     found the guard busy)
 * @param sameNodeHandoffs acquisitions whose previous owner (the thread that ran the previous critical
 *     section) ran on the same NUMA node
 * @param crossNodeHandoffs acquisitions whose previous owner ran on another NUMA node
 */
public record LockStats(long fastAcquisitions, long slowAcquisitions, long sameNodeHandoffs, long crossNodeHandoffs) {

    /** Nothing counted. */
    public static final LockStats ZERO = new LockStats(0, 0, 0, 0);

    /** All acquisitions, fast and slow. */
    public long acquisitions() {
        return fastAcquisitions + slowAcquisitions;
    }

    /** The field-wise sum of this snapshot and {@code other}. */
    public LockStats plus(LockStats other) {
        return new LockStats(
                fastAcquisitions + other.fastAcquisitions,
                slowAcquisitions + other.slowAcquisitions,
                sameNodeHandoffs + other.sameNodeHandoffs,
                crossNodeHandoffs + other.crossNodeHandoffs);
    }
}
