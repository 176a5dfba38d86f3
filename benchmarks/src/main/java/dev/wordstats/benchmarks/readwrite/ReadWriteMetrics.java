package dev.wordstats.benchmarks.readwrite;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the read/write benchmark reports beside its time, as JMH secondary results (one value per
 * iteration; JMH averages them over iterations and forks). The runner copies them into its CSV and JSON.
 *
 * <ul>
 * <li>{@code readsPerSec}, {@code writesPerSec}: the reads and the writes the round did, each over its
 * role's time: from the start signal to the last reader's (writer's) last operation.</li>
 * <li>{@code waitP99Us}, {@code waitMaxUs}: the writers' waits, from asking for a write section to its
 * start, over every write of the round, in microseconds (named as the contention benchmark's waits, so the
 * runner's tables show them); {@code readWaitP99Us} the same for reads.</li>
 * </ul>
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class ReadWriteMetrics {

    public double readsPerSec;
    public double writesPerSec;
    public double waitP99Us;
    public double waitMaxUs;
    public double readWaitP99Us;

    @Setup(Level.Iteration)
    public void reset() {
        readsPerSec = 0;
        writesPerSec = 0;
        waitP99Us = 0;
        waitMaxUs = 0;
        readWaitP99Us = 0;
    }
}
