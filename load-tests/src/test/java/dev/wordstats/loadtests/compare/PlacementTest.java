package dev.wordstats.loadtests.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PlacementTest {

    @Test
    void blankIsAnywhereAndAddsNothing() {
        assertThat(Placement.parse("")).isEqualTo(Placement.ANY);
        assertThat(Placement.parse(null).prefix(true, n -> "x")).isEmpty();
    }

    @Test
    void cpusUseNumactlWhenPresentAndTasksetOtherwise() {
        Placement p = Placement.parse("cpus:0-3,8");
        assertThat(p.prefix(true, n -> "unused")).containsExactly("numactl", "--physcpubind=0-3,8");
        assertThat(p.prefix(false, n -> "unused")).containsExactly("taskset", "-c", "0-3,8");
    }

    @Test
    void nodesBindCpusAndMemoryWithNumactlAndTheNodesCpusWithTaskset() {
        Placement p = Placement.parse("nodes:1");
        assertThat(p.prefix(true, n -> "unused")).containsExactly("numactl", "--cpunodebind=1", "--membind=1");
        assertThat(p.prefix(false, n -> n.equals("1") ? "24-47" : "?")).containsExactly("taskset", "-c", "24-47");
    }

    @Test
    void aBadPlacementIsAnErrorThatSaysTheForm() {
        assertThatThrownBy(() -> Placement.parse("socket:1")).hasMessageContaining("cpus:LIST or nodes:LIST");
        assertThatThrownBy(() -> Placement.parse("cpus:a-b")).hasMessageContaining("0-3,8");
    }

    @Test
    void kernelListsExpand() {
        assertThat(Placement.expand("0-2,5")).containsExactly(0, 1, 2, 5);
    }
}
