package dev.wordstats.benchmarks.runner;

import dev.wordstats.comparison.Spread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The figures of an interleaved comparison, from its runs: per case (a bench with one set of
 * parameters), per lock, the throughput and the ratio to the reference lock taken within each repeat,
 * as a median with its range; and the serial floor's bound.
 *
 * <p>The serial floor: the reference lock run by one thread. Critical sections exclude each other,
 * so no lock can run them faster than one thread runs them back to back; and no lock can do the
 * whole work faster than the carriers share it out. So per repeat the best any lock could reach is
 * {@code min(floorCs, carriers x floorAll)} actions a second, where {@code floorAll} is the
 * one-thread run of the whole action and {@code floorCs} the one without the outside work (the same
 * run when there is none). Its ratio to the reference is the bound: the most any lock could gain
 * over the reference on this machine, up to the cost of an uncontended lock and unlock.
 */
final class ComparisonFigures {

    /** What a run measured. */
    enum Kind {
        /** One lock with the bench's threads. */
        LOCK,
        /** The reference lock with one thread, the whole action. */
        FLOOR_ALL,
        /** The reference lock with one thread, no outside work (only when the bench has some). */
        FLOOR_CS
    }

    /**
     * How a lock compares with the reference, from its throughput ratios to it (> 1: faster): a
     * difference only where every repeat agrees on its side of 1.0, else no measurable difference.
     */
    enum Verdict {
        REFERENCE("reference"),
        FASTER("faster"),
        SLOWER("slower"),
        NO_MEASURABLE_DIFFERENCE("no measurable difference"),
        NOT_MEASURED("not measured");

        private final String text;

        Verdict(String text) {
            this.text = text;
        }

        static Verdict of(Spread ratio) {
            if (!ratio.present()) {
                return NOT_MEASURED;
            }
            if (ratio.min() > 1.0) {
                return FASTER;
            }
            if (ratio.max() < 1.0) {
                return SLOWER;
            }
            return NO_MEASURABLE_DIFFERENCE;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * One JMH result of the comparison.
     *
     * @param repeat 1-based repeat
     * @param position 0-based place of the run in its repeat's order
     * @param kind what it measured
     * @param row the result
     */
    record Sample(int repeat, int position, Kind kind, ResultRow row) {}

    /**
     * One lock in one case.
     *
     * @param lock the lock type
     * @param throughput units a second (the row's unit)
     * @param ratio throughput over the reference's in the same repeat (> 1: faster)
     * @param verdict what the ratio's range says
     * @param fairness Jain's index over the threads
     * @param crossNodePct cross-node handoffs, %
     * @param waitMaxMs the longest wait of a round (mean over the fork's rounds), ms
     * @param waitMaxRatio the longest wait over the reference's in the same repeat (< 1: shorter)
     * @param waitP99Us the 99th-percentile wait (mean over the rounds), µs
     * @param waitMaxQuietMs the longest wait over the fork's quiet rounds (median; see
     *     {@link ResultRows#QUIET_WAITING_PCT}), ms
     * @param quietRounds how many rounds were quiet, over every repeat
     * @param carrierBusyCpus CPUs' worth of time the carriers ran during a round (mean over the rounds)
     * @param carrierWaitPct percent of the carriers' time spent runnable but not on a CPU, preempted or
     *     just woken (mean over the rounds): the machine's share in a slow round or a long wait
     */
    record LockFigures(
            String lock,
            Spread throughput,
            Spread ratio,
            Verdict verdict,
            Spread fairness,
            Spread crossNodePct,
            Spread waitMaxMs,
            Spread waitMaxRatio,
            Spread waitP99Us,
            Spread waitMaxQuietMs,
            int quietRounds,
            Spread carrierBusyCpus,
            Spread carrierWaitPct) {

        /**
         * How the longest wait compares with the reference's, repeat by repeat: "shorter" or
         * "longer" only when every repeat agrees, else "no measurable difference"; empty when waits
         * were not timed.
         */
        String waitVerdict() {
            if (verdict == Verdict.REFERENCE) {
                return Verdict.REFERENCE.toString();
            }
            if (!waitMaxRatio.present()) {
                return "";
            }
            if (waitMaxRatio.max() < 1.0) {
                return "shorter";
            }
            if (waitMaxRatio.min() > 1.0) {
                return "longer";
            }
            return Verdict.NO_MEASURABLE_DIFFERENCE.toString();
        }
    }

    /**
     * One case: a bench with one set of parameters (a config's comma-separated values make several).
     *
     * @param bench the bench's name
     * @param params its parameters apart from the lock, the threads and the outside work
     * @param unit what the throughput counts
     * @param locks every lock, in the order first run
     * @param floorThroughput the best any lock could reach per repeat (see the class comment), or empty
     * @param bound floorThroughput over the reference's throughput, or empty
     */
    record CaseFigures(
            String bench,
            Map<String, String> params,
            String unit,
            List<LockFigures> locks,
            Spread floorThroughput,
            Spread bound) {}

    /** Parameters a floor run changes: not part of a case's identity. */
    private static final Set<String> FLOOR_PARAMS = Set.of("threads", "beforeCpuTokens", "yieldsBefore");

    private ComparisonFigures() {}

    static List<CaseFigures> of(List<Sample> samples, String reference, int carriers) {
        Map<String, List<Sample>> byCase = new LinkedHashMap<>();
        for (Sample sample : samples) {
            byCase.computeIfAbsent(caseKey(sample.row()), k -> new ArrayList<>())
                    .add(sample);
        }
        List<CaseFigures> cases = new ArrayList<>();
        for (List<Sample> group : byCase.values()) {
            cases.add(figuresOf(group, reference, carriers));
        }
        return cases;
    }

    /** The parameters that identify a case: the row's, less those a floor run changes. */
    static Map<String, String> caseParams(ResultRow row) {
        Map<String, String> params = new TreeMap<>(row.params());
        params.keySet().removeAll(FLOOR_PARAMS);
        return params;
    }

    /** What identifies a case: the bench, the benchmark method and {@link #caseParams}. */
    static String caseKey(ResultRow row) {
        return row.bench() + '|' + row.benchmark() + '|' + caseParams(row);
    }

    private static CaseFigures figuresOf(List<Sample> group, String reference, int carriers) {
        Map<String, Map<Integer, ResultRow>> byLock = new LinkedHashMap<>();
        Map<Integer, Double> floorAll = new TreeMap<>();
        Map<Integer, Double> floorCs = new TreeMap<>();
        for (Sample s : group) {
            if (s.kind() == Kind.LOCK) {
                byLock.computeIfAbsent(s.row().lock(), k -> new TreeMap<>()).put(s.repeat(), s.row());
            } else {
                (s.kind() == Kind.FLOOR_ALL ? floorAll : floorCs)
                        .put(s.repeat(), s.row().throughput());
            }
        }
        Map<Integer, ResultRow> ref = byLock.getOrDefault(reference, Map.of());
        List<LockFigures> locks = new ArrayList<>();
        for (Map.Entry<String, Map<Integer, ResultRow>> entry : byLock.entrySet()) {
            List<Double> throughput = new ArrayList<>();
            List<Double> ratio = new ArrayList<>();
            List<Double> fairness = new ArrayList<>();
            List<Double> crossNode = new ArrayList<>();
            List<Double> waitMax = new ArrayList<>();
            List<Double> waitMaxRatio = new ArrayList<>();
            List<Double> waitP99 = new ArrayList<>();
            List<Double> waitMaxQuiet = new ArrayList<>();
            int[] quietRounds = {0};
            List<Double> busy = new ArrayList<>();
            List<Double> preempted = new ArrayList<>();
            entry.getValue().forEach((repeat, row) -> {
                throughput.add(row.throughput());
                ResultRow against = ref.get(repeat);
                if (against != null) {
                    ratio.add(row.throughput() / against.throughput());
                }
                fairness.add(secondary(row, "fairness", 1));
                crossNode.add(secondary(row, "crossNodePct", 1));
                waitMax.add(secondary(row, "waitMaxUs", 1e-3));
                if (against != null) {
                    waitMaxRatio.add(secondary(row, "waitMaxUs", 1) / secondary(against, "waitMaxUs", 1));
                }
                waitP99.add(secondary(row, "waitP99Us", 1));
                waitMaxQuiet.add(secondary(row, "waitMaxUsQuiet", 1e-3));
                quietRounds[0] +=
                        row.secondary().getOrDefault("quietRounds", 0.0).intValue();
                busy.add(secondary(row, "carrierBusyCpus", 1));
                preempted.add(secondary(row, "carrierWaitPct", 1));
            });
            Spread ratios = Spread.ofDoubles(ratio);
            locks.add(new LockFigures(
                    entry.getKey(),
                    Spread.ofDoubles(throughput),
                    ratios,
                    entry.getKey().equals(reference) ? Verdict.REFERENCE : Verdict.of(ratios),
                    Spread.ofDoubles(fairness),
                    Spread.ofDoubles(crossNode),
                    Spread.ofDoubles(waitMax),
                    Spread.ofDoubles(waitMaxRatio),
                    Spread.ofDoubles(waitP99),
                    Spread.ofDoubles(waitMaxQuiet),
                    quietRounds[0],
                    Spread.ofDoubles(busy),
                    Spread.ofDoubles(preempted)));
        }
        List<Double> best = new ArrayList<>();
        List<Double> bound = new ArrayList<>();
        floorAll.forEach((repeat, all) -> {
            double cs = floorCs.getOrDefault(repeat, all);
            double most = Math.min(cs, carriers * all);
            best.add(most);
            ResultRow against = ref.get(repeat);
            if (against != null) {
                bound.add(most / against.throughput());
            }
        });
        ResultRow any = group.getFirst().row();
        return new CaseFigures(
                any.bench(), caseParams(any), any.unit(), locks, Spread.ofDoubles(best), Spread.ofDoubles(bound));
    }

    /** A secondary figure times {@code scale}; NaN when the run did not measure it (0 waits: waits not timed). */
    private static double secondary(ResultRow row, String name, double scale) {
        Double value = row.secondary().get(name);
        if (value == null || (value == 0.0 && name.startsWith("wait"))) {
            return Double.NaN;
        }
        return value * scale;
    }
}
