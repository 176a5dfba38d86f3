package dev.wordstats.numa.carrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.wordstats.numa.os.LinuxNative;
import dev.wordstats.numa.topology.Topology;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Real carrier pinning. Process-wide and not undone, so tagged "pinning": numa-locks/pom.xml runs
 * these in a JVM of their own. Each test pins again, so their order does not matter.
 */
@Tag("pinning")
@EnabledOnOs(OS.LINUX)
@Timeout(60)
class CarrierPinningOnThisMachineTest {

    @Test
    void pinsEveryCarrierToItsOwnCpuAndVerifiesIt() throws Exception {
        Topology topology = Topology.detect();
        int carriers = CarrierPinning.schedulerParallelism();

        PinningReport report = CarrierPinning.pinCarriers(topology);

        assertThat(report.complete()).as(report.summary()).isTrue();
        assertThat(report.pins()).hasSize(carriers).allSatisfy(pin -> {
            assertThat(pin.verified()).isTrue();
            assertThat(pin.carrier()).matches("ForkJoinPool-\\d+-worker-\\d+");
            assertThat(pin.node()).isEqualTo(topology.nodeOfCpu(pin.cpu()));
        });
        assertThat(report.pins()).extracting(CarrierPin::carrier).doesNotHaveDuplicates();
        assertThat(new HashSet<>(report.pins().stream().map(CarrierPin::cpu).toList()))
                .hasSize(Math.min(carriers, topology.cpuCount()));
        assertThat(report.summary()).startsWith("pinned " + carriers + " carriers: ForkJoinPool-");

        assertThat(mismatchesOfVirtualThreads(cpuByCarrier(report), LinuxNative::currentCpu, "cpu"))
                .isEmpty();
    }

    @Test
    void pinningOverSimulatedNodesBalancesAndTheLocatorFindsEachCarriersNode() throws Exception {
        Topology real = Topology.detect();
        assumeTrue(real.cpuCount() >= 2, "needs 2 CPUs");
        Topology sim = real.withSimulatedNodes(2);

        PinningReport report = CarrierPinning.pinCarriers(sim);

        assertThat(report.complete()).as(report.summary()).isTrue();
        if (report.pins().size() >= 2) {
            assertThat(report.pins()).extracting(CarrierPin::node).contains(0, 1);
        }
        Map<String, Integer> nodeByCarrier =
                report.pins().stream().collect(Collectors.toMap(CarrierPin::carrier, CarrierPin::node));
        for (CarrierNodeLocator locator : List.of(new CarrierNodeLocator(sim, 1), CarrierNodeLocator.create(sim))) {
            assertThat(mismatchesOfVirtualThreads(nodeByCarrier, locator::currentNode, "node"))
                    .as(locator.toString())
                    .isEmpty();
        }
    }

    @Test
    void topologyDetectedFromAPinnedCarrierStillSeesTheWholeProcess() throws Exception {
        Topology before = Topology.detect();
        assertThat(CarrierPinning.pinCarriers(before).complete()).isTrue();
        List<Topology> seen = new ArrayList<>();

        Thread.ofVirtual().start(() -> seen.add(Topology.detect())).join();

        assertThat(seen.getFirst().cpuIds()).isEqualTo(before.cpuIds());
    }

    @Test
    void aLiveCarrierNotReachedMakesTheReportIncompleteAndIsNamed() {
        Topology topology = Topology.detect();
        int carriers = CarrierPinning.schedulerParallelism();
        assumeTrue(carriers >= 2, "needs 2 carriers");
        assertThat(CarrierPinning.pinCarriers(topology).complete()).isTrue(); // all carriers now exist

        PinningReport report = CarrierPinning.pinCarriers(topology, carriers - 1, CarrierPinning.DEFAULT_TIMEOUT);

        assertThat(report.complete()).isFalse();
        assertThat(report.pins()).hasSize(carriers - 1);
        assertThat(report.detail()).contains("1 live carrier(s) not reached: ForkJoinPool-");
        assertThat(report.summary()).startsWith("carrier pinning incomplete (");
    }

    @Test
    void carriersThatCannotAllRunAtOnceGiveAnIncompleteReportAndPinNothing() {
        // one more task than carriers (compensation workers, if any, count as carriers)
        int carriers = Math.max(
                        CarrierPinning.schedulerParallelism(),
                        CarrierPinning.liveCarrierNames().size())
                + 1;

        PinningReport report = CarrierPinning.pinCarriers(Topology.detect(), carriers, Duration.ofMillis(1000));

        assertThat(report.complete()).isFalse();
        assertThat(report.pins()).isEmpty();
        // at most carriers - 1 ran at once (fewer if the scheduler was slow to start its workers)
        assertThat(report.detail())
                .matches("only [0-9]+ of " + carriers + " carriers ran the pinning task within 1000 ms.*");
        int ran = Integer.parseInt(report.detail().split(" ")[1]);
        assertThat(ran).isBetween(1, carriers - 1);
        assertThat(report.summary())
                .startsWith("carrier pinning incomplete (only ")
                .endsWith("pinned 0 carriers");
    }

    @Test
    void aCpuTheKernelRefusesMakesTheReportIncompleteWithTheReason() throws Exception {
        assumeTrue(CarrierPinning.schedulerParallelism() >= 2, "needs 2 carriers");
        assumeTrue(!Topology.detect().containsCpu(24), "needs a machine without cpu 24");
        // the 48-core fixture deals cpu 0 (node 0) then cpu 24 (node 1), which this machine lacks
        Topology foreign = Topology.fromSysfs(
                Path.of(getClass().getResource("/sysfs/kunpeng920-2node-48").toURI()), null);

        PinningReport report = CarrierPinning.pinCarriers(foreign);

        assertThat(report.complete()).isFalse();
        assertThat(report.detail())
                .contains("->cpu24: sched_setaffinity(0, 128, {24}) failed: errno 22 (Invalid argument)");
        assertThat(report.pins()).extracting(CarrierPin::cpu).contains(0).doesNotContain(24);
    }

    private static Map<String, Integer> cpuByCarrier(PinningReport report) {
        return report.pins().stream().collect(Collectors.toMap(CarrierPin::carrier, CarrierPin::cpu));
    }

    /**
     * 64 virtual threads, 20 times each, compare what {@code seen} gives on their current carrier (the CPU from
     * getcpu, the node from a locator) with what that carrier was pinned to; the mismatches.
     */
    private static List<String> mismatchesOfVirtualThreads(
            Map<String, Integer> pinnedByCarrier, IntSupplier seen, String what) throws InterruptedException {
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            threads.add(Thread.ofVirtual().start(() -> {
                for (int k = 0; k < 20; k++) {
                    String carrier = CarrierPinning.carrierName();
                    int value = seen.getAsInt();
                    Integer expected = pinnedByCarrier.get(carrier);
                    if (expected == null || value != expected) {
                        wrong.add(carrier + " gave " + what + " " + value + ", pinned to " + what + " " + expected);
                    }
                    Thread.yield();
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        return new ArrayList<>(wrong);
    }
}
