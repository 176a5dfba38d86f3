package dev.wordstats.loadtests;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The words a simulation got a 2xx for, counted per word and in total: what the service must hold
 * once the load is over.
 */
final class WordTally {

    /** A word the corpus never produces (no 'q' in its syllables): its count must stay 0. */
    static final String UNSENT_WORD = "qqqunsent";

    private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final LongAdder total = new LongAdder();
    private final LongAdder requests = new LongAdder();

    void add(Collection<String> words) {
        for (String word : words) {
            counts.computeIfAbsent(word, w -> new LongAdder()).increment();
        }
        total.add(words.size());
        requests.increment();
    }

    long total() {
        return total.sum();
    }

    long requests() {
        return requests.sum();
    }

    long count(String word) {
        LongAdder count = counts.get(word);
        return count == null ? 0L : count.sum();
    }

    int distinct() {
        return counts.size();
    }

    /**
     * Words to check one by one: the {@code n/2} most frequent, {@code n/2} others drawn with the
     * seed, and one never sent.
     */
    List<String> sample(long seed, int n) {
        List<Map.Entry<String, Long>> all = new ArrayList<>();
        counts.forEach((word, count) -> all.add(Map.entry(word, count.sum())));
        all.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()));
        List<String> sample = new ArrayList<>();
        for (int i = 0; i < Math.min(n / 2, all.size()); i++) {
            sample.add(all.get(i).getKey());
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < n - n / 2 && all.size() > sample.size(); i++) {
            String word = all.get(random.nextInt(all.size())).getKey();
            if (!sample.contains(word)) {
                sample.add(word);
            }
        }
        sample.add(UNSENT_WORD);
        return sample;
    }
}
