package dev.wordstats.numa.carrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.wordstats.numa.os.LinuxNative;
import dev.wordstats.numa.topology.Topology;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

@Timeout(30)
class CarrierNodeLocatorTest {

    /** Four CPUs 0-3 as two simulated nodes: 0-1 -> node 0, 2-3 -> node 1. */
    private static final Topology TWO_NODES = Topology.singleNode(4).withSimulatedNodes(2);

    /** A settable "current CPU" that counts how often it is asked. */
    private static final class FakeCpu implements IntSupplier {
        final AtomicInteger cpu = new AtomicInteger();
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public int getAsInt() {
            calls.incrementAndGet();
            return cpu.get();
        }
    }

    @Test
    void refreshEveryBelowOneIsRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new CarrierNodeLocator(TWO_NODES, 0))
                .withMessageContaining("refreshEvery must be >= 1");
    }

    @Test
    void singleNodeTopologyAnswersZeroWithoutAskingForTheCpu() throws Exception {
        CarrierNodeLocator locator = new CarrierNodeLocator(
                Topology.singleNode(4),
                1,
                () -> {
                    throw new AssertionError("no native call expected on one node");
                },
                true);

        assertThat(locator.currentNode()).isZero();
        AtomicInteger fromVirtual = new AtomicInteger(-1);
        Thread.ofVirtual().start(() -> fromVirtual.set(locator.currentNode())).join();
        assertThat(fromVirtual).hasValue(0);
        assertThat(locator.nodeCount()).isEqualTo(1);
    }

    @Test
    void carrierLocalCacheIsActiveWithTheBuildsJvmFlags() {
        CarrierNodeLocator locator = CarrierNodeLocator.create(TWO_NODES);

        assertThat(locator.carrierLocal()).isTrue();
        assertThat(locator.refreshEvery()).isEqualTo(CarrierNodeLocator.DEFAULT_REFRESH_EVERY);
        assertThat(locator.nodeCount()).isEqualTo(2);
    }

    @Test
    void refreshEveryOneFollowsEveryMove() {
        FakeCpu cpu = new FakeCpu();
        CarrierNodeLocator locator = new CarrierNodeLocator(TWO_NODES, 1, cpu, true);

        cpu.cpu.set(1);
        assertThat(locator.currentNode()).isZero();
        cpu.cpu.set(2);
        assertThat(locator.currentNode()).isEqualTo(1);
        cpu.cpu.set(0);
        assertThat(locator.currentNode()).isZero();
        assertThat(cpu.calls).hasValue(3);
    }

    @Test
    void refreshEveryNKeepsTheCachedNodeForNLookups() {
        FakeCpu cpu = new FakeCpu();
        CarrierNodeLocator locator = new CarrierNodeLocator(TWO_NODES, 4, cpu, true);

        cpu.cpu.set(0);
        assertThat(locator.currentNode()).isZero(); // first lookup asks
        cpu.cpu.set(3); // the thread "moves" to node 1
        List<Integer> seen = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            seen.add(locator.currentNode());
        }

        assertThat(seen).containsExactly(0, 0, 0, 1, 1); // lookups 2-4 cached, the 5th refreshes
        assertThat(cpu.calls).hasValue(2);
    }

    @Test
    void virtualThreadsShareTheirCarriersCache() throws Exception {
        FakeCpu cpu = new FakeCpu();
        CarrierNodeLocator locator = new CarrierNodeLocator(TWO_NODES, 1_000_000, cpu, true);
        int threads = 200;

        for (int i = 0; i < threads; i++) {
            Thread.ofVirtual().start(locator::currentNode).join();
        }

        // one getcpu per carrier that ran one of them (2 here, a few more with compensation
        // workers alive), not one per virtual thread
        assertThat(cpu.calls.get()).isBetween(1, 20);
    }

    @Test
    void withoutCarrierThreadLocalEachVirtualThreadHasItsOwnCache() throws Exception {
        FakeCpu cpu = new FakeCpu();
        CarrierNodeLocator locator = new CarrierNodeLocator(TWO_NODES, 1_000_000, cpu, false);
        int threads = 50;

        for (int i = 0; i < threads; i++) {
            Thread.ofVirtual()
                    .start(() -> {
                        locator.currentNode();
                        locator.currentNode();
                    })
                    .join();
        }

        assertThat(locator.carrierLocal()).isFalse();
        assertThat(cpu.calls).hasValue(threads);
    }

    @Test
    void cpuOutsideTheTopologyOrUnknownReadsAsNodeZero() {
        FakeCpu cpu = new FakeCpu();
        CarrierNodeLocator locator = new CarrierNodeLocator(TWO_NODES, 1, cpu, true);

        cpu.cpu.set(17);
        assertThat(locator.currentNode()).isZero();
        cpu.cpu.set(-1);
        assertThat(locator.currentNode()).isZero();
    }

    @Test
    void manyVirtualThreadsOnRealGetcpuAlwaysGetAValidNode() throws Exception {
        Topology real = Topology.detect();
        assumeTrue(real.cpuCount() >= 2, "needs 2 CPUs");
        Topology sim = real.withSimulatedNodes(2);
        CarrierNodeLocator locator = new CarrierNodeLocator(sim, 3);
        ConcurrentLinkedQueue<Integer> bad = new ConcurrentLinkedQueue<>();
        long until = System.nanoTime() + Long.getLong("wordstats.test.durationMillis", 500) * 1_000_000L / 5;

        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            threads.add(Thread.ofVirtual().start(() -> {
                while (System.nanoTime() - until < 0) {
                    int node = locator.currentNode();
                    if (node < 0 || node >= 2) {
                        bad.add(node);
                    }
                    Thread.yield();
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(bad).isEmpty();
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void realGetcpuOnAPinnedPlatformThreadGivesThatCpusNode() throws Exception {
        Topology real = Topology.detect();
        assumeTrue(real.cpuCount() >= 2, "needs 2 CPUs");
        Topology sim = real.withSimulatedNodes(2);
        CarrierNodeLocator locator = new CarrierNodeLocator(sim, 1);
        AtomicReference<String> mismatches = new AtomicReference<>("");

        Thread thread = Thread.ofPlatform().start(() -> {
            BitSet original = LinuxNative.getAffinity();
            try {
                for (int cpu : sim.cpuIds().stream().toArray()) {
                    BitSet one = new BitSet();
                    one.set(cpu);
                    LinuxNative.setAffinity(one);
                    int node = locator.currentNode();
                    if (node != sim.nodeOfCpu(cpu)) {
                        mismatches.accumulateAndGet("cpu" + cpu + "->node" + node + " ", String::concat);
                    }
                }
            } finally {
                LinuxNative.setAffinity(original);
            }
        });
        thread.join();

        assertThat(mismatches.get()).isEmpty();
    }
}
