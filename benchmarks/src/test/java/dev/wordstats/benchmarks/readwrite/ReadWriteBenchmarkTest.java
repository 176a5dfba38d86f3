package dev.wordstats.benchmarks.readwrite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockSettings;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openjdk.jmh.annotations.Param;

/** The benchmark's lifecycle run by hand, as JMH runs it: tiny trials of every lock type and the bound. */
@Timeout(60) // a round joins its threads without a bound of its own
class ReadWriteBenchmarkTest {

    private static final LockContext ONE_NODE =
            new LockContext(NodeLocator.singleNode(), CarrierPinning.schedulerParallelism());

    @Test
    void everyTypeAndTheBoundDoTheWholeBudgetAndCountEveryWrite() throws Exception {
        for (String lockType : lockTypes()) {
            for (String reads : List.of("word", "stripe")) {
                for (int stripes : new int[] {1, 4}) {
                    ReadWriteMetrics metrics = trial(lockType, reads, stripes, 50);
                    assertThat(metrics.readsPerSec)
                            .as("%s, %s reads, %d stripes", lockType, reads, stripes)
                            .isPositive();
                    assertThat(metrics.writesPerSec).isPositive();
                    assertThat(metrics.waitMaxUs).isGreaterThanOrEqualTo(metrics.waitP99Us);
                }
            }
        }
    }

    @Test
    void aRoundSplitsItsOperationsOverItsThreadsAndCountsEveryWrite() throws Exception {
        String[] words = {"a", "b", "c", "d", "e"};
        Stripes store = new Stripes.Guarded(
                words, 2, s -> LockType.NUMA_RW.create(ONE_NODE, LockSettings.DEFAULTS, LockProbe.NONE));
        // 6 threads, 1000 operations: shares 167, 167, 167, 167, 166, 166; threads 1, 3 and 5 write
        ReadWriteRound round = new ReadWriteRound(store, 1000, 6, 3, true, 7, t -> Thread.ofVirtual());
        round.start();
        round.run();
        assertThat(round.writes()).isEqualTo(167 + 167 + 166);
        assertThat(round.reads()).isEqualTo(167 + 167 + 166);
        assertThat(store.total()).isEqualTo(words.length + round.writes());
        ReadWriteMetrics metrics = new ReadWriteMetrics();
        round.report(metrics);
        assertThat(metrics.readsPerSec).isPositive();
        assertThat(metrics.writesPerSec).isPositive();
        assertThat(metrics.waitMaxUs).isGreaterThanOrEqualTo(metrics.waitP99Us);
    }

    @Test
    void theReadShareKeepsAReaderAndAWriter() {
        assertThat(ReadWriteRound.readersFor(64, 50)).isEqualTo(32);
        assertThat(ReadWriteRound.readersFor(64, 90)).isEqualTo(58);
        assertThat(ReadWriteRound.readersFor(64, 99)).isEqualTo(63);
        assertThat(ReadWriteRound.readersFor(2, 99)).isEqualTo(1);
        assertThat(ReadWriteRound.readersFor(2, 1)).isEqualTo(1);
    }

    /** Two invocations of 400 operations on 4 threads; each one's tear-down throws unless the totals add up. */
    private static ReadWriteMetrics trial(String lockType, String reads, int stripes, int readShare) throws Exception {
        ReadWriteBenchmark bench = new ReadWriteBenchmark();
        bench.lockType = lockType;
        bench.operations = 400;
        bench.threads = 4;
        bench.readShare = readShare;
        bench.stripes = stripes;
        bench.reads = reads;
        bench.vocabulary = 20;
        bench.seed = 42;
        bench.simulatedNodes = 0;
        bench.pinCarriers = false;
        bench.scheduler = "default";
        bench.setUpTrial();
        ReadWriteMetrics metrics = new ReadWriteMetrics();
        try {
            for (int i = 0; i < 2; i++) {
                metrics.reset();
                bench.setUpRound();
                bench.readAndWrite(metrics);
                bench.check();
            }
        } finally {
            bench.tearDownTrial();
        }
        return metrics;
    }

    private static List<String> lockTypes() throws NoSuchFieldException {
        return List.of(ReadWriteBenchmark.class
                .getField("lockType")
                .getAnnotation(Param.class)
                .value());
    }
}
