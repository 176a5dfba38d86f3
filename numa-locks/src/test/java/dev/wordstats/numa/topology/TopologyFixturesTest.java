package dev.wordstats.numa.topology;

import static dev.wordstats.numa.topology.Fixtures.KUNPENG_128;
import static dev.wordstats.numa.topology.Fixtures.KUNPENG_48;
import static dev.wordstats.numa.topology.Fixtures.LAPTOP;
import static dev.wordstats.numa.topology.Fixtures.X86_SMT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reading each fixture tree (whole machine, no affinity restriction). */
@Timeout(30)
class TopologyFixturesTest {

    @Test
    void laptopHasOneNodeOfTwoCpusAndNoKnownCluster() {
        Topology t = Fixtures.load(LAPTOP);

        assertThat(t.nodeCount()).isEqualTo(1);
        assertThat(t.cpus()).containsExactly(new Cpu(0, 0, 0, -1, 0), new Cpu(1, 0, 0, -1, 1));
        assertThat(t.nodes().getFirst()).isEqualTo(new NumaNode(0, 0, List.of(0, 1), List.of(10)));
        assertThat(t.clusterCount()).isZero(); // cluster_id 65535 means "unknown" on x86
        assertThat(t.packageCount()).isEqualTo(1);
        assertThat(t.simulated()).isFalse();
        assertThat(t.source()).startsWith("sysfs ").endsWith(LAPTOP);
    }

    @Test
    void kunpeng48HasTwoNodesOf24CoresInClustersOfFour() {
        Topology t = Fixtures.load(KUNPENG_48);

        assertThat(t.cpuCount()).isEqualTo(48);
        assertThat(t.nodeCount()).isEqualTo(2);
        assertThat(t.nodes().get(0).cpus()).isEqualTo(range(0, 24));
        assertThat(t.nodes().get(1).cpus()).isEqualTo(range(24, 48));
        assertThat(t.nodeOfCpu(23)).isZero();
        assertThat(t.nodeOfCpu(24)).isEqualTo(1);
        assertThat(t.packageCount()).isEqualTo(1);
        assertThat(t.clusterCount()).isEqualTo(12);
        assertThat(t.cpu(5)).isEqualTo(new Cpu(5, 0, 0, 1, 5));
        assertThat(t.cpus().stream().filter(c -> c.clusterId() == 7).map(Cpu::id))
                .containsExactly(28, 29, 30, 31);
        assertThat(t.distance(0, 0)).isEqualTo(10);
        assertThat(t.distance(0, 1)).isEqualTo(15);
        assertThat(t.distance(1, 0)).isEqualTo(15);
    }

    @Test
    void kunpeng128HasFourNodesPairedOnTwoPackages() {
        Topology t = Fixtures.load(KUNPENG_128);

        assertThat(t.cpuCount()).isEqualTo(128);
        assertThat(t.nodeCount()).isEqualTo(4);
        for (int n = 0; n < 4; n++) {
            assertThat(t.nodes().get(n).cpus()).isEqualTo(range(32 * n, 32 * n + 32));
            assertThat(t.nodes().get(n).osId()).isEqualTo(n);
        }
        assertThat(t.packageCount()).isEqualTo(2);
        assertThat(t.clusterCount()).isEqualTo(32);
        // nodes 0-1 on package 0, 2-3 on package 1
        assertThat(t.cpu(63).packageId()).isZero();
        assertThat(t.cpu(64).packageId()).isEqualTo(1);
        assertThat(t.nodeOfCpu(100)).isEqualTo(3);
        int[][] expected = {{10, 12, 20, 22}, {12, 10, 22, 24}, {20, 22, 10, 12}, {22, 24, 12, 10}};
        for (int from = 0; from < 4; from++) {
            for (int to = 0; to < 4; to++) {
                assertThat(t.distance(from, to)).as("distance %d->%d", from, to).isEqualTo(expected[from][to]);
            }
        }
    }

    @Test
    void x86HasInterleavedNodesAndSmtSiblingsOnOneCore() {
        Topology t = Fixtures.load(X86_SMT);

        assertThat(t.cpuCount()).isEqualTo(32);
        assertThat(t.nodes().get(0).cpus()).isEqualTo(concat(range(0, 8), range(16, 24)));
        assertThat(t.nodes().get(1).cpus()).isEqualTo(concat(range(8, 16), range(24, 32)));
        assertThat(t.nodeOfCpu(17)).isZero();
        assertThat(t.nodeOfCpu(25)).isEqualTo(1);
        assertThat(t.threadSiblings(1)).containsExactly(1, 17);
        assertThat(t.threadSiblings(17)).containsExactly(1, 17);
        assertThat(t.cpu(17).coreId()).isEqualTo(t.cpu(1).coreId());
        assertThat(t.cpu(17).packageId()).isEqualTo(t.cpu(1).packageId()).isZero();
        assertThat(t.cpu(9).packageId()).isEqualTo(1);
        assertThat(t.packageCount()).isEqualTo(2);
        assertThat(t.distance(0, 1)).isEqualTo(21);
    }

    @Test
    void summaryIsOneLineNamingNodesPackagesDistancesAndSource() {
        String summary = Fixtures.load(KUNPENG_128).summary();

        assertThat(summary)
                .doesNotContain("\n")
                .startsWith(
                        "128 CPUs in 4 nodes [node0=0-31 node1=32-63 node2=64-95 node3=96-127], 2 packages, 32 clusters")
                .contains("distances [10 12 20 22|12 10 22 24|20 22 10 12|22 24 12 10]")
                .contains("source: sysfs ");
    }

    @Test
    void unknownCpuOrNodeIsRejectedClearly() {
        Topology t = Fixtures.load(LAPTOP);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> t.nodeOfCpu(2))
                .withMessage("cpu 2 is not in this topology (cpus 0-1)");
        assertThatIllegalArgumentException().isThrownBy(() -> t.nodeOfCpu(-1));
        assertThatThrownBy(() -> t.distance(0, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(t.containsCpu(1)).isTrue();
        assertThat(t.containsCpu(2)).isFalse();
    }

    @Test
    void singleNodeNumbersCpusFromZero() {
        Topology t = Topology.singleNode(3);

        assertThat(t.nodeCount()).isEqualTo(1);
        assertThat(t.cpus()).extracting(Cpu::id).containsExactly(0, 1, 2);
        assertThat(t.distance(0, 0)).isEqualTo(10);
        assertThat(t.source()).isEqualTo("single node of 3 CPUs");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Topology.singleNode(0))
                .withMessageContaining("at least 1 CPU");
    }

    static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }

    static List<Integer> concat(List<Integer> a, List<Integer> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
