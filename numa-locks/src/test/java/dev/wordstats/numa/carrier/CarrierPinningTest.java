package dev.wordstats.numa.carrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.wordstats.numa.topology.Topology;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Pinning logic that changes no affinity (the real pinning runs in CarrierPinningOnThisMachineTest). */
@Timeout(30)
class CarrierPinningTest {

    private static Topology fixture(String machine) throws URISyntaxException {
        return Topology.fromSysfs(
                Path.of(CarrierPinningTest.class
                        .getResource("/sysfs/" + machine)
                        .toURI()),
                null);
    }

    @Test
    void orderDealsCpusRoundRobinOverNodes() throws Exception {
        List<Integer> order = CarrierPinning.balancedCpuOrder(fixture("kunpeng920-4node-128"));

        assertThat(order).hasSize(128).doesNotHaveDuplicates();
        assertThat(order.subList(0, 8)).containsExactly(0, 32, 64, 96, 1, 33, 65, 97);
    }

    @Test
    void orderTakesOneThreadPerCoreBeforeSmtSiblings() throws Exception {
        List<Integer> order = CarrierPinning.balancedCpuOrder(fixture("x86-2socket-smt"));

        assertThat(order.subList(0, 16)).containsExactly(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
        assertThat(order.subList(16, 20)).containsExactly(16, 24, 17, 25);
    }

    @Test
    void orderOverUnevenSimulatedNodesStillCoversEveryCpuOnce() throws Exception {
        Topology sim = fixture("kunpeng920-2node-48").withSimulatedNodes(5); // 10,10,10,9,9

        List<Integer> order = CarrierPinning.balancedCpuOrder(sim);

        assertThat(order).hasSize(48).doesNotHaveDuplicates();
        assertThat(order.subList(0, 5)).containsExactly(0, 10, 20, 30, 39);
        assertThat(order.subList(45, 48)).containsExactly(9, 19, 29);
    }

    @Test
    void callingFromAVirtualThreadIsRejected() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread.ofVirtual()
                .start(() -> {
                    try {
                        CarrierPinning.pinCarriers(Topology.singleNode(1));
                    } catch (Throwable e) {
                        thrown.set(e);
                    }
                })
                .join();

        assertThatIllegalStateException()
                .isThrownBy(() -> {
                    throw (IllegalStateException) thrown.get();
                })
                .withMessageContaining("must be called from a platform thread");
    }

    @Test
    void summaryListsEachCarrierWithCpuAndNode() {
        PinningReport report = new PinningReport(
                List.of(
                        new CarrierPin("ForkJoinPool-1-worker-1", 0, 0, true),
                        new CarrierPin("ForkJoinPool-1-worker-2", 1, 1, false)),
                false,
                "x");

        assertThat(report.summary())
                .isEqualTo("carrier pinning incomplete (x); pinned 2 carriers: "
                        + "ForkJoinPool-1-worker-1->cpu0(node0), ForkJoinPool-1-worker-2->cpu1(node1) UNVERIFIED");
        assertThat(new PinningReport(report.pins().subList(0, 1), true, "").summary())
                .isEqualTo("pinned 1 carrier: ForkJoinPool-1-worker-1->cpu0(node0)");
    }

    @Test
    void liveCarriersIncludeTheOneAVirtualThreadJustRanOn() throws Exception {
        AtomicReference<String> name = new AtomicReference<>();
        Thread.ofVirtual().start(() -> name.set(CarrierPinning.carrierName())).join();

        assertThat(CarrierPinning.liveCarrierNames()).contains(name.get());
    }

    @Test
    void carrierNameOfAVirtualThreadIsItsWorkerName() throws Exception {
        AtomicReference<String> name = new AtomicReference<>();
        AtomicReference<String> fromText = new AtomicReference<>();
        Thread.ofVirtual()
                .name("v@1")
                .start(() -> {
                    name.set(CarrierPinning.carrierName());
                    fromText.set(CarrierPinning.carrierOf(Thread.currentThread().toString()));
                })
                .join();

        assertThat(name.get()).matches("ForkJoinPool-\\d+-worker-\\d+");
        assertThat(fromText.get()).isEqualTo(name.get()); // the fallback without --add-opens agrees
    }
}
