package dev.wordstats.benchmarks.readwrite;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;

/**
 * One invocation of the read/write benchmark: {@code threads} virtual threads, {@code readers} of them
 * readers and the others writers (spread evenly over the thread numbers, so over the nodes too), do
 * {@code operations} operations split as evenly as possible over them. A writer's operation adds one to
 * a word drawn at random; a reader's reads a word drawn at random, a short read ({@code Stripes.get}) or a
 * copy of the word's whole stripe ({@code Stripes.copyStripeOf}). Each role's throughput is its
 * operations over the time from the start to its last thread's last operation, so a lock that lets the
 * readers through first shows as writers that finish late (fewer writes/s), and the other way round.
 *
 * <p>Lifecycle: {@link #start()} starts the threads, which wait for {@link #run()}; it returns once every
 * thread has ended. Each thread does its first operation, then waits until every other one has done
 * its first: two threads that never block would otherwise keep the carriers (virtual threads are not
 * time-sliced) and do their shares before the others start. {@link #report(ReadWriteMetrics)} fills in
 * the secondary results.
 */
final class ReadWriteRound {

    /** Waits longer than this are recorded as this (a histogram needs a bound). */
    private static final long MAX_RECORDED_WAIT_NANOS = 10_000_000_000L;

    private final Stripes stripes;
    private final boolean wholeStripeReads;
    private final Worker[] workers;
    private final Thread[] threads;
    private final AtomicInteger begun = new AtomicInteger(); // workers that have done their first operation
    private volatile boolean allIn; // set by the last worker to do its first operation; read by the others
    private final CountDownLatch ready;
    private final CountDownLatch go = new CountDownLatch(1);
    private final CountDownLatch done;
    private volatile Throwable failure; // set by a worker that threw; read by run() after done
    private long beginNanos; // written and read by the thread that calls run() and report()

    ReadWriteRound(
            Stripes stripes,
            int operations,
            int threadCount,
            int readers,
            boolean wholeStripeReads,
            long seed,
            IntFunction<Thread.Builder.OfVirtual> builders) {
        if (readers < 0 || readers > threadCount || threadCount < 1) {
            throw new IllegalArgumentException(
                    "need 0 <= readers <= threads, 1 <= threads; got readers=" + readers + ", threads=" + threadCount);
        }
        this.stripes = stripes;
        this.wholeStripeReads = wholeStripeReads;
        this.workers = new Worker[threadCount];
        this.threads = new Thread[threadCount];
        this.ready = new CountDownLatch(threadCount);
        this.done = new CountDownLatch(threadCount);
        int writers = threadCount - readers;
        int share = operations / threadCount;
        int remainder = operations % threadCount;
        for (int t = 0; t < threadCount; t++) {
            // writers evenly spaced: thread t writes when floor((t + 1) * writers / threads) steps up at t
            boolean writer = (long) (t + 1) * writers / threadCount > (long) t * writers / threadCount;
            workers[t] = new Worker(writer, share + (t < remainder ? 1 : 0), new SplittableRandom(seed + t));
            threads[t] =
                    builders.apply(t).name((writer ? "writer-" : "reader-") + t).unstarted(workers[t]);
        }
    }

    /** Readers among {@code threads} for a read share of {@code readSharePct}: at least one of each kind. */
    static int readersFor(int threads, int readSharePct) {
        if (threads < 2) {
            throw new IllegalArgumentException("need a reader and a writer, got threads=" + threads);
        }
        int readers = Math.round(threads * readSharePct / 100.0f);
        return Math.max(1, Math.min(threads - 1, readers));
    }

    void start() throws InterruptedException {
        for (Thread thread : threads) {
            thread.start();
        }
        ready.await();
    }

    /** Lets every worker go and returns when every worker has ended. */
    void run() throws InterruptedException {
        beginNanos = System.nanoTime();
        go.countDown();
        done.await();
        for (Thread thread : threads) {
            thread.join();
        }
        Throwable t = failure;
        if (t != null) {
            throw new IllegalStateException("a worker failed", t);
        }
    }

    long reads() {
        long n = 0;
        for (Worker w : workers) {
            n += w.writer ? 0 : w.done;
        }
        return n;
    }

    long writes() {
        long n = 0;
        for (Worker w : workers) {
            n += w.writer ? w.done : 0;
        }
        return n;
    }

    /** Fills the secondary results of this round (after {@link #run()}). */
    void report(ReadWriteMetrics metrics) {
        long readsEnd = beginNanos;
        long writesEnd = beginNanos;
        for (Worker w : workers) {
            if (w.writer) {
                writesEnd = Math.max(writesEnd, w.finishedNanos);
            } else {
                readsEnd = Math.max(readsEnd, w.finishedNanos);
            }
        }
        metrics.readsPerSec = perSecond(reads(), readsEnd - beginNanos);
        metrics.writesPerSec = perSecond(writes(), writesEnd - beginNanos);
        Histogram writeWaits = new Histogram(MAX_RECORDED_WAIT_NANOS, 2);
        Histogram readWaits = new Histogram(MAX_RECORDED_WAIT_NANOS, 2);
        for (Worker w : workers) {
            (w.writer ? writeWaits : readWaits).add(w.waitHistogram);
        }
        metrics.waitP99Us = writeWaits.getValueAtPercentile(99) / 1000.0;
        metrics.waitMaxUs = writeWaits.getMaxValue() / 1000.0;
        metrics.readWaitP99Us = readWaits.getValueAtPercentile(99) / 1000.0;
    }

    private static double perSecond(long count, long nanos) {
        return count == 0 ? 0 : count / (Math.max(1, nanos) / 1e9);
    }

    private final class Worker implements Runnable {
        private final boolean writer;
        private final int operations;
        private final SplittableRandom random;
        private final Stripes.Waits waits = new Stripes.Waits(); // this worker's operation in flight
        private final Histogram waitHistogram; // written by this worker only, read by report() after run()
        private long done; // written by this worker only, read after run()
        private long finishedNanos; // written by this worker after its last operation, read after run()
        private long sink; // what the reads returned, so that none is optimised away

        Worker(boolean writer, int operations, SplittableRandom random) {
            this.writer = writer;
            this.operations = operations;
            this.random = random;
            this.waitHistogram = new Histogram(MAX_RECORDED_WAIT_NANOS, 2);
        }

        @Override
        public void run() {
            try {
                ready.countDown();
                go.await();
                operate();
                arrive();
                for (int i = 1; i < operations; i++) {
                    operate();
                }
                finishedNanos = System.nanoTime();
                if (sink == Long.MIN_VALUE) {
                    System.out.println("unreachable: " + sink);
                }
            } catch (Throwable t) {
                failure = t;
            } finally {
                ReadWriteRound.this.done.countDown();
            }
        }

        /** Waits until every worker has done its first operation; the last one lets them all go on. */
        private void arrive() {
            if (begun.incrementAndGet() == workers.length) {
                allIn = true;
                Thread self = Thread.currentThread();
                for (Thread thread : threads) {
                    if (thread != self) {
                        LockSupport.unpark(thread);
                    }
                }
            } else {
                while (!allIn) {
                    LockSupport.park(this);
                }
            }
        }

        private void operate() {
            int w = random.nextInt(stripes.words.length);
            if (writer) {
                stripes.increment(w, waits);
            } else if (wholeStripeReads) {
                sink += stripes.copyStripeOf(w, waits);
            } else {
                sink += stripes.get(w, waits);
            }
            waitHistogram.recordValue(Math.min(Math.max(0, waits.waited), MAX_RECORDED_WAIT_NANOS));
            done++;
        }
    }
}
