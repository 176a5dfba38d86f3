package dev.wordstats.numa.lock.combining;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.GuardProvider;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * With this module on the class path every {@link LockType} is available: the types in the lab find their
 * {@link GuardProvider}s (META-INF/services), and {@link LockType#create} builds the lab's classes. Fails if
 * a registration goes missing, so a type cannot silently become unavailable where the lab is meant to be.
 * (Without the lab, numa-locks' LockTypeTest.theTypesInTheLabAreUnavailableWithoutItAndNameTheArtifact.)
 */
class LabTypesAvailableTest {

    @Test
    void everyTypeIsAvailableAndTheLabsTypesAreTheCombiningOnes() {
        assertThat(LockType.available()).containsExactly(LockType.values());
        assertThat(Arrays.stream(LockType.values()).filter(LockType::isInLab))
                .containsExactly(LockType.COMBINING, LockType.NUMA_COMBINING);
        assertThat(LockType.COMBINING.isAvailable()).isTrue();
        assertThat(LockType.NUMA_COMBINING.isAvailable()).isTrue();
    }

    @Test
    void theTypesBuildTheLabsClassesWithAndWithoutADefaultProbe() {
        NodeLocator twoNodes = new ThreadIdNodes(2);
        assertThat(TestLocks.guard(LockType.COMBINING, twoNodes)).isInstanceOf(CombiningLock.class);
        assertThat(TestLocks.guard(LockType.NUMA_COMBINING, twoNodes)).isInstanceOf(NumaCombiningLock.class);
        assertThat(LockType.COMBINING.create(TestLocks.context(twoNodes))).isInstanceOf(CombiningLock.class);
        assertThat(LockType.NUMA_COMBINING.create(TestLocks.context(twoNodes))).isInstanceOf(NumaCombiningLock.class);
        assertThat(TestLocks.guard(LockType.COMBINING, twoNodes))
                .as("a new lock each time")
                .isNotSameAs(TestLocks.guard(LockType.COMBINING, twoNodes));
    }

    @Test
    void eachProviderNamesItsOwnType() {
        assertThat(new CombiningLockProvider().type()).isEqualTo(LockType.COMBINING);
        assertThat(new NumaCombiningLockProvider().type()).isEqualTo(LockType.NUMA_COMBINING);
    }
}
