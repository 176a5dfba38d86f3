package dev.wordstats.deploy;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;

/**
 * Decides whether the container tests run. Without a Docker engine they are skipped, loudly
 * (a banner on stderr and in the skip reason), except where one is promised: with {@code CI} set
 * and {@code WORDSTATS_DOCKER_REQUIRED=true} (exported by {@code .ci/run} once dockerd answers) a
 * missing engine fails the run instead, so a broken CI setup cannot pass as a silent green.
 * Testcontainers' own {@code disabledWithoutDocker} has no such switch.
 */
final class DockerRequirement {

    private DockerRequirement() {}

    static boolean dockerRequired() {
        String ci = System.getenv("CI");
        return ci != null
                && !ci.isBlank()
                && !ci.equalsIgnoreCase("false")
                && "true".equalsIgnoreCase(System.getenv("WORDSTATS_DOCKER_REQUIRED"));
    }

    /** Returns when a Docker engine answers; otherwise fails (Docker required) or aborts the class. */
    static void requireDockerOrSkip(String what) {
        Throwable cause = null;
        boolean available;
        try {
            available = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            available = false;
            cause = e;
        }
        if (available) {
            return;
        }
        String reason = "no Docker engine answers (DOCKER_HOST=" + System.getenv("DOCKER_HOST")
                + (cause == null ? "" : ", " + cause) + ")";
        if (dockerRequired()) {
            Assertions.fail("CI=" + System.getenv("CI") + " and WORDSTATS_DOCKER_REQUIRED=true, but " + reason
                    + ": the container tests (" + what + ") cannot run");
        }
        String banner = "\n" + "!".repeat(78) + "\n!! SKIPPED: " + what + "\n!! because " + reason
                + "\n!! Start dockerd (see .ci/run) to run them; with CI=true and WORDSTATS_DOCKER_REQUIRED=true"
                + "\n!! this skip is a failure.\n" + "!".repeat(78);
        System.err.println(banner);
        Assumptions.abort("SKIPPED (no Docker): " + what + ": " + reason);
    }
}
