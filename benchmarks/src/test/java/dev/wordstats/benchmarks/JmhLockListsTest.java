package dev.wordstats.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.benchmarks.cost.UncontendedLockBenchmark;
import dev.wordstats.benchmarks.readwrite.ReadWriteBenchmark;
import dev.wordstats.benchmarks.text.TextStatsBenchmark;
import dev.wordstats.numa.lock.LockType;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

/**
 * JMH needs some {@code lockType} values written out in annotations; these checks keep those lists
 * equal to {@link LockType#values()}, so a new lock type cannot be left out of a benchmark's default run.
 */
class JmhLockListsTest {

    @Test
    void theTextTaskRunsEveryLockTypeBesideTheLockFreeBaselines() throws NoSuchFieldException {
        List<String> listed =
                values(TextStatsBenchmark.class.getField("lockType").getAnnotation(Param.class));
        assertThat(listed)
                .containsAll(Arrays.stream(LockType.values()).map(Enum::name).toList())
                .containsAll(TextStatsBenchmark.BOUNDS);
        assertThat(listed).allMatch(name -> TextStatsBenchmark.BOUNDS.contains(name) || LockType.parse(name) != null);
    }

    @Test
    void theReadWriteBenchRunsEveryLockTypeBesideTheCopyOnWriteBound() throws NoSuchFieldException {
        List<String> listed =
                values(ReadWriteBenchmark.class.getField("lockType").getAnnotation(Param.class));
        assertThat(listed)
                .containsExactlyInAnyOrderElementsOf(Stream.concat(
                                Arrays.stream(LockType.values()).map(Enum::name), ReadWriteBenchmark.BOUNDS.stream())
                        .toList());
    }

    @Test
    void uncontendedLockUnlockRunsExactlyTheTypesThatAreLocks() throws NoSuchFieldException {
        List<String> listed =
                values(UncontendedLockBenchmark.Locks.class.getField("lockType").getAnnotation(Param.class));
        assertThat(listed)
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(LockType.values())
                        .filter(LockType::isLock)
                        .map(Enum::name)
                        .toList());
    }

    @Test
    void uncontendedCallsAndContentionRunEveryType() throws NoSuchFieldException {
        assertThat(UncontendedLockBenchmark.Guards.class
                        .getField("lockType")
                        .getAnnotation(Param.class)
                        .value())
                .as("no values: JMH takes every constant")
                .containsExactly(Param.BLANK_ARGS);
        assertThat(dev.wordstats.benchmarks.contention.LockContentionBenchmark.class
                        .getField("lockType")
                        .getAnnotation(Param.class)
                        .value())
                .containsExactly(Param.BLANK_ARGS);
    }

    private static List<String> values(Param param) {
        return List.of(param.value());
    }
}
