package dev.wordstats.numa.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(30)
class SimulatedNodesTest {

    @ParameterizedTest
    @ValueSource(strings = {Fixtures.LAPTOP, Fixtures.KUNPENG_48, Fixtures.KUNPENG_128, Fixtures.X86_SMT})
    void everySplitCoversAllCpusInContiguousBalancedGroups(String machine) {
        Topology real = Fixtures.load(machine);
        for (int n : java.util.stream.IntStream.of(1, 2, 3, real.cpuCount())
                .filter(n -> n <= real.cpuCount())
                .distinct()
                .toArray()) {
            Topology sim = real.withSimulatedNodes(n);

            assertThat(sim.nodeCount()).isEqualTo(n);
            assertThat(sim.simulated()).isTrue();
            assertThat(sim.source()).startsWith("simulated " + n + " node").contains(real.source());
            List<Integer> all = new ArrayList<>();
            sim.nodes().forEach(node -> all.addAll(node.cpus()));
            assertThat(all)
                    .as("contiguous in id order")
                    .isEqualTo(real.cpus().stream().map(Cpu::id).toList());
            int min = sim.nodes().stream()
                    .mapToInt(node -> node.cpus().size())
                    .min()
                    .orElseThrow();
            int max = sim.nodes().stream()
                    .mapToInt(node -> node.cpus().size())
                    .max()
                    .orElseThrow();
            assertThat(max - min).isLessThanOrEqualTo(1);
            for (int from = 0; from < n; from++) {
                for (int to = 0; to < n; to++) {
                    assertThat(sim.distance(from, to)).isEqualTo(from == to ? 10 : 20);
                }
                for (int cpu : sim.nodes().get(from).cpus()) {
                    assertThat(sim.nodeOfCpu(cpu)).isEqualTo(from);
                    Cpu before = real.cpu(cpu);
                    assertThat(sim.cpu(cpu))
                            .isEqualTo(new Cpu(cpu, from, before.packageId(), before.clusterId(), before.coreId()));
                }
            }
        }
    }

    @Test
    void unevenSplitGivesTheFirstNodesTheExtraCpu() {
        Topology sim = Fixtures.load(Fixtures.KUNPENG_48).withSimulatedNodes(5);

        assertThat(sim.nodes()).extracting(node -> node.cpus().size()).containsExactly(10, 10, 10, 9, 9);
        assertThat(sim.nodes().get(1).cpus().getFirst()).isEqualTo(10);
    }

    @Test
    void splitFollowsTheAllowedCpusNotTheMachine() {
        Topology sim = Fixtures.load(Fixtures.X86_SMT, "4-7,20-23").withSimulatedNodes(2);

        assertThat(sim.nodes())
                .extracting(NumaNode::cpus)
                .containsExactly(List.of(4, 5, 6, 7), List.of(20, 21, 22, 23));
    }

    @Test
    void nodeCountOutsideOneToCpuCountIsRejectedWithTheRange() {
        Topology laptop = Fixtures.load(Fixtures.LAPTOP);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> laptop.withSimulatedNodes(3))
                .withMessage("simulated NUMA nodes must be between 1 and 2 (the number of allowed CPUs: 0-1), was 3");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> laptop.withSimulatedNodes(0))
                .withMessageContaining("between 1 and 2");
    }

    @Test
    void summaryMarksSimulatedNodes() {
        String summary = Fixtures.load(Fixtures.LAPTOP).withSimulatedNodes(2).summary();

        assertThat(summary)
                .startsWith("2 CPUs in 2 simulated nodes [node0=0 node1=1]")
                .contains("distances [10 20|20 10]")
                .contains("source: simulated 2 nodes over sysfs");
    }

    @Test
    void realMachineSplitsIntoAsManyNodesAsCpus() {
        Topology real = Topology.detect();
        Topology sim = real.withSimulatedNodes(real.cpuCount());

        assertThat(sim.nodes()).allSatisfy(node -> assertThat(node.cpus()).hasSize(1));
        assertThat(sim.cpuIds()).isEqualTo(real.cpuIds());
    }
}
