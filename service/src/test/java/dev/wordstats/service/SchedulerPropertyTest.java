package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.scheduler.SchedulerMode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.validation.autoconfigure.ValidationAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** {@code wordstats.numa.scheduler}: {@code default} unless set; {@code per-node} binds; other values stop startup. */
class SchedulerPropertyTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ValidationAutoConfiguration.class))
            .withUserConfiguration(PropertiesOnly.class);

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(WordstatsProperties.class)
    @Import({LockTypeBinding.class, SchedulerModeBinding.class})
    static class PropertiesOnly {}

    @Test
    void defaultIsTheJdkScheduler() {
        runner.run(context -> assertThat(
                        context.getBean(WordstatsProperties.class).numa().scheduler())
                .isEqualTo(SchedulerMode.DEFAULT));
    }

    @Test
    void perNodeBindsInEitherSpelling() {
        for (String value : List.of("per-node", "PER_NODE", "Per-Node")) {
            runner.withPropertyValues("wordstats.numa.scheduler=" + value)
                    .run(context -> assertThat(context.getBean(WordstatsProperties.class)
                                    .numa()
                                    .scheduler())
                            .as(value)
                            .isEqualTo(SchedulerMode.PER_NODE));
        }
    }

    @Test
    void unknownSchedulerStopsStartupNamingThePropertyAndTheAllowedValues() {
        runner.withPropertyValues("wordstats.numa.scheduler=per-socket").run(context -> {
            assertThat(context).hasFailed();
            String messages = messages(context.getStartupFailure());
            assertThat(messages)
                    .contains("wordstats.numa.scheduler")
                    .contains("'default' or 'per-node'")
                    .contains("per-socket");
        });
    }

    private static String messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.add(String.valueOf(t.getMessage()));
        }
        return String.join("\n", messages);
    }
}
