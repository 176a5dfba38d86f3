package dev.wordstats.loadtests.compare;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One run of the comparison: one lock type in one repeat.
 *
 * @param repeat the repeat, from 1
 * @param position the lock's place in that repeat's order, from 1
 * @param lock the lock type
 * @param gatling Gatling's figures and verdict
 * @param metrics the lock figures read from the service
 * @param server the service's HTTP figures by kind of request
 * @param peakServiceFds the most file descriptors the service held during the run, -1 unknown
 * @param gatlingReport the run's Gatling HTML report (index.html), when Gatling wrote one
 */
record RunRecord(
        int repeat,
        int position,
        String lock,
        GatlingRun.Result gatling,
        LockMetrics metrics,
        ServerRequests server,
        long peakServiceFds,
        Optional<Path> gatlingReport) {

    boolean passed() {
        return gatling.passed();
    }

    /**
     * The seconds Gatling's requests/s is over (its requests over its requests/s), which the service's
     * requests by kind are divided by, so that their rates compare with Gatling's; empty when Gatling did not
     * report both.
     */
    OptionalDouble measuredSeconds() {
        OptionalDouble requests = gatling.requests();
        OptionalDouble perSecond = gatling.requestsPerSecond();
        if (requests.isEmpty() || perSecond.isEmpty() || perSecond.getAsDouble() <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(requests.getAsDouble() / perSecond.getAsDouble());
    }
}
