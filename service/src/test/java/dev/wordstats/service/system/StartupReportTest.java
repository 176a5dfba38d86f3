package dev.wordstats.service.system;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockTimer;
import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.counts.WordStore;
import dev.wordstats.service.numa.NumaRuntime;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.mock.env.MockEnvironment;

/** The startup line says how the instance runs: lock, stripes, nodes (real or simulated), pinning, thread kind. */
class StartupReportTest {

    private static WordstatsProperties properties(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("wordstats", WordstatsProperties.class);
    }

    @Test
    void lineNamesLockStripesSimulatedNodesPinningAndVirtualThreads() {
        WordstatsProperties properties = properties(Map.of(
                "wordstats.lock.type",
                "UNFAIR_REENTRANT",
                "wordstats.lock.stripes",
                "16",
                "wordstats.numa.simulated-nodes",
                "1"));
        NumaRuntime numa = new NumaRuntime(
                properties, new MockEnvironment().withProperty("spring.threads.virtual.enabled", "true"));
        WordStore store = new WordStore(properties, numa.nodeLocator(), LockTimer.NONE, LockTimer.NONE);

        String line = new StartupReport(store, numa, properties).line();

        assertThat(line)
                .contains(
                        "lock=UNFAIR_REENTRANT",
                        "stripes=16",
                        "nodes=1 simulated",
                        "carrier pinning=off",
                        "request threads=virtual",
                        "virtual-thread unblocker=" + numa.unblockerSummary())
                .doesNotContain("reserve-after");
    }

    @Test
    void lineSaysRealNodesAndPlatformThreads() {
        WordstatsProperties properties = properties(Map.of("wordstats.lock.type", "NUMA_MCS"));
        NumaRuntime numa = new NumaRuntime(
                properties, new MockEnvironment().withProperty("spring.threads.virtual.enabled", "false"));
        WordStore store = new WordStore(properties, numa.nodeLocator(), LockTimer.NONE, LockTimer.NONE);

        String line = new StartupReport(store, numa, properties).line();

        assertThat(line)
                .contains("lock=NUMA_MCS reserve-after=1ms", "stripes=64", " real (", "request threads=platform");
    }

    @Test
    void lineShowsAConfiguredReservationThreshold() {
        WordstatsProperties properties =
                properties(Map.of("wordstats.lock.type", "NUMA_MCS", "wordstats.lock.reserve-after", "250us"));
        NumaRuntime numa = new NumaRuntime(properties, new MockEnvironment());
        WordStore store = new WordStore(properties, numa.nodeLocator(), LockTimer.NONE, LockTimer.NONE);

        assertThat(new StartupReport(store, numa, properties).line()).contains("lock=NUMA_MCS reserve-after=250000ns");
    }

    @Test
    void lineShowsTheDefaultLocksBoundAndReservationAndEveryTypeTheSettingsItReads() {
        for (LockType type : LockType.values()) {
            WordstatsProperties properties = properties(Map.of(
                    "wordstats.lock.type",
                    type.name(),
                    "wordstats.lock.handoff-after",
                    "3ms",
                    "wordstats.lock.stripes",
                    "2"));
            NumaRuntime numa = new NumaRuntime(properties, new MockEnvironment());
            WordStore store = new WordStore(properties, numa.nodeLocator(), LockTimer.NONE, LockTimer.NONE);
            String line = new StartupReport(store, numa, properties).line();
            assertThat(line.contains(" handoff-after=3ms"))
                    .as("%s: the bound shown exactly when the type reads it", type)
                    .isEqualTo(type.readsMonitorSettings());
            assertThat(line.contains(" reserve-after=1ms"))
                    .as("%s: the reservation shown exactly when the type reads it", type)
                    .isEqualTo(type.readsQueueSettings());
        }
        assertThat(LockType.NUMA_MONITOR.readsQueueSettings())
                .as("the default's queued mode")
                .isTrue();
    }

    @Test
    void moreSimulatedNodesThanCpusStopStartupNamingTheProperty() {
        int cpus = Runtime.getRuntime().availableProcessors();
        WordstatsProperties properties =
                properties(Map.of("wordstats.numa.simulated-nodes", String.valueOf(cpus + 1000)));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new NumaRuntime(properties, new MockEnvironment()))
                .hasMessageContaining("wordstats.numa.simulated-nodes");
    }
}
