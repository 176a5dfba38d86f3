package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** A misspelt wordstats.* property stops the start, naming it and the nearest known one. */
class UnknownPropertiesCheckTest {

    private static StandardEnvironment environment(String sourceName, Map<String, Object> values) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
        environment
                .getPropertySources()
                .addFirst(
                        sourceName.equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)
                                ? new SystemEnvironmentPropertySource(sourceName, values)
                                : new MapPropertySource(sourceName, values));
        return environment;
    }

    @ParameterizedTest
    @CsvSource({
        "wordstats.lock.typ, wordstats.lock.type",
        "wordstats.lock.stripe, wordstats.lock.stripes",
        "wordstats.store.snapshot-evry, wordstats.store.snapshot-every",
        "wordstats.store.datadir-path, wordstats.store.data-dir",
        "wordstats.limits.max-distinct-word, wordstats.limits.max-distinct-words",
        "wordstats.numa.schedular, wordstats.numa.scheduler",
        "wordstats.stores.data-dir, wordstats.store.data-dir"
    })
    void aMisspeltPropertyInAFileNamesItAndTheNearestKnownOne(String typo, String nearest) {
        assertThatThrownBy(() -> UnknownPropertiesCheck.check(environment("application.yml", Map.of(typo, "1"))))
                .isInstanceOf(StartupCheckException.class)
                .hasMessageStartingWith("Unknown property " + typo + " ")
                .hasMessageContaining("the nearest known property is " + nearest + ".");
    }

    @Test
    void everyKnownPropertyPassesInAnyRelaxedForm() {
        for (String name : UnknownPropertiesCheck.KNOWN) {
            assertThatCode(() -> UnknownPropertiesCheck.check(environment("application.yml", Map.of(name, "1"))))
                    .as(name)
                    .doesNotThrowAnyException();
            String env = name.replace('.', '_').replace("-", "").toUpperCase(java.util.Locale.ROOT);
            assertThatCode(() -> UnknownPropertiesCheck.check(
                            environment(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(env, "1"))))
                    .as(env)
                    .doesNotThrowAnyException();
        }
        assertThat(UnknownPropertiesCheck.KNOWN)
                .contains(
                        "wordstats.lock.timing-sample-every",
                        "wordstats.store.on-bad-snapshot",
                        "wordstats.batch.parallelism")
                .contains("wordstats.lock.handoff-after")
                .contains("wordstats.store.unhealthy-after-failures")
                .hasSize(19);
        assertThatCode(() -> UnknownPropertiesCheck.check(
                        environment("application.yml", Map.of("wordstats.lock.timingSampleEvery", "2"))))
                .doesNotThrowAnyException();
    }

    @Test
    void theEnvironmentIsCheckedWithinKnownGroupsOnly() {
        String env = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
        assertThatThrownBy(() -> UnknownPropertiesCheck.check(environment(env, Map.of("WORDSTATS_LOCK_TYP", "x"))))
                .hasMessageContaining("wordstats.lock.typ")
                .hasMessageContaining("nearest known property is wordstats.lock.type");
        assertThatCode(() -> UnknownPropertiesCheck.check(
                        environment(env, Map.of("WORDSTATS_DOCKER_REQUIRED", "true", "WORDSTATS_FUZZ_SEED", "1"))))
                .doesNotThrowAnyException();
        String system = StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME;
        assertThatCode(() -> UnknownPropertiesCheck.check(
                        environment(system, Map.of("wordstats.test.durationMillis", "500"))))
                .doesNotThrowAnyException();
        assertThatThrownBy(() ->
                        UnknownPropertiesCheck.check(environment(system, Map.of("wordstats.store.snapshotEvry", "1s"))))
                .hasMessageContaining("nearest known property is wordstats.store.snapshot-every");
    }

    @Test
    void aMisspeltPropertyStopsARealStart() {
        assertThatThrownBy(() -> new SpringApplicationBuilder(WordstatsApplication.class)
                        .run("--server.port=0", "--wordstats.lock.tpye=FAIR_REENTRANT")
                        .close())
                .satisfies(e -> assertThat(RestartKeepsCountsTest.causes(e))
                        .anySatisfy(c -> assertThat(c)
                                .isInstanceOf(StartupCheckException.class)
                                .hasMessageContaining("Unknown property wordstats.lock.tpye")
                                .hasMessageContaining("nearest known property is wordstats.lock.type")));
    }
}
