package dev.wordstats.comparison;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RunOrderTest {

    private static final List<String> LOCKS = List.of("A", "B", "C");

    @Test
    void eachRepeatRotatesTheOrderByOne() {
        assertThat(RunOrder.of(LOCKS, 0)).containsExactly("A", "B", "C");
        assertThat(RunOrder.of(LOCKS, 1)).containsExactly("B", "C", "A");
        assertThat(RunOrder.of(LOCKS, 2)).containsExactly("C", "A", "B");
        assertThat(RunOrder.of(LOCKS, 3)).containsExactly("A", "B", "C");
    }

    @Test
    void overAsManyRepeatsAsLocksEveryLockRunsOnceInEveryPosition() {
        List<String> locks = List.of("NUMA_MCS", "NUMA_HANDOFF", "COMBINING", "SYNCHRONIZED", "FAIR_REENTRANT");
        for (int position = 0; position < locks.size(); position++) {
            Set<String> seen = new HashSet<>();
            for (int repeat = 0; repeat < locks.size(); repeat++) {
                seen.add(RunOrder.of(locks, repeat).get(position));
            }
            assertThat(seen).as("position " + position).containsExactlyInAnyOrderElementsOf(locks);
        }
    }

    @Test
    void everyRepeatRunsEveryLockOnce() {
        for (int repeat = 0; repeat < 7; repeat++) {
            assertThat(RunOrder.of(LOCKS, repeat)).containsExactlyInAnyOrderElementsOf(LOCKS);
        }
    }

    @Test
    void aNegativeRepeatIsAnError() {
        assertThatThrownBy(() -> RunOrder.of(LOCKS, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
