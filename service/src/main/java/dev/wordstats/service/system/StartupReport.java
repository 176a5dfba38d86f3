package dev.wordstats.service.system;

import dev.wordstats.service.WordstatsProperties;
import dev.wordstats.service.counts.WordStore;
import dev.wordstats.service.numa.NumaRuntime;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/** Logs the one line that says how this instance runs: lock, stripes, nodes, pinning, threads. */
@Component
class StartupReport {

    private static final Logger log = LoggerFactory.getLogger(StartupReport.class);

    private final WordStore store;
    private final NumaRuntime numa;
    private final WordstatsProperties properties;

    StartupReport(WordStore store, NumaRuntime numa, WordstatsProperties properties) {
        this.store = store;
        this.numa = numa;
        this.properties = properties;
    }

    @EventListener(ApplicationReadyEvent.class)
    void report() {
        log.info(line());
    }

    String line() {
        return "wordstats ready: lock=" + store.lockType()
                + (store.lockType().readsMonitorSettings()
                        ? " handoff-after=" + millisOrNanos(properties.lock().handoffAfter())
                        : "")
                + (store.lockType().readsQueueSettings()
                        ? " reserve-after=" + millisOrNanos(properties.lock().reserveAfter())
                        : "")
                + " stripes=" + store.stripes()
                + " timing="
                + (properties.lock().timing() ? "on (1 in " + properties.lock().timingSampleEvery() + ")" : "off")
                + " | nodes=" + numa.nodesSummary()
                + " | carrier-local node cache=" + (numa.carrierLocal() ? "on" : "off (JVM flags missing)")
                + " | carrier pinning=" + numa.pinningSummary()
                + " | request threads=" + numa.threadKind()
                + " | scheduler=" + numa.schedulerSummary()
                + " | virtual-thread unblocker=" + numa.unblockerSummary();
    }

    private static String millisOrNanos(Duration d) {
        return d.toNanos() % 1_000_000 == 0 ? d.toMillis() + "ms" : d.toNanos() + "ns";
    }
}
