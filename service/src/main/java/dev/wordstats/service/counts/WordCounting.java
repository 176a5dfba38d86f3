package dev.wordstats.service.counts;

import dev.wordstats.numa.counts.StripedCounts.Reservation;
import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.numa.NumaRuntime;
import dev.wordstats.service.text.Tokenizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Counts the words of a request: validates all of it first (every word within the length limit),
 * then adds it to the {@link WordStore}, so a rejected request changes nothing.
 *
 * <p>A batch is worked through by {@code wordstats.batch.parallelism} virtual threads that pull the
 * next line index from a shared {@link AtomicInteger} cursor: first every line is tokenized, then
 * (when no word was too long) every line's words are added to the store, one
 * {@link WordStore#addAll} per line, so the lines meet on the stripe locks concurrently, the batch
 * having first reserved a slot of the distinct-word cap for every word of every line
 * ({@link WordStore#reserve}), so lines racing other requests cannot pass the cap. When those slots
 * are not free, its lines are instead merged and added in one all-or-nothing step, which reserves
 * only the words new to the store, so a batch refused by the cap (409) adds nothing either.
 */
@Component
public class WordCounting {

    private final Tokenizer tokenizer;
    private final WordStore store;
    private final int parallelism;
    private final ThreadFactory workerThreads;

    /**
     * The counting Spring builds: batch workers are started on the node of the request's thread
     * (in per-node mode, that node's scheduler, so a request and its workers share one node).
     */
    @Autowired
    public WordCounting(Tokenizer tokenizer, WordStore store, WordstatsProperties properties, NumaRuntime numa) {
        this(tokenizer, store, properties, numa.schedulers().currentNodeFactory("batch-node"));
    }

    /** Counting whose batch workers are plain virtual threads (the default scheduler). */
    public WordCounting(Tokenizer tokenizer, WordStore store, WordstatsProperties properties) {
        this(tokenizer, store, properties, Thread.ofVirtual().name("batch-", 0).factory());
    }

    private WordCounting(
            Tokenizer tokenizer, WordStore store, WordstatsProperties properties, ThreadFactory workerThreads) {
        this.tokenizer = tokenizer;
        this.store = store;
        this.parallelism = properties.batch().parallelism();
        this.workerThreads = workerThreads;
    }

    /**
     * Counts the words of one text.
     *
     * @return the number of words counted
     * @throws dev.wordstats.service.text.WordTooLongException nothing counted
     * @throws StoreFullException nothing counted
     */
    public long countText(String text) {
        Map<String, Long> deltas = new HashMap<>();
        long words = tokenizer.countInto(text, deltas);
        store.addAll(deltas, words);
        return words;
    }

    /** The outcome of a batch. */
    public record BatchResult(int lines, long words, long elapsedMillis) {}

    /**
     * Counts the words of every line, all or nothing.
     *
     * @throws dev.wordstats.service.text.WordTooLongException nothing counted
     * @throws StoreFullException nothing counted
     */
    public BatchResult countBatch(List<String> lines) {
        long start = System.nanoTime();
        int n = lines.size();
        @SuppressWarnings("unchecked")
        Map<String, Long>[] perLine = new Map[n];
        long[] wordsPerLine = new long[n];
        int workers = Math.max(1, Math.min(parallelism, n));

        // Phase 1: tokenize every line; the first too-long word stops all workers.
        AtomicInteger tokenizeCursor = new AtomicInteger();
        AtomicBoolean failed = new AtomicBoolean();
        runOnWorkers(workers, () -> {
            int i;
            while (!failed.get() && (i = tokenizeCursor.getAndIncrement()) < n) {
                Map<String, Long> deltas = new HashMap<>();
                try {
                    wordsPerLine[i] = tokenizer.countInto(lines.get(i), deltas);
                } catch (RuntimeException e) {
                    failed.set(true);
                    throw e;
                }
                perLine[i] = deltas;
            }
        });

        long words = 0;
        long newWordsAtMost = 0;
        for (int i = 0; i < n; i++) {
            words += wordsPerLine[i];
            newWordsAtMost += perLine[i].size();
        }

        Reservation reservation = store.reserve(newWordsAtMost);
        if (reservation != null) {
            // Phase 2: each line into the store, lines pulled from a fresh cursor; every new word
            // takes a slot of the batch's reservation, which holds one for each word of each line.
            AtomicInteger addCursor = new AtomicInteger();
            try (reservation) {
                runOnWorkers(workers, () -> {
                    int i;
                    while ((i = addCursor.getAndIncrement()) < n) {
                        store.addAll(perLine[i], wordsPerLine[i], reservation);
                    }
                });
            }
        } else {
            // Near the cap: one all-or-nothing step.
            Map<String, Long> merged = new HashMap<>();
            for (Map<String, Long> deltas : perLine) {
                deltas.forEach((word, count) -> merged.merge(word, count, Long::sum));
            }
            store.addAll(merged, words);
        }
        return new BatchResult(n, words, (System.nanoTime() - start) / 1_000_000);
    }

    /** Runs {@code task} on {@code workers} virtual threads (inline for one) and rethrows the first failure. */
    private void runOnWorkers(int workers, Runnable task) {
        if (workers == 1) {
            task.run();
            return;
        }
        List<Future<?>> futures = new ArrayList<>(workers);
        try (ExecutorService executor = Executors.newThreadPerTaskExecutor(workerThreads)) {
            for (int w = 0; w < workers; w++) {
                futures.add(executor.submit(task));
            }
        }
        RuntimeException first = null;
        for (Future<?> future : futures) {
            try {
                future.get();
            } catch (ExecutionException e) {
                if (first == null) {
                    first = e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while counting a batch", e);
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
