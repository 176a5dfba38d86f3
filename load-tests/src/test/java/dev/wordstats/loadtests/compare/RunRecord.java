package dev.wordstats.loadtests.compare;

import java.nio.file.Path;
import java.util.Optional;

/**
 * One run of the comparison: one lock type in one repeat.
 *
 * @param repeat the repeat, from 1
 * @param position the lock's place in that repeat's order, from 1
 * @param lock the lock type
 * @param gatling Gatling's figures and verdict
 * @param metrics the lock figures read from the service
 * @param peakServiceFds the most file descriptors the service held during the run, -1 unknown
 * @param gatlingReport the run's Gatling HTML report (index.html), when Gatling wrote one
 */
record RunRecord(
        int repeat,
        int position,
        String lock,
        GatlingRun.Result gatling,
        LockMetrics metrics,
        long peakServiceFds,
        Optional<Path> gatlingReport) {

    boolean passed() {
        return gatling.passed();
    }
}
