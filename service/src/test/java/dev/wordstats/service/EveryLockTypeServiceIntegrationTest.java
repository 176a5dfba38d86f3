package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.LockType;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The whole service over real HTTP once per {@link LockType} (every constant, so a new type is
 * covered the day it is added): the {@link CountingFlow} counts exactly, and the lock metrics carry
 * the type's name. Each type gets its own application on a random port, closed after its flow, so
 * only one runs at a time. Two simulated NUMA nodes (when the machine has two CPUs) so the NUMA-aware
 * types take their multi-node paths.
 */
@Timeout(120)
class EveryLockTypeServiceIntegrationTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockType.class)
    void concurrentPostsAreCountedExactlyAndTheLockMetricsCarryTheLockType(LockType type) throws Exception {
        // Command-line arguments: they win over application.yml, as for a real launch.
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(WordstatsApplication.class)
                .run(
                        "--server.port=0",
                        "--server.address=127.0.0.1",
                        "--wordstats.lock.type=" + type.name(),
                        "--wordstats.lock.stripes=8",
                        "--wordstats.numa.simulated-nodes="
                                + Math.min(2, Runtime.getRuntime().availableProcessors()))) {
            Integer port = app.getEnvironment().getProperty("local.server.port", Integer.class);
            assertThat(port).as("the service's port").isNotNull().isPositive();
            new CountingFlow(port, type).postConcurrentlyAndCheck();
        }
    }
}
