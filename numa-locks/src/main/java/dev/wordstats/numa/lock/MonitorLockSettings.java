package dev.wordstats.numa.lock;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of {@link LockType#NUMA_MONITOR}, whose queued mode also reads
 * {@link QueueLockSettings}.
 *
 * @param handoffAfter the bound on a wait: a caller that waited this long for the lock turns it to in-order
 *                     handoff ({@link LockType#NUMA_HANDOFF}'s queue) until the callers that were waiting then
 *                     have been served; not negative. Shorter: shorter longest waits, more turns of handoff,
 *                     which cost throughput where threads work outside the lock; longer: the JVM's monitor
 *                     longer, and waits up to this long (see {@link LockType#NUMA_MONITOR})
 * @param adaptation   how the lock judges a wait, its load and its threads, and how long a turn of handoff
 *                     lasts; {@link Adaptation#DEFAULTS} unless a workload is known to need other values
 */
public record MonitorLockSettings(Duration handoffAfter, Adaptation adaptation) {

    /**
     * The defaults: a bound of 1 ms, as Go's {@code sync.Mutex} turns to its starvation mode after a waiter
     * waited 1 ms, and {@link Adaptation#DEFAULTS}.
     */
    public static final MonitorLockSettings DEFAULTS = new MonitorLockSettings(Duration.ofMillis(1));

    public MonitorLockSettings {
        checked(handoffAfter);
        Objects.requireNonNull(adaptation, "adaptation");
    }

    /** The bound {@code handoffAfter} with the default {@link Adaptation#DEFAULTS}. */
    public MonitorLockSettings(Duration handoffAfter) {
        this(handoffAfter, Adaptation.DEFAULTS);
    }

    /** These settings with {@code adaptation} replaced. */
    public MonitorLockSettings with(Adaptation adaptation) {
        return new MonitorLockSettings(handoffAfter, adaptation);
    }

    /**
     * How {@link LockType#NUMA_MONITOR} adapts: whether it starts as a word, how it estimates a caller's wait while
     * lean (from a sample of its acquisitions), when it judges the lock saturated, and how long its turns of
     * handoff last. The {@link #DEFAULTS} are the values the lock's results were measured with (its Overview
     * names them); each component says what it trades. Every lock built with these settings keeps them for its
     * life.
     *
     * @param sampleEvery      lean, one acquisition in this many (a power of two, at least 1), picked at random
     *                         by the caller's own thread, is sampled: it reads the clock and records its hold,
     *                         and the samples are the lock's only clock while lean. Smaller: a finer estimate of
     *                         each wait and of the lock's load, more clock reads on the lean path; larger: fewer,
     *                         a coarser estimate (a wait is known to about this many acquisitions)
     * @param judgeAfter       lean, a caller's wait is judged against {@code handoffAfter} only once at least
     *                         this many sampled acquisitions overtook it (at least 1), so a whole interval between
     *                         samples lies inside the wait. Smaller: a short wait may be judged from one idle
     *                         interval; larger: a long wait that few acquisitions overtook goes unjudged
     * @param windowSamples    lean, this many samples make one window of the lock's load (at least 1). Smaller:
     *                         quicker to call the lock saturated, and quicker to err; larger: steadier, slower
     * @param saturatedPercent lean, a window whose sampled holds (each standing for {@code sampleEvery}
     *                         acquisitions) filled this share of its span, in percent, is saturated; after two
     *                         in a row, a lock whose threads come straight back turns queued for a probation
     *                         rather than for one turn (not negative). Lower: probations on less busy locks;
     *                         higher: only on locks that are their threads' bottleneck
     * @param firstProbation   queued, the first probation, in queued releases (at least 1; it doubles while the
     *                         lock stays busy, up to about a million); a turn of the waiting callers lasts at
     *                         least the smaller of this and a drain of 128 releases. Shorter: back to the
     *                         monitor sooner; longer: fewer switches on a lock that stays saturated
     * @param busyPercent      queued, a probation whose measured holds filled this share of their span, in
     *                         percent, was busy: it doubles rather than turning the lock lean (not negative; 0:
     *                         every probation is busy, above 100: none is). Lower: a lock stays queued longer;
     *                         higher: it turns lean sooner
     * @param startAsWord      whether the lock starts as a word of its own (a CAS and a store a call), retired for
     *                         good once two threads meet on it. True: the cheapest uncontended calls; false: a
     *                         lock known to be contended starts as the monitor
     */
    public record Adaptation(
            int sampleEvery,
            int judgeAfter,
            int windowSamples,
            int saturatedPercent,
            int firstProbation,
            int busyPercent,
            boolean startAsWord) {

        /** The values the lock's results were measured with: 64, 2, 16, 75%, 4096, 25%, a word. */
        public static final Adaptation DEFAULTS = new Adaptation(64, 2, 16, 75, 4096, 25, true);

        /**
         * Checks each component against the range its description gives.
         *
         * @throws IllegalArgumentException if a component is out of its range
         */
        public Adaptation {
            if (sampleEvery < 1 || Integer.bitCount(sampleEvery) != 1) {
                throw new IllegalArgumentException("sampleEvery must be a power of two, was " + sampleEvery);
            }
            atLeastOne("judgeAfter", judgeAfter);
            atLeastOne("windowSamples", windowSamples);
            atLeastOne("firstProbation", firstProbation);
            if (saturatedPercent < 0) {
                throw new IllegalArgumentException("saturatedPercent must not be negative, was " + saturatedPercent);
            }
            if (busyPercent < 0) {
                throw new IllegalArgumentException("busyPercent must not be negative, was " + busyPercent);
            }
        }

        private static void atLeastOne(String name, int value) {
            if (value < 1) {
                throw new IllegalArgumentException(name + " must be at least 1, was " + value);
            }
        }
    }

    /** {@code handoffAfter}, checked: not null, not negative. */
    static Duration checked(Duration handoffAfter) {
        Objects.requireNonNull(handoffAfter, "handoffAfter");
        if (handoffAfter.isNegative()) {
            throw new IllegalArgumentException("handoffAfter must not be negative, was " + handoffAfter);
        }
        return handoffAfter;
    }
}
