package dev.wordstats.benchmarks.runner;

import dev.wordstats.benchmarks.contention.JainIndex;
import dev.wordstats.benchmarks.runner.ComparisonFigures.Verdict;
import dev.wordstats.benchmarks.text.TextStatsBenchmark;
import dev.wordstats.benchmarks.text.WordCounter;
import dev.wordstats.benchmarks.text.ZipfText;
import dev.wordstats.comparison.Spread;
import dev.wordstats.numa.carrier.CarrierPinning;
import dev.wordstats.numa.counts.StripedCounts;
import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.queue.NumaMonitorLock;
import dev.wordstats.numa.topology.NodeLocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Locks compared with rounds interleaved in one JVM: round r runs one round of the task with every
 * lock, starting at lock r mod n, so that each lock meets the same JIT state, heap and host noise as
 * the others, and each ratio is taken between rounds seconds apart. JMH's forks give each lock a JVM
 * of its own, and on a shared 2-vCPU guest two JVMs of one lock differ by more than the locks do;
 * here the spread of the ratios is the noise of seconds, not of JVMs.
 *
 * <p>One candidate a JVM, beside the two references: each further guard or lock type that runs in the
 * JVM makes the store's {@code Guard.call} and the guards' {@code Lock.lock} call sites megamorphic
 * (type-profile pollution), and that slows the {@code Lock}-based guards more than
 * {@code synchronized}, whose guard calls no {@code Lock}: with every type in one JVM, a
 * {@code Lock}-based candidate counted well below where it ran against {@code SYNCHRONIZED} beside the
 * references alone. A service runs one type; so does each JVM here ({@code rounds.sh} starts one per
 * candidate).
 *
 * <p>Two tasks, each a whole round with {@code threads} new virtual threads on the JDK's scheduler:
 * <ul>
 *   <li>{@code text}: striped counting, as TextStatsBenchmark (lines of Zipf words pulled off one
 *       cursor, split outside the lock, a critical section per word or per stripe a line touches);
 *       the bounds of the JMH text task ({@link TextStatsBenchmark#BOUNDS}: the lock-free stores and the
 *       spin-lock bound {@code SPIN_BOUND}) may run beside the locks. Each round's total is checked.
 *   <li>{@code hot}: one hot lock, {@code actions} critical sections of {@code tokens} JMH CPU tokens
 *       (optionally with a {@code Thread.yield()} inside), shared by the threads off one budget; the
 *       Jain index of the sections each thread ran, and the waits' p99 and max (each wait timed from
 *       asking for the lock to the start of the section).
 * </ul>
 *
 * <p>Ratios are throughput ratios (the reference's round time over the lock's) to each reference of
 * {@link RegimeMatrix#REFERENCES}, median of the rounds with their range; "faster" or "slower" only
 * when every round agrees. The mode switches of the types with modes ({@link LockType#hasModes()}) are
 * counted per round.
 *
 * <pre>{@code
 * benchmarks/rounds.sh OUT_DIR        the regime rows, one Markdown table each, into OUT_DIR/README.md
 * java ... dev.wordstats.benchmarks.runner.InterleavedRounds text --stripes 4 --vocabulary 50000 \
 *     --exponent 1.0 --granularity word --rounds 10 --locks UNFAIR_REENTRANT,SYNCHRONIZED,NUMA_HANDOFF
 * }</pre>
 */
public final class InterleavedRounds {

    /** The candidate when none is named. */
    static final String DEFAULT_CANDIDATE = "NUMA_MONITOR";

    /** What the command line asked for; defaults as the regime matrix's rows. */
    static final class Options {
        String task = "text";
        List<String> locks = new ArrayList<>();
        int rounds = 10;
        int warmupRounds = 3;
        int threads = 64;
        // text
        int stripes = 4;
        int vocabulary = 50_000;
        double exponent = 1.0;
        String granularity = "word";
        int lines = 100_000;
        int wordsPerLine = 20;
        long seed = 42L;
        // hot
        long tokens = 100;
        long actions = 1_000_000;
        boolean yieldInside;

        static Options parse(String... args) {
            if (args.length == 0 || !(args[0].equals("text") || args[0].equals("hot"))) {
                throw new IllegalArgumentException("first argument: text or hot");
            }
            Options o = new Options();
            o.task = args[0];
            for (int i = 1; i < args.length; i++) {
                String name = args[i];
                if (name.equals("--yield")) {
                    o.yieldInside = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(name + " needs a value");
                }
                String value = args[++i];
                switch (name) {
                    case "--locks" -> o.locks = List.of(value.split(","));
                    case "--rounds" -> o.rounds = positive(name, Integer.parseInt(value));
                    case "--warmup" -> o.warmupRounds = Integer.parseInt(value);
                    case "--threads" -> o.threads = positive(name, Integer.parseInt(value));
                    case "--stripes" -> o.stripes = positive(name, Integer.parseInt(value));
                    case "--vocabulary" -> o.vocabulary = positive(name, Integer.parseInt(value));
                    case "--exponent" -> o.exponent = Double.parseDouble(value);
                    case "--granularity" -> o.granularity = granularity(value);
                    case "--lines" -> o.lines = positive(name, Integer.parseInt(value));
                    case "--words-per-line" -> o.wordsPerLine = positive(name, Integer.parseInt(value));
                    case "--seed" -> o.seed = Long.parseLong(value);
                    case "--tokens" -> o.tokens = Long.parseLong(value);
                    case "--actions" -> o.actions = positive(name, Long.parseLong(value));
                    default -> throw new IllegalArgumentException("unknown option " + name);
                }
            }
            if (o.locks.isEmpty()) {
                o.locks = new ArrayList<>(RegimeMatrix.REFERENCES);
                o.locks.add(DEFAULT_CANDIDATE);
            }
            List<String> candidates = o.locks.stream()
                    .filter(lock -> !RegimeMatrix.REFERENCES.contains(lock))
                    .toList();
            if (candidates.size() > 1) {
                throw new IllegalArgumentException("one candidate beside " + RegimeMatrix.REFERENCES + " a JVM, was "
                        + candidates + ": more types make the guards' call sites megamorphic");
            }
            for (String lock : o.locks) {
                if (!(o.task.equals("text") && TextStatsBenchmark.BOUNDS.contains(lock))) {
                    LockType.parse(lock); // a clear error for a misspelled lock, before any round
                }
            }
            return o;
        }

        String describe() {
            return task.equals("text")
                    ? String.format(
                            Locale.ROOT,
                            "striped counting: %d virtual threads, %d stripes, %d lines of %d words, vocabulary %d"
                                    + " (Zipf %s), a critical section per %s",
                            threads,
                            stripes,
                            lines,
                            wordsPerLine,
                            vocabulary,
                            exponent,
                            granularity)
                    : String.format(
                            Locale.ROOT,
                            "one hot lock: %d virtual threads, %d sections of %d tokens%s, nothing outside",
                            threads,
                            actions,
                            tokens,
                            yieldInside ? " with a Thread.yield() inside" : "");
        }

        private static int positive(String name, int value) {
            if (value < 1) {
                throw new IllegalArgumentException(name + " must be positive, was " + value);
            }
            return value;
        }

        private static long positive(String name, long value) {
            if (value < 1) {
                throw new IllegalArgumentException(name + " must be positive, was " + value);
            }
            return value;
        }

        private static String granularity(String value) {
            if (!value.equals("word") && !value.equals("line")) {
                throw new IllegalArgumentException("--granularity must be word or line, was " + value);
            }
            return value;
        }
    }

    /**
     * One lock's round: its time, and for the hot task the sections each thread ran and its waits.
     *
     * @param waitP99Nanos the 99th percentile of the round's waits (from asking for the lock to the start of
     *     the section), NaN where the task does not time them (text)
     * @param waitMaxNanos the round's longest wait, likewise
     */
    record Round(long nanos, long[] shares, long modeSwitches, double waitP99Nanos, double waitMaxNanos) {}

    /** Waits longer than this are recorded as this (the histogram's range). */
    private static final long MAX_RECORDED_WAIT_NANOS = 60_000_000_000L;

    /** Every lock's rounds, in the options' lock order. */
    record Result(Options options, Map<String, List<Round>> rounds) {}

    private InterleavedRounds() {}

    public static void main(String[] args) throws Exception {
        Options options;
        Path out = null;
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        int outAt = rest.indexOf("--out");
        if (outAt >= 0 && outAt + 1 < rest.size()) {
            out = Path.of(rest.get(outAt + 1));
            rest.subList(outAt, outAt + 2).clear();
        }
        try {
            options = Options.parse(rest.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            System.err.println("InterleavedRounds: " + e.getMessage());
            System.exit(2);
            return;
        }
        String load = MachineDescription.loadAverage();
        Result result = run(options);
        String table = markdown(result, load, MachineDescription.loadAverage());
        System.out.print(table);
        if (out != null) {
            Files.writeString(out, table);
        }
    }

    /** Runs the warm-up rounds, then the measured ones, each lock once a round in rotated order. */
    static Result run(Options o) throws InterruptedException {
        List<String> text = o.task.equals("text") ? text(o) : List.of();
        long expected = (long) text.size() * o.wordsPerLine;
        Map<String, List<Round>> rounds = new LinkedHashMap<>();
        o.locks.forEach(lock -> rounds.put(lock, new ArrayList<>()));
        int n = o.locks.size();
        for (int r = -o.warmupRounds; r < o.rounds; r++) {
            for (int k = 0; k < n; k++) {
                String lock = o.locks.get(Math.floorMod(k + r, n));
                Round round = o.task.equals("text") ? textRound(o, lock, text, expected) : hotRound(o, lock);
                if (r >= 0) {
                    rounds.get(lock).add(round);
                }
            }
        }
        return new Result(o, rounds);
    }

    private static List<String> text(Options o) {
        return new ZipfText(o.vocabulary, o.exponent, o.seed).linesOfExactly(o.lines, o.wordsPerLine, o.seed);
    }

    private static LockContext context() {
        return new LockContext(NodeLocator.singleNode(), CarrierPinning.schedulerParallelism());
    }

    static Round textRound(Options o, String lock, List<String> text, long expected) throws InterruptedException {
        WordCounter counter = WordCounter.create(lock, o.stripes, o.threads, NodeLocator.singleNode());
        boolean perLine = o.granularity.equals("line");
        AtomicInteger cursor = new AtomicInteger();
        long nanos = timed(o.threads, t -> {
            WordCounter.Sink sink = counter.sink(t);
            return () -> WordCounter.countLines(text, cursor, sink, perLine);
        });
        long finishing = System.nanoTime();
        counter.finish(); // merging per-thread maps is part of their round
        nanos += System.nanoTime() - finishing;
        if (counter.total() != expected) {
            throw new IllegalStateException(lock + " counted " + counter.total() + " words, expected " + expected);
        }
        long switches = 0;
        if (counter instanceof WordCounter.Striped striped) {
            StripedCounts<String> counts = striped.counts();
            for (int i = 0; i < counts.stripeCount(); i++) {
                switches += modeSwitches(counts.guard(i));
            }
        }
        return new Round(nanos, new long[0], switches, Double.NaN, Double.NaN);
    }

    static Round hotRound(Options o, String lock) throws InterruptedException {
        Guard guard = LockType.parse(lock).create(context());
        AtomicLong budget = new AtomicLong(o.actions);
        long[] shares = new long[o.threads];
        long tokens = o.tokens;
        boolean yieldInside = o.yieldInside;
        // Each wait is timed as the contention round times it: from just before guard.run to the start of the
        // section, on whichever thread runs it; the guard orders the section's write of waited[t] before
        // guard.run returns to thread t. Every lock pays the same two clock reads.
        long[] asked = new long[o.threads];
        long[] waited = new long[o.threads];
        Histogram[] waits = new Histogram[o.threads];
        long nanos = timed(o.threads, t -> {
            waits[t] = new Histogram(MAX_RECORDED_WAIT_NANOS, 2);
            Runnable section = () -> {
                waited[t] = System.nanoTime() - asked[t];
                Blackhole.consumeCPU(tokens);
                if (yieldInside) {
                    Thread.yield();
                }
            };
            return () -> {
                long mine = 0;
                while (budget.getAndDecrement() > 0) {
                    asked[t] = System.nanoTime();
                    guard.run(section);
                    waits[t].recordValue(Math.min(waited[t], MAX_RECORDED_WAIT_NANOS));
                    mine++;
                }
                shares[t] = mine;
            };
        });
        if (Arrays.stream(shares).sum() != o.actions) {
            throw new IllegalStateException(
                    lock + " ran " + Arrays.stream(shares).sum() + " sections of " + o.actions);
        }
        Histogram all = new Histogram(MAX_RECORDED_WAIT_NANOS, 2);
        for (Histogram h : waits) {
            all.add(h);
        }
        return new Round(nanos, shares, modeSwitches(guard), all.getValueAtPercentile(99), all.getMaxValue());
    }

    /**
     * Starts {@code threads} virtual threads, each running {@code work.apply(t)} once all of them
     * are ready; the nanoseconds from that start until the last one ended.
     */
    private static long timed(int threads, IntFunction<Runnable> work) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            Runnable body = work.apply(t);
            Thread.ofVirtual().start(() -> {
                try {
                    ready.countDown();
                    go.await();
                    body.run();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            });
        }
        ready.await();
        long start = System.nanoTime();
        go.countDown();
        done.await();
        return System.nanoTime() - start;
    }

    private static long modeSwitches(Guard guard) {
        return guard instanceof NumaMonitorLock monitor ? monitor.modeSwitches() : 0L;
    }

    /** Whether {@code lock} names a type with modes, whose switches a round the table shows. */
    private static boolean hasModes(String lock) {
        return Arrays.stream(LockType.values())
                .anyMatch(type -> type.hasModes() && type.name().equals(lock));
    }

    /** The lock's throughput over {@code reference}'s, round by round. */
    static Spread ratio(Result result, String lock, String reference) {
        List<Round> mine = result.rounds().get(lock);
        List<Round> theirs = result.rounds().get(reference);
        if (mine == null || theirs == null) {
            return Spread.NONE;
        }
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < mine.size(); i++) {
            ratios.add(theirs.get(i).nanos() / (double) mine.get(i).nanos());
        }
        return Spread.ofDoubles(ratios);
    }

    /** The table: one line per lock, with the command's options, the machine and the load before and after. */
    static String markdown(Result result, String loadBefore, String loadAfter) {
        Options o = result.options();
        boolean hot = o.task.equals("hot");
        StringBuilder md = new StringBuilder();
        md.append("### ").append(o.describe()).append("\n\n");
        md.append(String.format(
                Locale.ROOT,
                "%d rounds (after %d warm-up rounds), every lock once a round in rotated order, one JVM;"
                        + " CPU %s, %d CPUs; load %s before, %s after.%n%n",
                o.rounds,
                o.warmupRounds,
                MachineDescription.describe().get("cpuModel"),
                Runtime.getRuntime().availableProcessors(),
                loadBefore.trim(),
                loadAfter.trim()));
        md.append("| lock | round, ms | over ");
        md.append(String.join(" | over ", RegimeMatrix.REFERENCES));
        md.append(hot ? " | Jain | wait p99 µs | wait max ms |" : " |");
        md.append(" mode switches a round |\n|---|---:|");
        md.append("---|".repeat(RegimeMatrix.REFERENCES.size()));
        md.append(hot ? "---:|---:|---:|---:|\n" : "---:|\n");
        for (Map.Entry<String, List<Round>> e : result.rounds().entrySet()) {
            String lock = e.getKey();
            List<Round> rounds = e.getValue();
            md.append("| ").append(lock).append(" | ");
            md.append(Spread.ofDoubles(rounds.stream().map(r -> r.nanos() / 1e6).toList())
                    .text("%.0f"));
            for (String reference : RegimeMatrix.REFERENCES) {
                Spread ratio = ratio(result, lock, reference);
                md.append(" | ");
                if (lock.equals(reference)) {
                    md.append("reference");
                } else if (ratio.present()) {
                    md.append(ratio.text("%.2f")).append(' ').append(Verdict.of(ratio));
                } else {
                    md.append("n/a");
                }
            }
            if (hot) {
                md.append(" | ")
                        .append(Spread.ofDoubles(rounds.stream()
                                        .map(r -> JainIndex.of(r.shares()))
                                        .toList())
                                .text("%.2f"));
                md.append(" | ")
                        .append(Spread.ofDoubles(rounds.stream()
                                        .map(r -> r.waitP99Nanos() / 1e3)
                                        .toList())
                                .text("%.1f"));
                md.append(" | ")
                        .append(Spread.ofDoubles(rounds.stream()
                                        .map(r -> r.waitMaxNanos() / 1e6)
                                        .toList())
                                .text("%.2f"));
            }
            long switches = rounds.stream().mapToLong(Round::modeSwitches).sum();
            md.append(" | ")
                    .append(hasModes(lock) ? String.format(Locale.ROOT, "%.1f", switches / (double) rounds.size()) : "")
                    .append(" |\n");
        }
        return md.append('\n').toString();
    }
}
