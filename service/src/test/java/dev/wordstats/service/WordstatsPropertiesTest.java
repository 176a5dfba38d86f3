package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.queue.NumaMonitorLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** {@code wordstats.*} binding: defaults, lenient lock names, and startup failures that name the property. */
class WordstatsPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(PropertiesOnly.class);

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(WordstatsProperties.class)
    @Import(LockTypeBinding.class)
    static class PropertiesOnly {}

    @Test
    void defaultsAreSynchronizedRealTopologyAndDocumentedLimits() {
        runner.run(context -> {
            WordstatsProperties p = context.getBean(WordstatsProperties.class);
            assertThat(p.lock().type()).isEqualTo(LockType.NUMA_MONITOR);
            assertThat(p.lock().stripes()).isEqualTo(64);
            assertThat(p.lock().timing()).isTrue();
            assertThat(p.lock().timingSampleEvery()).isEqualTo(8);
            assertThat(p.lock().reserveAfter()).isEqualTo(Duration.ofMillis(1));
            assertThat(p.lock().settings().queue().reserveAfter()).isEqualTo(Duration.ofMillis(1));
            assertThat(p.numa().simulatedNodes()).isZero();
            assertThat(p.numa().pinCarriers()).isFalse();
            assertThat(p.limits().maxWordLength()).isEqualTo(100);
            assertThat(p.limits().maxBodyBytes().toBytes()).isEqualTo(1024 * 1024);
            assertThat(p.batch().parallelism()).isEqualTo(8);
        });
    }

    @Test
    void lockTypeBindsIgnoringCaseAndDashes() {
        runner.withPropertyValues("wordstats.lock.type=fair-reentrant")
                .run(context -> assertThat(context.getBean(WordstatsProperties.class)
                                .lock()
                                .type())
                        .isEqualTo(LockType.FAIR_REENTRANT));
    }

    @ParameterizedTest
    @EnumSource(LockType.class)
    void everyLockTypeBindsAndIsDocumentedInTheApplicationYml(LockType type) throws Exception {
        runner.withPropertyValues("wordstats.lock.type=" + type.name())
                .run(context -> assertThat(context.getBean(WordstatsProperties.class)
                                .lock()
                                .type())
                        .isEqualTo(type));
        String yml = Files.readString(Path.of("src/main/resources/application.yml"));
        assertThat(yml)
                .as("application.yml lists the allowed values of wordstats.lock.type")
                .containsPattern("(?m)^    #   " + type.name() + " ");
    }

    @Test
    void unknownLockTypeStopsStartupNamingThePropertyAndTheAllowedValues() {
        runner.withPropertyValues("wordstats.lock.type=SPIN_LOCK").run(context -> {
            assertThat(context).hasFailed();
            String messages = messages(context.getStartupFailure());
            assertThat(messages)
                    .contains("wordstats.lock.type")
                    .contains("SPIN_LOCK")
                    .contains("allowed values: " + LockType.allowedValues());
        });
    }

    @Test
    void stripesThatAreNotAPowerOfTwoStopStartup() {
        runner.withPropertyValues("wordstats.lock.stripes=48").run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure()))
                    .contains("wordstats.lock.stripes must be a power of two from 1 to 65536, was 48");
        });
    }

    @Test
    void reservationThresholdBindsDurationsAndRejectsNegativeOrHugeOnes() {
        runner.withPropertyValues("wordstats.lock.reserve-after=5ms")
                .run(context -> assertThat(context.getBean(WordstatsProperties.class)
                                .lock()
                                .reserveAfter())
                        .isEqualTo(Duration.ofMillis(5)));
        runner.withPropertyValues("wordstats.lock.reserve-after=-1ms").run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure()))
                    .contains("wordstats.lock.reserve-after must be from 0 to 1m");
        });
        runner.withPropertyValues("wordstats.lock.reserve-after=2h").run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure()))
                    .contains("wordstats.lock.reserve-after must be from 0 to 1m");
        });
    }

    @Test
    void theBoundOnAWaitBindsADurationIntoTheMonitorSettingsAndRejectsNegativeOrHugeOnes() {
        runner.run(context -> assertThat(context.getBean(WordstatsProperties.class)
                        .lock()
                        .settings()
                        .monitor()
                        .handoffAfter())
                .isEqualTo(NumaMonitorLock.DEFAULT_HANDOFF_AFTER));
        runner.withPropertyValues("wordstats.lock.handoff-after=4ms")
                .run(context -> assertThat(context.getBean(WordstatsProperties.class)
                                .lock()
                                .settings()
                                .monitor()
                                .handoffAfter())
                        .isEqualTo(Duration.ofMillis(4)));
        for (String bad : new String[] {"-1ms", "2h"}) {
            runner.withPropertyValues("wordstats.lock.handoff-after=" + bad).run(context -> {
                assertThat(context).hasFailed();
                assertThat(messages(context.getStartupFailure()))
                        .contains("wordstats.lock.handoff-after must be from 0 to 1m, was");
            });
        }
    }

    @Test
    void negativeSimulatedNodesStopStartupNamingTheProperty() {
        runner.withPropertyValues("wordstats.numa.simulated-nodes=-1").run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure()))
                    .contains("wordstats.numa")
                    .contains("simulatedNodes");
        });
    }

    @Test
    void zeroWordLengthLimitStopsStartup() {
        runner.withPropertyValues("wordstats.limits.max-word-length=0").run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context.getStartupFailure()))
                    .contains("wordstats.limits")
                    .contains("maxWordLength");
        });
    }

    @Test
    void theSnapshotFailuresBeforeUnhealthyDefaultToThreeAndMustBeFrom1To1000() {
        runner.run(context -> assertThat(
                        context.getBean(WordstatsProperties.class).store().unhealthyAfterFailures())
                .isEqualTo(3));
        for (String bad : new String[] {"0", "1001"}) {
            runner.withPropertyValues("wordstats.store.unhealthy-after-failures=" + bad)
                    .run(context -> {
                        assertThat(context).hasFailed();
                        assertThat(messages(context.getStartupFailure()))
                                .contains("wordstats.store")
                                .contains("unhealthyAfterFailures");
                    });
        }
    }

    /** Every message of the cause chain, one per line. */
    private static String messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.add(String.valueOf(t.getMessage()));
        }
        return String.join("\n", messages);
    }
}
