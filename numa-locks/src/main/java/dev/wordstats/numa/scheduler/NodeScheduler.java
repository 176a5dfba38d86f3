package dev.wordstats.numa.scheduler;

import java.util.BitSet;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The virtual-thread scheduler of one node: in per-node mode a {@link ForkJoinPool} (FIFO, as the
 * JDK's default scheduler) whose workers are {@link NodeCarrierThread}s pinned to the node's CPUs;
 * in default mode no pool at all, and its threads go to the JDK's default scheduler.
 *
 * <p>Threads made by {@link #newThread(Runnable, String)} are counted ({@link #threadsStarted()},
 * {@link #threadsRunning()}); those of {@link #builder()} are not.
 */
public final class NodeScheduler {

    private static final long CARRIER_KEEP_ALIVE_SECONDS = 30;
    private static final int MAX_CARRIERS = 256;

    final NodeSchedulers owner; // final: the set this node belongs to, compared by the node lookup
    private final int node;
    private final BitSet cpus;
    private final ForkJoinPool pool; // null in default mode
    private final AtomicInteger carrierNumbers = new AtomicInteger(); // next carrier's number; getAndIncrement
    private final Set<NodeCarrierThread> carriers = ConcurrentHashMap.newKeySet(); // live carriers
    private final LongAdder started = new LongAdder(); // threads made by newThread
    private final AtomicInteger running = new AtomicInteger(); // newThread's threads not yet finished
    private final AtomicInteger threadNumbers = new AtomicInteger(); // for thread names

    NodeScheduler(NodeSchedulers owner, int node, BitSet cpus, int carriers, boolean perNode) {
        this.owner = owner;
        this.node = node;
        this.cpus = (BitSet) cpus.clone();
        this.pool = perNode ? newPool(carriers) : null;
    }

    private ForkJoinPool newPool(int parallelism) {
        ForkJoinPool.ForkJoinWorkerThreadFactory factory = p -> new NodeCarrierThread(
                p, this, "wordstats-node" + node + "-carrier-" + carrierNumbers.getAndIncrement());
        Thread.UncaughtExceptionHandler ignore = (t, e) -> {}; // a continuation step never throws out
        return new ForkJoinPool(
                parallelism,
                factory,
                ignore,
                true,
                0,
                Math.max(parallelism, MAX_CARRIERS),
                1,
                p -> true,
                CARRIER_KEEP_ALIVE_SECONDS,
                TimeUnit.SECONDS);
    }

    /** The node index. */
    public int node() {
        return node;
    }

    /** The node's CPUs (a copy of what the carriers are pinned to). */
    public BitSet cpus() {
        return (BitSet) cpus.clone();
    }

    /** Whether this node has a pool of its own (per-node mode) rather than the default scheduler. */
    public boolean ownCarriers() {
        return pool != null;
    }

    /**
     * A new builder of virtual threads for this node: on its carriers in per-node mode,
     * {@code Thread.ofVirtual()} otherwise. Threads it makes are not counted.
     */
    public Thread.Builder.OfVirtual builder() {
        return pool != null ? CustomScheduler.builder(pool) : Thread.ofVirtual();
    }

    /**
     * An unstarted virtual thread on this node running {@code task}, named
     * {@code <prefix><node>-<n>}, counted while it runs.
     */
    public Thread newThread(Runnable task, String prefix) {
        started.increment();
        running.incrementAndGet();
        Runnable counted = () -> {
            try {
                task.run();
            } finally {
                running.decrementAndGet();
            }
        };
        return builder()
                .name(prefix + node + "-" + threadNumbers.getAndIncrement())
                .unstarted(counted);
    }

    /** A factory of this node's threads ({@link #newThread(Runnable, String)}). */
    public ThreadFactory factory(String prefix) {
        return task -> newThread(task, prefix);
    }

    /** Threads made by {@link #newThread} so far. */
    public long threadsStarted() {
        return started.sum();
    }

    /** Threads made by {@link #newThread} that have not finished (or never started). */
    public int threadsRunning() {
        return running.get();
    }

    /** The live carriers, by name; empty in default mode. */
    public List<CarrierInfo> carriers() {
        return carriers.stream()
                .map(NodeCarrierThread::info)
                .sorted(Comparator.comparing(CarrierInfo::name))
                .toList();
    }

    /** The pool's target number of carriers; 0 in default mode. */
    public int parallelism() {
        return pool == null ? 0 : pool.getParallelism();
    }

    void carrierStarted(NodeCarrierThread carrier) {
        carriers.add(carrier);
    }

    void carrierEnded(NodeCarrierThread carrier) {
        carriers.remove(carrier);
    }

    /** Live carrier threads (for shutdown checks). */
    List<Thread> carrierThreads() {
        return List.copyOf(carriers);
    }

    /** Stops accepting work, waits up to {@code millis} for the carriers to finish, then interrupts them. */
    boolean shutdown(long millis) {
        if (pool == null) {
            return true;
        }
        pool.shutdown();
        try {
            if (pool.awaitTermination(millis, TimeUnit.MILLISECONDS)) {
                return true;
            }
            pool.shutdownNow();
            return pool.awaitTermination(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            pool.shutdownNow();
            return false;
        }
    }

    @Override
    public String toString() {
        return "node" + node + (pool == null ? " (default scheduler)" : " (" + pool.getParallelism() + " carriers)");
    }
}
