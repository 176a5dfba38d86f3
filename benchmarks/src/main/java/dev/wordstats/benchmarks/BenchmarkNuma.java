package dev.wordstats.benchmarks;

import dev.wordstats.numa.scheduler.SchedulerMode;
import dev.wordstats.numa.setup.NumaSetup;
import java.util.function.IntFunction;

/**
 * The benchmarks' NUMA set-up: {@link NumaSetup} with the benchmark's parameters, its state
 * printed to standard output (JMH shows it in the run log), and the rule that spreads a round's
 * threads evenly over the nodes (thread i on node {@code i mod nodes}).
 */
public final class BenchmarkNuma {

    private BenchmarkNuma() {}

    /**
     * Detects the topology, applies {@code simulatedNodes} (0 = the real nodes), pins the default
     * scheduler's carriers when {@code pin} is set, starts per-node schedulers when {@code scheduler}
     * is {@code per-node}, and prints all of it. Close it in the trial's tear-down.
     */
    public static NumaSetup create(int simulatedNodes, boolean pin, String scheduler) {
        NumaSetup numa = NumaSetup.builder()
                .simulatedNodes(simulatedNodes)
                .pinCarriers(pin)
                .scheduler(SchedulerMode.parse(scheduler))
                .build();
        System.out.println("# topology: " + numa.topology().summary());
        System.out.println("# carriers: " + numa.pinningSummary());
        System.out.println("# scheduler: " + numa.schedulerSummary());
        System.out.println("# virtual-thread unblocker: " + numa.unblockerSummary());
        return numa;
    }

    /** Builders of a round's threads: thread {@code i} on node {@code i mod nodes}. */
    public static IntFunction<Thread.Builder.OfVirtual> spreadOverNodes(NumaSetup numa) {
        int nodes = numa.schedulers().nodeCount();
        return i -> numa.schedulers().builder(i % nodes);
    }
}
