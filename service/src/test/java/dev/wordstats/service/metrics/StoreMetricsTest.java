package dev.wordstats.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.probe.LockTimer;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.counts.WordStore;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The store's meters: only series that can move, for every lock type, under real contention. */
@Timeout(60)
class StoreMetricsTest {

    /** Writes per thread: bounded by count, a few milliseconds per type on a contended stripe. */
    private static final int WRITES = Integer.getInteger("wordstats.test.requests", 15) * 100;

    private static WordStore store(LockType type) {
        WordstatsProperties properties = new Binder(new MapConfigurationPropertySource(
                        Map.of("wordstats.lock.type", type.name(), "wordstats.lock.stripes", "1")))
                .bindOrCreate("wordstats", WordstatsProperties.class);
        return new WordStore(properties, NodeLocator.singleNode(), LockTimer.NONE, LockTimer.NONE);
    }

    /** Virtual and platform threads writing to the store's one stripe at once, all started together. */
    private static void contend(WordStore store) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Thread.Builder builder = i % 2 == 0 ? Thread.ofVirtual() : Thread.ofPlatform();
            String word = "w" + i;
            threads.add(builder.start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int n = 0; n < WRITES; n++) {
                    store.addAll(Map.of(word, 1L, "shared", 1L), 2);
                }
            }));
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(LockType.class)
    void modeSwitchesAreAMeterOnlyForTypesThatSwitchAndTheOthersNeverDo(LockType type) throws Exception {
        WordStore store = store(type);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new StoreMetrics(store).bindTo(registry);

        contend(store);

        assertThat(store.wordsCounted()).isEqualTo(8L * WRITES * 2);
        Collection<Meter> switches =
                registry.find("wordstats.lock.mode.switches").meters();
        if (type.hasModes()) {
            assertThat(switches)
                    .as("the mode switch meter of a type with modes")
                    .hasSize(1);
        } else {
            assertThat(switches)
                    .as("no mode switch meter for a type without modes")
                    .isEmpty();
            assertThat(store.lockModeSwitches())
                    .as("a type left without the meter never switched, under contention")
                    .isZero();
        }
        assertThat(registry.find("wordstats.lock.acquisitions").meters()).hasSize(2);
        assertThat(registry.find("wordstats.lock.handoffs").meters()).hasSize(2);
    }
}
