package dev.wordstats.benchmarks;

import java.util.Arrays;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Calibrates {@link Blackhole#consumeCPU(long)}: how long {@code tokens} tokens take on this machine,
 * on one thread, with nothing else of the benchmark running. Used to turn token counts into the
 * critical-section length that the critical-section efficiency divides by.
 */
public final class CpuTokens {

    private CpuTokens() {}

    /**
     * The time of one {@code consumeCPU(tokens)} call in nanoseconds, after roughly
     * {@code warmupMillis} of warm-up: the fastest of 21 timed batches of about 1 ms, so that a
     * batch the OS preempted (a busy machine) does not count; 0 for {@code tokens <= 0}.
     */
    public static double nanosFor(long tokens, long warmupMillis) {
        if (tokens <= 0) {
            return 0;
        }
        long warmupEnd = System.nanoTime() + warmupMillis * 1_000_000L;
        while (System.nanoTime() < warmupEnd) {
            Blackhole.consumeCPU(tokens);
        }
        // Each batch lasts about 1 ms at 1 ns/token, so the two clock reads are noise.
        int callsPerBatch = (int) Math.max(1, 1_000_000L / tokens);
        double[] perCall = new double[21];
        for (int b = 0; b < perCall.length; b++) {
            long start = System.nanoTime();
            for (int i = 0; i < callsPerBatch; i++) {
                Blackhole.consumeCPU(tokens);
            }
            perCall[b] = (System.nanoTime() - start) / (double) callsPerBatch;
        }
        return Arrays.stream(perCall).min().orElseThrow();
    }
}
