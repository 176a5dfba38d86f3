package dev.wordstats.numa.scheduler;

import dev.wordstats.numa.setup.NumaSetup;

/**
 * Run in a child JVM where the custom scheduler is missing or refused: asks for per-node mode and
 * prints what it got, one {@code key=value} per line.
 */
public final class FallbackMain {

    private FallbackMain() {}

    public static void main(String[] args) throws Exception {
        try (NumaSetup numa = NumaSetup.builder()
                .simulatedNodes(2)
                .scheduler(SchedulerMode.PER_NODE)
                .build()) {
            NodeSchedulers schedulers = numa.schedulers();
            System.out.println("available=" + CustomScheduler.available());
            System.out.println("requested=" + schedulers.requestedMode());
            System.out.println("active=" + schedulers.activeMode());
            System.out.println("summary=" + numa.schedulerSummary());
            boolean[] virtual = new boolean[1];
            int[] node = {-1};
            Thread t = schedulers.placingFactory("fallback-").newThread(() -> {
                virtual[0] = Thread.currentThread().isVirtual();
                node[0] = numa.locator().currentNode();
            });
            t.start();
            t.join();
            System.out.println("ranVirtual=" + virtual[0]);
            System.out.println("nodeInRange=" + (node[0] >= 0 && node[0] < 2));
            System.out.println("carriers=" + schedulers.carrierThreads().size());
        }
    }
}
