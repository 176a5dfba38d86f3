package dev.wordstats.service;

import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.MonitorLockSettings;
import dev.wordstats.numa.lock.QueueLockSettings;
import dev.wordstats.numa.scheduler.SchedulerMode;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Everything under {@code wordstats.*}, bound and validated at startup: a bad value stops the
 * service with a message that names the property. Each setting is explained here, once, in the
 * {@code @param} texts of the records below: the configuration processor turns them into the
 * descriptions of {@code META-INF/spring-configuration-metadata.json} (IDE completion and help);
 * {@code application.yml} and the READMEs point here. The defaults here are the ones a run
 * without any configuration file gets.
 */
@ConfigurationProperties("wordstats")
@Validated
public record WordstatsProperties(
        @DefaultValue @Valid Lock lock,
        @DefaultValue @Valid Numa numa,
        @DefaultValue @Valid Limits limits,
        @DefaultValue @Valid Batch batch,
        @DefaultValue @Valid Store store) {

    /** The largest stripe count {@code StripedCounts} accepts. */
    public static final int MAX_STRIPES = 1 << 16;

    /** The longest {@code wordstats.lock.reserve-after} and {@code wordstats.lock.handoff-after} accepted. */
    public static final Duration MAX_RESERVE_AFTER = Duration.ofMinutes(1);

    /**
     * @param type    the lock guarding each stripe, a LockType name such as NUMA_MONITOR (the
     *                default), SYNCHRONIZED, NUMA_MCS, FAIR_REENTRANT or UNFAIR_REENTRANT (any case;
     *                '-' for '_'); the same name is the lock tag of every wordstats.lock.* metric. A type in
     *                the lab (COMBINING, NUMA_COMBINING: LockType.isInLab()) needs numa-locks-lab on the
     *                class path, a runtime dependency of the service; without it startup fails and says so
     * @param stripes the number of stripes (one map and one lock each), a power of two from 1 to
     *                65536; fewer stripes mean more contention per lock
     * @param timing  whether acquisitions record their wait and hold times into the
     *                wordstats.lock.wait / wordstats.lock.held timers (false: no clock is read)
     * @param timingSampleEvery record one acquisition in this many, chosen at random (1 = all): the
     *                timers' histograms are shared by all stripes, so sampling keeps their counters
     *                from becoming a hot spot; means and quantiles stay unbiased, the timers' counts
     *                are then about 1/N of the acquisitions (count those with
     *                wordstats.lock.acquisitions, which is exact)
     * @param reserveAfter the types with a queue lock (NUMA_MCS, NUMA_HANDOFF, and NUMA_MONITOR's queued
     *                mode: LockType.readsQueueSettings()): how long a node queue's leader may wait for the
     *                lock before it reserves it, so bargers cannot overtake it any longer; NUMA_RW: also how
     *                long readers keep entering once a writer has queued (0 to 1 minute)
     * @param handoffAfter NUMA_MONITOR: the bound on a wait; a request thread that waited this long for a
     *                stripe turns its lock to in-order handoff until the threads waiting then have been
     *                served (0 to 1 minute; shorter: shorter longest waits, more turns of handoff)
     */
    public record Lock(
            @DefaultValue("NUMA_MONITOR") @NotNull LockType type,
            @DefaultValue("64") int stripes,
            @DefaultValue("true") boolean timing,
            @DefaultValue("8") @Min(1) @Max(1 << 20) int timingSampleEvery,
            @DefaultValue("1ms") @NotNull Duration reserveAfter,
            @DefaultValue("1ms") @NotNull Duration handoffAfter) {

        public Lock {
            if (type != null && !type.isAvailable()) {
                throw new IllegalArgumentException("wordstats.lock.type " + type
                        + " is in the lab: it needs dev.wordstats:numa-locks-lab on the class path; available: "
                        + LockType.available());
            }
            if (stripes < 1 || stripes > MAX_STRIPES || Integer.bitCount(stripes) != 1) {
                throw new IllegalArgumentException(
                        "wordstats.lock.stripes must be a power of two from 1 to " + MAX_STRIPES + ", was " + stripes);
            }
            if (reserveAfter != null && (reserveAfter.isNegative() || reserveAfter.compareTo(MAX_RESERVE_AFTER) > 0)) {
                throw new IllegalArgumentException(
                        "wordstats.lock.reserve-after must be from 0 to 1m, was " + reserveAfter);
            }
            if (handoffAfter != null && (handoffAfter.isNegative() || handoffAfter.compareTo(MAX_RESERVE_AFTER) > 0)) {
                throw new IllegalArgumentException(
                        "wordstats.lock.handoff-after must be from 0 to 1m, was " + handoffAfter);
            }
        }

        /** The lock tuning these properties ask for. */
        public LockSettings settings() {
            return LockSettings.DEFAULTS
                    .with(new QueueLockSettings(reserveAfter))
                    .with(new MonitorLockSettings(handoffAfter));
        }
    }

    /**
     * @param simulatedNodes   0 for the machine's real NUMA topology; N >= 1 splits the allowed
     *                         CPUs into N simulated nodes (at most the CPU count)
     * @param pinCarriers      pin each carrier thread of the virtual-thread scheduler to one CPU,
     *                         balanced over the nodes, so a carrier's cached node is exact (the
     *                         mapping is logged at startup and shown by GET /api/topology)
     * @param nodeRefreshEvery a carrier re-reads its NUMA node (getcpu) every this many lookups
     * @param scheduler        the virtual-thread scheduler: default (the JDK's: one pool of
     *                         carriers, a virtual thread may resume on any node after each park) or
     *                         per-node (one scheduler per node, its carriers pinned to the node's
     *                         CPUs: each request's virtual thread is started on a node, round robin,
     *                         and it and its batch workers stay there, so the locks know their node
     *                         exactly). per-node needs --add-opens java.base/java.lang=ALL-UNNAMED;
     *                         without it the service falls back to default and says so at startup
     */
    public record Numa(
            @DefaultValue("0") @Min(0) @Max(4096) int simulatedNodes,
            @DefaultValue("false") boolean pinCarriers,
            @DefaultValue("1024") @Min(1) @Max(1 << 30) int nodeRefreshEvery,
            @DefaultValue("default") @NotNull SchedulerMode scheduler) {}

    /**
     * @param maxBodyBytes     the largest request body (e.g. 1MB, 512KB); a larger one gets 413,
     *                         counted while reading, so no Content-Length can get past it
     * @param maxBatchLines    the most lines one batch may carry; more gets 400 (too-many-lines)
     * @param maxWordLength    the longest word in code points; a longer one rejects the request (400)
     * @param maxDistinctWords the most distinct words the store keeps; past it a request gets 409
     */
    public record Limits(
            @DefaultValue("1MB") @NotNull DataSize maxBodyBytes,
            @DefaultValue("10000") @Min(1) @Max(1_000_000) int maxBatchLines,
            @DefaultValue("100") @Min(1) @Max(100_000) int maxWordLength,
            @DefaultValue("1000000") @Min(1) long maxDistinctWords) {

        public Limits {
            if (maxBodyBytes != null
                    && (maxBodyBytes.toBytes() < 1 || maxBodyBytes.toBytes() > Integer.MAX_VALUE - 8)) {
                throw new IllegalArgumentException(
                        "wordstats.limits.max-body-bytes must be from 1B to 2GB, was " + maxBodyBytes);
            }
        }
    }

    /**
     * @param parallelism the virtual threads that work through one batch's lines, pulling the next
     *                    line from a shared atomic cursor
     */
    public record Batch(
            @DefaultValue("8") @Min(1) @Max(1024) int parallelism) {}

    /**
     * @param dataDir       the directory the counts are kept in (file wordstats.snapshot),
     *                      created if missing; relative paths are resolved against the working
     *                      directory. It must be writable: start-up checks it and stops if not
     * @param snapshotEvery how often the counts are written to the data directory while they change
     *                      (100ms to 1h); they are also written on a graceful shutdown, after the
     *                      requests in flight have finished. A crash (kill -9) loses at most
     *                      the words counted since the last write began
     * @param onBadSnapshot what a snapshot that cannot be read (truncated, corrupt, of another format
     *                      or version, or holding more distinct words than
     *                      wordstats.limits.max-distinct-words) does at start-up: fail (the default:
     *                      the service stops with a message naming the file and what is wrong) or
     *                      start-empty (the file is moved aside to wordstats.snapshot.bad-TIMESTAMP,
     *                      which is logged, and the service starts with no counts)
     * @param unhealthyAfterFailures the health indicator snapshots (and so /actuator/health) turns
     *                      DOWN after this many snapshot writes in a row failed (1 to 1000), naming
     *                      the last error, the count and the last good write in its details; it is
     *                      UP again after the next good write
     */
    public record Store(
            @DefaultValue("data") @NotNull Path dataDir,
            @DefaultValue("10s") @NotNull Duration snapshotEvery,
            @DefaultValue("fail") @NotNull BadSnapshotPolicy onBadSnapshot,
            @DefaultValue("3") @Min(1) @Max(1000) int unhealthyAfterFailures) {

        /** The shortest {@code wordstats.store.snapshot-every} accepted. */
        public static final Duration MIN_SNAPSHOT_EVERY = Duration.ofMillis(100);

        /** The longest {@code wordstats.store.snapshot-every} accepted. */
        public static final Duration MAX_SNAPSHOT_EVERY = Duration.ofHours(1);

        public Store {
            if (snapshotEvery != null
                    && (snapshotEvery.compareTo(MIN_SNAPSHOT_EVERY) < 0
                            || snapshotEvery.compareTo(MAX_SNAPSHOT_EVERY) > 0)) {
                throw new IllegalArgumentException(
                        "wordstats.store.snapshot-every must be from 100ms to 1h, was " + snapshotEvery);
            }
        }
    }

    /** What start-up does with a snapshot it cannot read: see {@link Store#onBadSnapshot()}. */
    public enum BadSnapshotPolicy {
        /** Stop the start with a message naming the file and what is wrong. */
        FAIL,
        /** Move the file aside, log it, and start with no counts. */
        START_EMPTY
    }
}
