package dev.wordstats.numa.topology;

import static dev.wordstats.numa.topology.Fixtures.KUNPENG_128;
import static dev.wordstats.numa.topology.Fixtures.KUNPENG_48;
import static dev.wordstats.numa.topology.Fixtures.X86_SMT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Intersection with the process affinity mask (a container cpuset): empty nodes dropped, dense indices. */
@Timeout(30)
class TopologyAffinityTest {

    @Test
    void cpusetInsideOneNodeLeavesOneDenseNodeKeepingItsOsId() {
        Topology t = Fixtures.load(KUNPENG_48, "24-31");

        assertThat(t.nodeCount()).isEqualTo(1);
        NumaNode only = t.nodes().getFirst();
        assertThat(only.index()).isZero();
        assertThat(only.osId()).isEqualTo(1);
        assertThat(only.cpus()).containsExactly(24, 25, 26, 27, 28, 29, 30, 31);
        assertThat(only.distances()).containsExactly(10);
        assertThat(t.nodeOfCpu(24)).isZero();
        assertThat(t.cpus()).allSatisfy(cpu -> assertThat(cpu.node()).isZero());
        assertThat(t.clusterCount()).isEqualTo(2);
        assertThat(t.source()).endsWith("∩ affinity 24-31");
        assertThat(t.containsCpu(0)).isFalse();
    }

    @Test
    void cpusetAcrossNodesKeepsTheDistancesOfTheKeptNodes() {
        // node 1 (os) and node 3 (os) of the 4-node machine: 8 CPUs each
        Topology t = Fixtures.load(KUNPENG_128, "40-47,120-127");

        assertThat(t.nodes()).extracting(NumaNode::osId).containsExactly(1, 3);
        assertThat(t.nodes()).extracting(NumaNode::index).containsExactly(0, 1);
        assertThat(t.distance(0, 1)).isEqualTo(24); // os 1 -> os 3
        assertThat(t.distance(1, 0)).isEqualTo(24);
        assertThat(t.nodeOfCpu(120)).isEqualTo(1);
        assertThat(t.packageCount()).isEqualTo(2);
    }

    @Test
    void smtSiblingsAreLimitedToTheAllowedCpus() {
        Topology t = Fixtures.load(X86_SMT, "0-3,16,25");

        assertThat(t.threadSiblings(0)).containsExactly(0, 16);
        assertThat(t.threadSiblings(1)).containsExactly(1); // 17 is not allowed
        assertThat(t.nodes()).extracting(NumaNode::cpus).containsExactly(List.of(0, 1, 2, 3, 16), List.of(25));
    }

    @Test
    void allowedCpusThatAreNotOnlineAreIgnored() {
        Topology t = Fixtures.load(KUNPENG_48, "46-200");

        assertThat(t.cpus()).extracting(Cpu::id).containsExactly(46, 47);
    }

    @Test
    void noOnlineAllowedCpuIsAClearError() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> Fixtures.load(KUNPENG_48, "64-71"))
                .withMessageContaining("no CPU is both online (0-47) and allowed (64-71)");
    }
}
