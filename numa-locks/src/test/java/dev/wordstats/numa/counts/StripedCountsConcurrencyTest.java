package dev.wordstats.numa.counts;

import static dev.wordstats.numa.lock.ConcurrencySupport.DURATION_MILLIS;
import static dev.wordstats.numa.lock.ConcurrencySupport.PROMPT;
import static dev.wordstats.numa.lock.ConcurrencySupport.SEED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.ConcurrencySupport.ThreadIdNodes;
import dev.wordstats.numa.lock.ConcurrencySupport.ThreadKind;
import dev.wordstats.numa.lock.ConcurrencySupport.Workers;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.probe.CountingProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link StripedCounts} stays exact under concurrent writers for every {@link LockType}, with virtual
 * and with platform threads. A small vocabulary on few stripes keeps the stripe locks contended.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag(TestLocks.EVERY_TYPE)
class StripedCountsConcurrencyTest {

    private static final int VOCABULARY = 40;
    private static final int STRIPES = 4;
    /** Each worker does at least this many actions, so a loaded machine that starts it late still tests something. */
    private static final int MIN_ACTIONS = 200;

    static Stream<Arguments> typesAndKinds() {
        return TestLocks.types()
                .flatMap(type -> Arrays.stream(ThreadKind.values()).map(kind -> Arguments.of(type, kind)));
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void concurrentIncrementsAddsAndBatchesGiveExactTotalsPerKey(LockType type, ThreadKind kind) throws Exception {
        StripedCounts<String> counts = new StripedCounts<>(STRIPES, i -> TestLocks.guard(type, new ThreadIdNodes(2)));
        AtomicLongArray expected = new AtomicLongArray(VOCABULARY);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS);
        try (Workers workers = new Workers(type + " seed " + SEED)) {
            for (int t = 0; t < kind.stressThreads(); t++) {
                SplittableRandom random = new SplittableRandom(SEED + t);
                workers.start(kind, "writer-" + t, () -> {
                    long[] mine = new long[VOCABULARY];
                    for (int n = 0; n < MIN_ACTIONS || System.nanoTime() < end; n++) {
                        switch (random.nextInt(4)) {
                            case 0 -> {
                                int k = random.nextInt(VOCABULARY);
                                counts.increment(word(k));
                                mine[k]++;
                            }
                            case 1 -> {
                                int k = random.nextInt(VOCABULARY);
                                long delta = 1 + random.nextInt(5);
                                counts.add(word(k), delta);
                                mine[k] += delta;
                            }
                            case 2 -> {
                                List<String> batch = new ArrayList<>();
                                for (int i = random.nextInt(12); i >= 0; i--) {
                                    int k = random.nextInt(VOCABULARY);
                                    batch.add(word(k));
                                    mine[k]++;
                                }
                                counts.incrementAll(batch);
                            }
                            default -> { // readers in between must not disturb writers
                                counts.get(word(random.nextInt(VOCABULARY)));
                                if (random.nextInt(32) == 0) {
                                    counts.top(5, String::compareTo);
                                }
                            }
                        }
                    }
                    for (int k = 0; k < VOCABULARY; k++) {
                        expected.addAndGet(k, mine[k]);
                    }
                });
            }
            workers.joinAll(Duration.ofMillis(DURATION_MILLIS).plus(PROMPT));
        }
        long total = 0;
        int distinct = 0;
        for (int k = 0; k < VOCABULARY; k++) {
            assertThat(counts.get(word(k)))
                    .as("count of %s (seed %d)", word(k), SEED)
                    .isEqualTo(expected.get(k));
            total += expected.get(k);
            distinct += expected.get(k) > 0 ? 1 : 0;
        }
        assertThat(total).isPositive();
        assertThat(counts.total()).isEqualTo(total);
        assertThat(counts.size()).isEqualTo(distinct);
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void concurrentCappedBatchesAreAllOrNothing(LockType type, ThreadKind kind) throws Exception {
        StripedCounts<String> counts = new StripedCounts<>(STRIPES, i -> TestLocks.guard(type, new ThreadIdNodes(2)));
        int batchSize = 5;
        int batchesPerThread = 40;
        long cap = 200;
        int threads = kind.stressThreads();
        List<List<Boolean>> accepted = new ArrayList<>();
        LongAdder acceptedCount = new LongAdder();
        try (Workers workers = new Workers(type)) {
            for (int t = 0; t < threads; t++) {
                int thread = t;
                List<Boolean> mine = new ArrayList<>();
                accepted.add(mine);
                workers.start(kind, "batcher-" + t, () -> {
                    for (int b = 0; b < batchesPerThread; b++) {
                        Map<String, Long> batch = new HashMap<>();
                        batch.put("shared", 1L); // a key every batch has: counts exactly the accepted batches
                        for (int i = 1; i < batchSize; i++) {
                            batch.put("t" + thread + "-b" + b + "-" + i, (long) i);
                        }
                        boolean ok = counts.addAll(batch, cap);
                        mine.add(ok);
                        if (ok) {
                            acceptedCount.increment();
                        }
                    }
                });
            }
            workers.joinAll(PROMPT);
        }
        for (int t = 0; t < threads; t++) {
            for (int b = 0; b < batchesPerThread; b++) {
                boolean ok = accepted.get(t).get(b);
                for (int i = 1; i < batchSize; i++) {
                    assertThat(counts.get("t" + t + "-b" + b + "-" + i))
                            .as("key %d of batch %d of thread %d, batch accepted=%s", i, b, t, ok)
                            .isEqualTo(ok ? i : 0);
                }
            }
        }
        long acceptedBatches = acceptedCount.sum();
        assertThat(counts.get("shared")).isEqualTo(acceptedBatches);
        assertThat(counts.size()).isEqualTo(1 + acceptedBatches * (batchSize - 1));
        assertThat(counts.size()).isLessThanOrEqualTo(cap);
        assertThat(acceptedBatches).as("batches accepted before the cap").isPositive();
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void reservedBatchesRacingAtTheCapNeverPassIt(LockType type, ThreadKind kind) throws Exception {
        // Groups of writes (a request's lines) reserve all their keys, then add line by line, racing
        // single capped batches and a clearer; no reading of the distinct count may pass the cap.
        StripedCounts<String> counts = new StripedCounts<>(STRIPES, i -> TestLocks.guard(type, new ThreadIdNodes(2)));
        long cap = 60;
        int threads = kind.stressThreads();
        java.util.concurrent.atomic.AtomicLong highest = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicInteger writersLeft = new java.util.concurrent.atomic.AtomicInteger(threads);
        try (Workers workers = new Workers(type)) {
            for (int t = 0; t < threads; t++) {
                int thread = t;
                workers.start(kind, "writer-" + t, () -> {
                    try {
                        SplittableRandom random = new SplittableRandom(SEED + thread);
                        for (int round = 0; round < MIN_ACTIONS; round++) {
                            List<Map<String, Long>> lines = new ArrayList<>();
                            long keys = 0;
                            for (int l = 0; l < 3; l++) {
                                Map<String, Long> line = new HashMap<>();
                                for (int k = 0; k < 4; k++) {
                                    line.merge("k" + random.nextInt(VOCABULARY * 3), 1L, Long::sum);
                                }
                                lines.add(line);
                                keys += line.size();
                            }
                            if (round % 2 == 0) {
                                StripedCounts<String>.Reservation reservation = counts.tryReserve(keys, cap);
                                if (reservation != null) {
                                    try (reservation) {
                                        for (Map<String, Long> line : lines) {
                                            counts.addAll(line, reservation, cap);
                                        }
                                    }
                                }
                            } else {
                                counts.addAll(lines.getFirst(), cap);
                            }
                            highest.accumulateAndGet(counts.size(), Math::max);
                        }
                    } finally {
                        writersLeft.decrementAndGet();
                    }
                });
            }
            workers.start(kind, "clearer", () -> {
                while (writersLeft.get() > 0) {
                    counts.clear();
                    highest.accumulateAndGet(counts.size(), Math::max);
                    Thread.onSpinWait();
                }
            });
            workers.joinAll(PROMPT);
        }
        assertThat(highest.get()).as("the distinct count at any reading").isLessThanOrEqualTo(cap);
        long present = counts.top(VOCABULARY * 3, String::compareTo).size();
        assertThat(counts.size()).isEqualTo(present).isLessThanOrEqualTo(cap);
    }

    @ParameterizedTest(name = "{0}, {1} threads")
    @MethodSource("typesAndKinds")
    void lockStatsCountOneAcquisitionPerIncrementAcrossObservedStripes(LockType type, ThreadKind kind)
            throws Exception {
        List<CountingProbe> probes = new ArrayList<>();
        StripedCounts<String> counts = new StripedCounts<>(STRIPES, i -> {
            ThreadIdNodes nodes = new ThreadIdNodes(2);
            CountingProbe probe = new CountingProbe(nodes);
            probes.add(probe);
            return TestLocks.guard(type, nodes, probe);
        });
        LongAdder increments = new LongAdder();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DURATION_MILLIS / 2);
        try (Workers workers = new Workers(type)) {
            for (int t = 0; t < kind.stressThreads(); t++) {
                SplittableRandom random = new SplittableRandom(SEED + t);
                workers.start(kind, "writer-" + t, () -> {
                    long mine = 0;
                    for (int n = 0; n < MIN_ACTIONS || System.nanoTime() < end; n++) {
                        counts.increment(word(random.nextInt(VOCABULARY)));
                        mine++;
                    }
                    increments.add(mine);
                });
            }
            workers.joinAll(Duration.ofMillis(DURATION_MILLIS).plus(PROMPT));
        }
        var stats = CountingProbe.total(probes);
        assertThat(stats.acquisitions())
                .as("%s", stats)
                .isEqualTo(increments.sum())
                .isPositive();
        // Each stripe's first acquisition has no predecessor to hand off from.
        assertThat(stats.sameNodeHandoffs() + stats.crossNodeHandoffs())
                .isEqualTo(increments.sum() - nonEmptyStripes(counts));
    }

    private static long nonEmptyStripes(StripedCounts<String> counts) {
        boolean[] used = new boolean[counts.stripeCount()];
        for (int k = 0; k < VOCABULARY; k++) {
            if (counts.get(word(k)) > 0) {
                used[counts.stripeOf(word(k))] = true;
            }
        }
        int n = 0;
        for (boolean u : used) {
            n += u ? 1 : 0;
        }
        return n;
    }

    private static String word(int k) {
        return "w" + k;
    }
}
