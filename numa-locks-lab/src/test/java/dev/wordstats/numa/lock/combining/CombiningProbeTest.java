package dev.wordstats.numa.lock.combining;

import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.CountingProbe;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.probe.LockStats;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What the combining types add to the {@link LockProbe} contract of numa-locks' LockProbeTest: a combiner
 * reports the batch it ran for its waiters.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CombiningProbeTest {

    private static final NodeLocator ONE_NODE = NodeLocator.singleNode();

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = LockType.class,
            names = {"COMBINING", "NUMA_COMBINING"})
    void aCombinerReportsTheBatchItRanForItsWaiters(LockType type) throws Exception {
        CountingProbe probe = new CountingProbe(ONE_NODE);
        LockSettings largeBatches = LockSettings.DEFAULTS.with(CombiningContractTest.LARGE_BATCHES);
        Guard guard = type.create(TestLocks.context(ONE_NODE), largeBatches, probe);
        int waiters = 3;
        try (Workers workers = new Workers(guard)) {
            CombiningContractTest.Holding holding = CombiningContractTest.hold(guard, ThreadKind.VIRTUAL, workers);
            for (int i = 0; i < waiters; i++) {
                CombiningContractTest.queue(workers, ThreadKind.VIRTUAL, "waiter-" + i, () -> guard.run(() -> {}));
            }
            holding.release();
            workers.joinAll(PROMPT);
        }
        assertThat(probe.batches()).as("one batch").isEqualTo(1);
        assertThat(probe.batchedSections()).as("the waiters' critical sections").isEqualTo(waiters);
        assertThat(probe.stats()).isEqualTo(new LockStats(1, waiters, waiters, 0));
    }
}
