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
                .as("the project's tools' variables")
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
    void aWordstatsVariableOutsideTheKnownGroupsStopsTheStartUnlessItIsAToolsVariable() {
        String env = StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME;
        for (String typo :
                new String[] {"WORDSTATS_LOKC_TYPE", "WORDSTATS_STORES_DATADIR", "WORDSTATS_SNAPSHOTEVERY"}) {
            assertThatThrownBy(() -> UnknownPropertiesCheck.check(environment(env, Map.of(typo, "x"))))
                    .as(typo)
                    .isInstanceOf(StartupCheckException.class)
                    .hasMessageStartingWith("Unknown property wordstats.")
                    .hasMessageContaining(typo);
        }
        assertThatCode(() -> UnknownPropertiesCheck.check(environment(
                        env,
                        Map.of(
                                "WORDSTATS_ADMIN_USER", "admin",
                                "WORDSTATS_ADMIN_PASSWORD", "x",
                                "WORDSTATS_FUZZ_FRESH_SEED", "1",
                                "WORDSTATS_MIN_JAVA", "25",
                                "WORDSTATS_BASE_IMAGE", "img",
                                "WORDSTATS_PORT", "8080",
                                "WORDSTATS_LOCK_TYPE", "SYNCHRONIZED"))))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @CsvSource({
        "application.yml, spring.security.user.pasword, spring.security.user.pasword",
        "commandLineArgs, spring.security.user.nmae, spring.security.user.nmae",
        "systemEnvironment, SPRING_SECURITY_USER_PASWORD, SPRING_SECURITY_USER_PASWORD"
    })
    void anUnknownKeyOfTheSpringSecurityUserStopsTheStart(String source, String key, String named) {
        assertThatThrownBy(() -> UnknownPropertiesCheck.check(environment(source, Map.of(key, "secret"))))
                .isInstanceOf(StartupCheckException.class)
                .hasMessageContaining(named)
                .hasMessageContaining("spring.security.user has only name, password and roles");
        assertThatCode(() -> UnknownPropertiesCheck.check(environment(
                        "application.yml",
                        Map.of(
                                "spring.security.user.name", "a",
                                "spring.security.user.password", "b",
                                "spring.security.user.roles[0]", "ADMIN"))))
                .doesNotThrowAnyException();
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
