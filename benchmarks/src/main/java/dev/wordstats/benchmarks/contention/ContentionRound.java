package dev.wordstats.benchmarks.contention;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.topology.NodeLocator;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One invocation of the contention benchmark: {@code actionsCount} actions split as evenly as
 * possible over {@code threads} virtual threads that start together. Each action is
 *
 * <pre>
 *   consumeCPU(beforeCpuTokens); yieldsBefore x Thread.yield();
 *   guard.run({ [remote penalty]; consumeCPU(inCpuTokens); [Thread.yield()] });
 * </pre>
 *
 * <p>The critical section goes through the {@link Guard} API, so every lock type runs the same
 * workload: a {@code Lock} type takes and releases its lock around it on the caller's thread, a
 * delegating type may run it on the thread that holds the lock. Each worker hands over one
 * {@link Runnable} made once, so the benchmark allocates nothing per action.
 *
 * <p><b>NUMA penalty model.</b> Inside the critical section the thread running it asks the node
 * locator for its node; when the previous one was on another node, the owner first burns
 * {@code remotePenaltyTokens} more tokens. That models the protected cache lines moving between
 * sockets, and nothing else: it rewards a lock for keeping consecutive owners on one node, it does
 * not reproduce real remote-memory latency, interconnect traffic or the lock's own cache lines
 * moving. On a one-node host with simulated nodes, the "nodes" are groups of CPUs of one socket.
 *
 * <p>Lifecycle: {@link #start()} creates and starts the threads, which park until {@link #run()}
 * unparks every one of them and returns when every action is done (the part JMH times). Each
 * thread does its first action, then waits for the others' first; the last one wakes them from
 * inside the guard, so that every round starts with all threads queued on it.
 * {@link #report(ContentionMetrics)} fills in the secondary results; {@link #join()} waits for the
 * threads to end.
 */
final class ContentionRound {

    /** Waits longer than this are recorded as this (a histogram needs a bound). */
    private static final long MAX_RECORDED_WAIT_NANOS = 10_000_000_000L;

    private final Guard guard;
    private final NodeLocator nodes;
    private final long beforeCpuTokens;
    private final long inCpuTokens;
    private final int yieldsBefore;
    private final boolean yieldInCrit;
    private final long remotePenaltyTokens;
    private final boolean recordWaits;

    private final Worker[] workers;
    private final Thread[] threads;
    private final CountDownLatch ready;
    private volatile boolean go; // set by run() before it unparks every worker; read by the workers
    private final CountDownLatch done;

    private final AtomicInteger begun = new AtomicInteger(); // workers that have done their first action
    private volatile boolean windowStarted; // set by the last worker to finish its first action: all go on
    private volatile boolean windowOpen =
            true; // cleared by the first worker to finish its share; read by all after each action
    private volatile Throwable failure; // set by a worker that threw; read by run() after done
    private List<Path> carrierTasks = List.of(); // set by start(), read by report()
    private CarrierTimes carriersAtStart = CarrierTimes.UNAVAILABLE; // set by start(), read by report()
    private long startNanos; // set by start(), read by report()

    private int lastOwnerNode = -1; // guarded by guard: the node of the previous runner, -1 before the first
    private long handoffs; // guarded by guard
    private long crossNodeHandoffs; // guarded by guard

    ContentionRound(
            Guard guard,
            NodeLocator nodes,
            int actionsCount,
            int threadCount,
            long beforeCpuTokens,
            long inCpuTokens,
            int yieldsBefore,
            boolean yieldInCrit,
            long remotePenaltyTokens,
            boolean recordWaits) {
        this(
                guard,
                nodes,
                actionsCount,
                threadCount,
                beforeCpuTokens,
                inCpuTokens,
                yieldsBefore,
                yieldInCrit,
                remotePenaltyTokens,
                recordWaits,
                i -> Thread.ofVirtual());
    }

    /** As above, thread {@code i} built by {@code builders.apply(i)} (e.g. on node {@code i mod nodes}). */
    ContentionRound(
            Guard guard,
            NodeLocator nodes,
            int actionsCount,
            int threadCount,
            long beforeCpuTokens,
            long inCpuTokens,
            int yieldsBefore,
            boolean yieldInCrit,
            long remotePenaltyTokens,
            boolean recordWaits,
            IntFunction<Thread.Builder.OfVirtual> builders) {
        if (threadCount < 1 || actionsCount < threadCount) {
            throw new IllegalArgumentException(
                    "need 1 <= threads <= actionsCount, got threads=" + threadCount + ", actionsCount=" + actionsCount);
        }
        this.guard = guard;
        this.nodes = nodes;
        this.beforeCpuTokens = beforeCpuTokens;
        this.inCpuTokens = inCpuTokens;
        this.yieldsBefore = yieldsBefore;
        this.yieldInCrit = yieldInCrit;
        this.remotePenaltyTokens = remotePenaltyTokens;
        this.recordWaits = recordWaits;
        this.workers = new Worker[threadCount];
        this.threads = new Thread[threadCount];
        this.ready = new CountDownLatch(threadCount);
        this.done = new CountDownLatch(threadCount);
        int share = actionsCount / threadCount;
        int remainder = actionsCount % threadCount;
        for (int i = 0; i < threadCount; i++) {
            workers[i] = new Worker(share + (i < remainder ? 1 : 0));
            threads[i] = builders.apply(i).name("contender-" + i).unstarted(workers[i]);
        }
    }

    /** Starts every thread and returns once all have started (each then parks until {@link #run()}). */
    void start() throws InterruptedException {
        for (Thread thread : threads) {
            thread.start();
        }
        ready.await();
        carrierTasks = CarrierTimes.carrierTasks();
        carriersAtStart = CarrierTimes.read(carrierTasks); // every thread parked: the carriers are idle
        startNanos = System.nanoTime();
    }

    /**
     * Lets the threads go and returns when every action is done. Each thread is unparked here, not
     * woken by the one before it through a latch (a latch wakes its waiters in a chain, each link
     * waiting for a carrier, which let the first threads run thousands of actions alone).
     */
    void run() throws InterruptedException {
        go = true;
        for (Thread thread : threads) {
            LockSupport.unpark(thread);
        }
        done.await();
        if (failure != null) {
            throw new IllegalStateException("a contender failed", failure);
        }
    }

    /** Waits for the threads to end (they end right after their last action). */
    void join() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    /** The total actions done, for checks. */
    long actionsDone() {
        long total = 0;
        for (Worker worker : workers) {
            total += worker.done;
        }
        return total;
    }

    /** Fills the secondary results of this round (after {@link #run()}). */
    void report(ContentionMetrics metrics) {
        long[] shares = new long[workers.length];
        for (int i = 0; i < workers.length; i++) {
            shares[i] = workers[i].inWindow;
        }
        // No window: a thread did its whole share before another had done one action, as unfair as it gets.
        metrics.fairness = windowStarted ? JainIndex.of(shares) : 1.0 / shares.length;
        metrics.crossNodePct = handoffs == 0 ? 0 : 100.0 * crossNodeHandoffs / handoffs;
        long wall = System.nanoTime() - startNanos;
        CarrierTimes carriersNow = CarrierTimes.read(carrierTasks);
        metrics.carrierBusyCpus = carriersNow.busyCpusSince(carriersAtStart, wall);
        metrics.carrierWaitPct = carriersNow.waitingPctSince(carriersAtStart, wall);
        if (recordWaits) {
            Histogram all = new Histogram(MAX_RECORDED_WAIT_NANOS, 2);
            for (Worker worker : workers) {
                all.add(worker.waits);
            }
            metrics.waitP50Us = all.getValueAtPercentile(50) / 1000.0;
            metrics.waitP99Us = all.getValueAtPercentile(99) / 1000.0;
            metrics.waitMaxUs = all.getMaxValue() / 1000.0;
        }
    }

    /** The critical section; runs under the guard's mutual exclusion. */
    private void criticalSection() {
        int node = nodes.currentNode();
        int previous = lastOwnerNode;
        if (previous >= 0) {
            handoffs++;
            if (previous != node) {
                crossNodeHandoffs++;
                if (remotePenaltyTokens > 0) {
                    Blackhole.consumeCPU(remotePenaltyTokens);
                }
            }
        }
        lastOwnerNode = node;
        Blackhole.consumeCPU(inCpuTokens);
        if (yieldInCrit) {
            Thread.yield();
        }
    }

    private final class Worker implements Runnable {
        private final int actions;
        private final Histogram waits; // written by this worker only, read by report() after done
        private final Runnable section = this::inSection; // made once: no allocation per action
        private final Runnable releaseOthers = this::releaseOthers;
        private long asked; // written by this worker before each call, read in its critical section
        private long waited; // written in this worker's critical section, read by it after the call
        private long inWindow; // written by this worker only, read by report() after done
        private long done; // written by this worker only, read after done

        Worker(int actions) {
            this.actions = actions;
            this.waits = recordWaits ? new Histogram(MAX_RECORDED_WAIT_NANOS, 2) : null;
        }

        @Override
        public void run() {
            try {
                ready.countDown();
                while (!go) {
                    LockSupport.park(this);
                }
                act();
                arrive();
                for (int i = 1; i < actions; i++) {
                    act();
                }
            } catch (Throwable t) {
                failure = t;
            } finally {
                windowOpen = false;
                ContentionRound.this.done.countDown();
            }
        }

        /**
         * Run by the last worker to arrive, inside the guard: wakes every other worker and yields
         * its carrier, so that the others (queued on this carrier by the wake-up) run and block on
         * the guard before anyone goes on.
         */
        private void releaseOthers() {
            Thread self = Thread.currentThread();
            for (Thread thread : threads) {
                if (thread != self) {
                    LockSupport.unpark(thread);
                }
            }
            Thread.yield();
        }

        /**
         * After its first action a worker waits for every other worker's first action; the last one
         * lets them all go on. No thread can run ahead while the scheduler is still getting the others
         * onto a carrier (the JDK's scheduler may leave a carrier idle for milliseconds while one
         * thread that never blocks holds the other), and the fairness window starts with everyone in.
         */
        private void arrive() {
            if (begun.incrementAndGet() == workers.length) {
                windowStarted = true;
                guard.run(releaseOthers); // they queue on the guard, none runs ahead of the others
            } else {
                while (!windowStarted) {
                    LockSupport.park(this);
                }
            }
        }

        private void act() {
            if (beforeCpuTokens > 0) {
                Blackhole.consumeCPU(beforeCpuTokens);
            }
            for (int y = 0; y < yieldsBefore; y++) {
                Thread.yield();
            }
            if (recordWaits) {
                asked = System.nanoTime();
            }
            guard.run(section);
            if (recordWaits) {
                waits.recordValue(Math.min(waited, MAX_RECORDED_WAIT_NANOS));
            }
            if (windowOpen && windowStarted) {
                inWindow++;
            }
            done++;
        }

        /** Runs on whichever thread the guard chooses; the guard orders it with the worker's call. */
        private void inSection() {
            if (recordWaits) {
                waited = System.nanoTime() - asked;
            }
            criticalSection();
        }
    }
}
