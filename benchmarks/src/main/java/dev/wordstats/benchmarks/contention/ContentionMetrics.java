package dev.wordstats.benchmarks.contention;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the contention benchmark reports beside its time, as JMH secondary results (one value per
 * iteration; JMH averages them over iterations and forks). The runner copies them into its CSV and
 * JSON.
 *
 * <ul>
 * <li>{@code waitP50Us}, {@code waitP99Us}, {@code waitMaxUs}: time from calling {@code lock()} to
 * holding the lock, over every acquisition of the invocation, in microseconds.</li>
 * <li>{@code fairness}: Jain's index over the acquisitions each thread made while all threads were
 * running: from the moment every thread had done its first action to the moment the first thread
 * finished its share ({@code 1/threads} when a thread finished before another had begun).</li>
 * <li>{@code crossNodePct}: the share of owner-to-owner handoffs between different (possibly
 * simulated) nodes, in percent.</li>
 * <li>{@code csNanos}: the critical section's length with no lock and no contention, measured in
 * the same JVM before the run: the runner's critical-section efficiency is
 * {@code throughput x csNanos}.</li>
 * <li>{@code carrierBusyCpus}, {@code carrierWaitPct}: what the operating system did with the
 * carrier threads during the invocation ({@link CarrierTimes}): CPUs' worth of time they ran, and
 * the percent of their time they were runnable but waiting for a CPU: preempted by other threads or
 * processes, or just woken and not yet running. NaN where Linux's scheduler statistics are missing.
 * A round whose carriers were preempted for
 * milliseconds has long waits whatever the lock.</li>
 * </ul>
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class ContentionMetrics {

    public double waitP50Us;
    public double waitP99Us;
    public double waitMaxUs;
    public double fairness;
    public double crossNodePct;
    public double csNanos;
    public double carrierBusyCpus;
    public double carrierWaitPct;

    @Setup(Level.Iteration)
    public void reset() {
        waitP50Us = 0;
        waitP99Us = 0;
        waitMaxUs = 0;
        fairness = 0;
        crossNodePct = 0;
        csNanos = 0;
        carrierBusyCpus = 0;
        carrierWaitPct = 0;
    }
}
