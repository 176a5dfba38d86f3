package dev.wordstats.benchmarks.runner;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;

/**
 * Starts JMH for the runner's two modes, a plain preset run ({@link BenchRunner}) and an interleaved
 * comparison ({@link InterleavedComparison}). Both depend on this class, and it on neither, so the
 * entry point calls the comparison and never the other way round.
 */
final class JmhRuns {

    private JmhRuns() {}

    /**
     * Runs JMH; while another JMH run holds the machine-wide JMH lock (two measurements at once
     * would disturb each other), waits and retries, up to {@code bench.lockWaitSeconds} (default
     * 900). The CI smoke run sets {@code -Djmh.ignoreLock=true} instead: it measures nothing.
     */
    static Collection<RunResult> runWaitingForJmhLock(Options options) throws RunnerException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.getLong("bench.lockWaitSeconds", 900));
        while (true) {
            try {
                return new Runner(options).run();
            } catch (RunnerException e) {
                boolean locked = String.valueOf(e.getMessage()).contains("Unable to acquire the JMH lock");
                if (!locked || System.nanoTime() > deadline) {
                    throw e;
                }
                System.out.println("== another JMH run holds the JMH lock; waiting 10 s and retrying");
                try {
                    Thread.sleep(10_000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
