package dev.wordstats.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockEvents;
import dev.wordstats.numa.lock.probe.LockStats;
import dev.wordstats.service.counts.WordStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The service under concurrent load, recorded by JDK Flight Recorder: its stripe locks report each
 * acquisition once, and the meters and JFR both hear it, so with every lock wait recorded (threshold 0)
 * there is one {@code dev.wordstats.LockWait} event per slow acquisition the meters counted, each
 * carrying the service's lock type and a node of its topology. One stripe, so the requests contend; the
 * counting flow is repeated (at most {@value #MAX_ROUNDS} times) until some acquisition waited.
 */
@Timeout(120)
class LockEventsServiceIntegrationTest {

    private static final int MAX_ROUNDS = 10;

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = LockType.class,
            names = {"NUMA_MCS", "NUMA_COMBINING"})
    void everySlowAcquisitionTheMetersCountIsALockWaitEvent(LockType type) throws Exception {
        int nodes = Math.min(2, Runtime.getRuntime().availableProcessors());
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(WordstatsApplication.class)
                .run(
                        "--server.port=0",
                        "--server.address=127.0.0.1",
                        "--wordstats.lock.type=" + type.name(),
                        "--wordstats.lock.stripes=1",
                        "--wordstats.numa.simulated-nodes=" + nodes)) {
            Integer port = app.getEnvironment().getProperty("local.server.port", Integer.class);
            assertThat(port).as("the service's port").isNotNull().isPositive();
            WordStore store = app.getBean(WordStore.class);

            List<RecordedEvent> waits = new CopyOnWriteArrayList<>();
            LockStats before;
            LockStats after;
            try (RecordingStream stream = new RecordingStream()) {
                stream.setReuse(false); // the events are kept past the callback
                stream.enable(LockEvents.WAIT).withThreshold(java.time.Duration.ZERO);
                stream.onEvent(LockEvents.WAIT, waits::add);
                stream.startAsync();
                before = store.lockStats();
                // on two carriers a flow may meet no wait at all: repeat it, a bounded number of times, until one did
                for (int round = 0;
                        round < MAX_ROUNDS && store.lockStats().slowAcquisitions() == before.slowAcquisitions();
                        round++) {
                    new CountingFlow(port, type).postConcurrentlyAndCheck();
                }
                after = store.lockStats();
                stream.stop(); // writes and delivers every event committed before it
            }

            long slow = after.slowAcquisitions() - before.slowAcquisitions();
            assertThat(slow).as("slow acquisitions under the load").isPositive();
            assertThat(waits).hasSize((int) slow).allSatisfy(event -> {
                assertThat(event.getString("lockType")).isEqualTo(type.name());
                assertThat(event.getInt("node")).isBetween(0, nodes - 1);
                assertThat(event.getString("handoff")).isIn("same_node", "cross_node", "unknown");
            });
        }
    }
}
