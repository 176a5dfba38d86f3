package dev.wordstats.benchmarks.runner;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Whether Linux {@code perf} can count here (JMH's perfnorm, perfasm and perfc2c profilers run it):
 * it must be installed and {@code perf stat true} must succeed (a container or
 * {@code kernel.perf_event_paranoid} may forbid it). Checked once per run.
 */
final class PerfSupport {

    private static volatile String verdict; // null until checked; "" when usable, else the reason

    private PerfSupport() {}

    static boolean usable(String profiler) {
        return why().isEmpty();
    }

    /** Empty when perf works, else why it does not. */
    static String why() {
        String v = verdict;
        if (v == null) {
            v = check();
            verdict = v;
        }
        return v;
    }

    private static String check() {
        try {
            Process p = new ProcessBuilder("perf", "stat", "-e", "task-clock", "true")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "perf stat did not finish in 20 s";
            }
            return p.exitValue() == 0 ? "" : "perf stat exited with " + p.exitValue() + " (perf_event_paranoid?)";
        } catch (IOException e) {
            return "no perf on the PATH";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
