package dev.wordstats.numa.counts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.CountingProbe;
import dev.wordstats.numa.lock.probe.LockStats;
import dev.wordstats.numa.topology.NodeLocator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Single-threaded behaviour of {@link StripedCounts}: counting, top-N, the distinct cap, lock statistics. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StripedCountsTest {

    private static final NodeLocator NODES = NodeLocator.singleNode();
    private static final List<LockType> TYPES = LockType.available();

    private final StripedCounts<String> counts =
            new StripedCounts<>(4, i -> TestLocks.guard(LockType.UNFAIR_REENTRANT, NODES));

    @Test
    void getOfUnseenKeyIsZero() {
        assertThat(counts.get("never")).isZero();
        assertThat(counts.size()).isZero();
        assertThat(counts.total()).isZero();
    }

    @Test
    void incrementAddAndIncrementAllAccumulatePerKey() {
        counts.increment("a");
        counts.increment("a");
        counts.add("b", 5);
        counts.incrementAll(List.of("a", "c", "c", "b"));
        assertThat(counts.get("a")).isEqualTo(3);
        assertThat(counts.get("b")).isEqualTo(6);
        assertThat(counts.get("c")).isEqualTo(2);
        assertThat(counts.size()).isEqualTo(3);
        assertThat(counts.total()).isEqualTo(11);
    }

    @Test
    void topOrdersByCountDescendingThenKeyAscending() {
        counts.add("pear", 2);
        counts.add("apple", 5);
        counts.add("fig", 2);
        counts.add("kiwi", 7);
        counts.add("date", 2);
        counts.add("plum", 1);
        assertThat(counts.top(4, Comparator.naturalOrder()))
                .containsExactly(entry("kiwi", 7L), entry("apple", 5L), entry("date", 2L), entry("fig", 2L));
        assertThat(counts.top(100, Comparator.naturalOrder()))
                .extracting(Map.Entry::getKey)
                .containsExactly("kiwi", "apple", "date", "fig", "pear", "plum");
        assertThat(counts.top(0, Comparator.naturalOrder())).isEmpty();
        assertThatThrownBy(() -> counts.top(-1, Comparator.naturalOrder()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void topOfManyKeysMatchesAFullSort() {
        List<Map.Entry<String, Long>> expected = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            String key = "k" + i;
            long count = 1 + (i * 7919L) % 37;
            counts.add(key, count);
            expected.add(Map.entry(key, count));
        }
        expected.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        assertThat(counts.top(25, Comparator.naturalOrder())).containsExactlyElementsOf(expected.subList(0, 25));
    }

    @Test
    void clearRemovesEveryKeyAndFreesTheDistinctCap() {
        counts.incrementAll(List.of("a", "b", "c"));
        counts.clear();
        assertThat(counts.size()).isZero();
        assertThat(counts.total()).isZero();
        assertThat(counts.get("a")).isZero();
        assertThat(counts.addAll(Map.of("x", 1L, "y", 1L, "z", 1L), 3))
                .as("cap free again after clear")
                .isTrue();
        assertThat(counts.size()).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0, 3, 6, 12, 1 << 17})
    void constructorRejectsStripeCountsThatAreNotPowersOfTwoInRange(int stripes) {
        assertThatThrownBy(() -> new StripedCounts<String>(stripes, i -> TestLocks.guard(LockType.SYNCHRONIZED, NODES)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("power of two");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 64, 1 << 16})
    void constructorAcceptsPowersOfTwo(int stripes) {
        StripedCounts<Integer> store = new StripedCounts<>(stripes, i -> TestLocks.guard(LockType.SYNCHRONIZED, NODES));
        assertThat(store.stripeCount()).isEqualTo(stripes);
        for (int key = -1000; key < 1000; key += 7) {
            assertThat(store.stripeOf(key)).isBetween(0, stripes - 1);
        }
    }

    @Test
    void eachStripeHasTheGuardTheFactoryMadeForIt() {
        List<Guard> made = new ArrayList<>();
        StripedCounts<String> store = new StripedCounts<>(8, i -> {
            Guard guard = TestLocks.guard(TYPES.get(i % TYPES.size()), NODES);
            made.add(guard);
            return guard;
        });
        for (int i = 0; i < 8; i++) {
            assertThat(store.guard(i)).isSameAs(made.get(i));
        }
    }

    @Test
    void copiesOfEveryStripeHoldEachKeyOnceInItsOwnStripeAndStayDetached() {
        for (int k = 0; k < 100; k++) {
            counts.add("w" + k, k + 1);
        }
        Map<String, Long> all = new java.util.HashMap<>();
        for (int i = 0; i < counts.stripeCount(); i++) {
            Map<String, Long> copy = counts.copyStripe(i);
            for (Map.Entry<String, Long> e : copy.entrySet()) {
                assertThat(counts.stripeOf(e.getKey())).isEqualTo(i);
                assertThat(all.put(e.getKey(), e.getValue())).isNull();
            }
            copy.clear();
        }
        assertThat(all).hasSize(100).containsEntry("w0", 1L).containsEntry("w99", 100L);
        assertThat(counts.size()).isEqualTo(100);
        assertThat(counts.get("w99")).isEqualTo(100);
        assertThatThrownBy(() -> counts.copyStripe(counts.stripeCount())).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void copyStripeIsACriticalSectionOfTheStripesGuard() {
        List<Integer> entered = new ArrayList<>();
        StripedCounts<String> store = new StripedCounts<>(2, i -> new Guard() {
            @Override
            public <T> T call(java.util.function.Supplier<T> section) {
                entered.add(i);
                return section.get();
            }
        });
        store.copyStripe(1);
        assertThat(entered).containsExactly(1);
    }

    @Test
    void sizeIsTheDistinctCountAfterEveryKindOfWrite() {
        counts.increment("a");
        counts.add("a", 3);
        counts.add("b", 2);
        assertThat(counts.size()).isEqualTo(2);
        counts.incrementAll(List.of("b", "c", "d", "d"));
        assertThat(counts.size()).isEqualTo(4);
        assertThat(counts.addAll(Map.of("d", 1L, "e", 1L, "f", 1L), 5)).isFalse();
        assertThat(counts.size()).as("a refused batch reserves nothing").isEqualTo(4);
        assertThat(counts.addAll(Map.of("d", 1L, "e", 1L), 5)).isTrue();
        assertThat(counts.size()).isEqualTo(5);
        counts.clear();
        assertThat(counts.size()).isZero();
    }

    @Test
    void addRejectsDeltasBelowOneAndNullKeys() {
        assertThatThrownBy(() -> counts.add("a", 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> counts.add("a", -3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> counts.add(null, 1)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> counts.addAll(Map.of("a", 0L), Long.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(counts.size()).as("nothing counted by rejected calls").isZero();
    }

    @Test
    void addAllBringingMoreNewKeysThanTheCapAllowsChangesNothing() {
        assertThat(counts.addAll(Map.of("a", 1L, "b", 2L, "c", 3L), 5)).isTrue();
        Map<String, Long> tooMany = new LinkedHashMap<>();
        tooMany.put("a", 10L);
        tooMany.put("d", 1L);
        tooMany.put("e", 1L);
        tooMany.put("f", 1L);
        assertThat(counts.addAll(tooMany, 5))
                .as("3 new keys on top of 3 with a cap of 5")
                .isFalse();
        assertThat(counts.get("a")).as("known key of a refused batch").isEqualTo(1);
        assertThat(counts.get("d")).isZero();
        assertThat(counts.size()).isEqualTo(3);
        assertThat(counts.total()).isEqualTo(6);
    }

    @Test
    void addAllOfKnownKeysAlwaysPassesAtTheCap() {
        assertThat(counts.addAll(Map.of("a", 1L, "b", 1L, "c", 1L), 3)).isTrue();
        assertThat(counts.addAll(Map.of("a", 1L, "b", 1L, "c", 1L), 3))
                .as("known keys at the cap")
                .isTrue();
        assertThat(counts.addAll(Map.of("a", 1L), 3))
                .as("one known key at the cap")
                .isTrue();
        assertThat(counts.addAll(Map.of("a", 1L, "z", 1L), 3))
                .as("a new key at the cap")
                .isFalse();
        assertThat(counts.get("a")).isEqualTo(3);
        assertThat(counts.get("z")).isZero();
        assertThat(counts.addAll(Map.of("z", 1L), 4))
                .as("a new key under a higher cap")
                .isTrue();
        assertThat(counts.size()).isEqualTo(4);
    }

    @Test
    void addAllUpToExactlyTheCapPasses() {
        assertThat(counts.addAll(Map.of("a", 1L, "b", 1L), 4)).isTrue();
        assertThat(counts.addAll(Map.of("b", 1L, "c", 1L, "d", 1L), 4))
                .as("2 new keys reach the cap of 4")
                .isTrue();
        assertThat(counts.size()).isEqualTo(4);
        assertThat(counts.addAll(Map.of("e", 1L), 4)).isFalse();
    }

    @Tag(TestLocks.EVERY_TYPE)
    @ParameterizedTest
    @MethodSource("dev.wordstats.numa.lock.TestLocks#types")
    void probedStripesCountOneAcquisitionPerStripeVisit(LockType type) {
        List<CountingProbe> probes = new ArrayList<>();
        StripedCounts<String> observed = new StripedCounts<>(4, i -> {
            CountingProbe probe = new CountingProbe(NODES);
            probes.add(probe);
            return TestLocks.guard(type, NODES, probe);
        });
        for (int i = 0; i < 10; i++) {
            observed.increment("k" + i);
        }
        assertThat(CountingProbe.total(probes).acquisitions())
                .as("one acquisition per increment")
                .isEqualTo(10);
        observed.total();
        // total() reads: a reader-writer type's probe hears its write sections only
        long afterTotal = type.isReadWrite() ? 10 : 14;
        assertThat(CountingProbe.total(probes).acquisitions())
                .as("plus one per stripe for total() (an exclusive type)")
                .isEqualTo(afterTotal);
        assertThat(observed.size()).as("size() enters no stripe").isEqualTo(10);
        assertThat(CountingProbe.total(probes).acquisitions()).isEqualTo(afterTotal);
        LockStats sum = LockStats.ZERO;
        for (CountingProbe probe : probes) {
            sum = sum.plus(probe.stats());
        }
        assertThat(CountingProbe.total(probes)).isEqualTo(sum);
    }
}
