package dev.wordstats.loadtests.compare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * {@code runs.csv}: one line per run (every repeat of every lock), in the order they ran, with every
 * figure the report summarizes, so anyone can recompute the medians and ranges or chart them
 * differently. Empty cells are figures the run did not report.
 */
final class RunsCsv {

    static final List<String> HEADER = List.of(
            "repeat",
            "position",
            "lock",
            "passed",
            "requests",
            "failedRequests",
            "requestsPerSecond",
            "steadyRequestsPerSecond",
            "httpP50Millis",
            "httpP99Millis",
            "httpP999Millis",
            "serviceLookupRequests",
            "serviceTopRequests",
            "serviceWriteRequests",
            "serviceReadRequestsPerSecond",
            "serviceWriteRequestsPerSecond",
            "serviceLookupP99Millis",
            "serviceTopP99Millis",
            "serviceReadP99Millis",
            "serviceWriteP99Millis",
            "lockWaitP99Seconds",
            "lockWaitMaxSeconds",
            "lockWaitMaxBucketSeconds",
            "readLockWaitP99Seconds",
            "readLockWaitMaxSeconds",
            "writeLockWaitP99Seconds",
            "writeLockWaitMaxSeconds",
            "slowPathShare",
            "crossNodeShare",
            "crossNodeHandoffs",
            "sameNodeHandoffs",
            "fastAcquisitions",
            "slowAcquisitions",
            "modeSwitches",
            "serviceCpuSeconds",
            "peakServiceFds",
            "gatlingReport");

    private RunsCsv() {}

    /** The CSV format: RFC 4180 with the header, lines ended by a newline alone. */
    private static final CSVFormat FORMAT = CSVFormat.RFC4180
            .builder()
            .setHeader(HEADER.toArray(String[]::new))
            .setRecordSeparator('\n')
            .get();

    static String text(List<RunRecord> runs, Path reportDir) {
        StringBuilder csv = new StringBuilder();
        try (CSVPrinter printer = new CSVPrinter(csv, FORMAT)) {
            for (RunRecord r : runs) {
                printer.printRecord(cells(r, reportDir));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringBuilder does not throw
        }
        return csv.toString();
    }

    private static List<String> cells(RunRecord r, Path reportDir) {
        GatlingRun.Result g = r.gatling();
        LockMetrics m = r.metrics();
        List<String> cells = new ArrayList<>();
        cells.add(Integer.toString(r.repeat()));
        cells.add(Integer.toString(r.position()));
        cells.add(r.lock());
        cells.add(Boolean.toString(r.passed()));
        cells.add(num(g.requests()));
        cells.add(num(g.failed()));
        cells.add(num(g.requestsPerSecond()));
        cells.add(num(g.steadyRequestsPerSecond()));
        cells.add(num(g.p50Millis()));
        cells.add(num(g.p99Millis()));
        cells.add(num(g.p999Millis()));
        ServerRequests s = r.server();
        cells.add(num(s.lookups().requests()));
        cells.add(num(s.top().requests()));
        cells.add(num(s.writes().requests()));
        cells.add(num(s.reads().perSecond(r.measuredSeconds())));
        cells.add(num(s.writes().perSecond(r.measuredSeconds())));
        cells.add(num(ComparisonReport.scale(s.lookups().p99Seconds(), 1e3)));
        cells.add(num(ComparisonReport.scale(s.top().p99Seconds(), 1e3)));
        cells.add(num(ComparisonReport.scale(s.reads().p99Seconds(), 1e3)));
        cells.add(num(ComparisonReport.scale(s.writes().p99Seconds(), 1e3)));
        cells.add(num(m.waitP99Seconds()));
        cells.add(num(m.waitMaxSeconds()));
        cells.add(num(m.waitMaxBucketSeconds()));
        cells.add(num(m.readWaits().p99Seconds()));
        cells.add(num(m.readWaits().maxSeconds()));
        cells.add(num(m.writeWaits().p99Seconds()));
        cells.add(num(m.writeWaits().maxSeconds()));
        cells.add(num(m.slowPathShare()));
        cells.add(num(m.crossNodeShare()));
        cells.add(num(m.crossNodeHandoffs()));
        cells.add(num(m.sameNodeHandoffs()));
        cells.add(num(m.fastAcquisitions()));
        cells.add(num(m.slowAcquisitions()));
        cells.add(num(m.modeSwitches()));
        cells.add(num(m.serviceCpuSeconds()));
        cells.add(r.peakServiceFds() < 0 ? "" : Long.toString(r.peakServiceFds()));
        cells.add(r.gatlingReport()
                .map(p -> reportDir.relativize(p).toString().replace('\\', '/'))
                .orElse(""));
        return cells;
    }

    static Path write(List<RunRecord> runs, Path reportDir) throws IOException {
        Path file = reportDir.resolve("runs.csv");
        Files.createDirectories(reportDir);
        Files.writeString(file, text(runs, reportDir), StandardCharsets.UTF_8);
        return file;
    }

    private static String num(OptionalDouble v) {
        return v.isPresent() && Double.isFinite(v.getAsDouble())
                ? String.format(Locale.ROOT, "%.6g", v.getAsDouble())
                : "";
    }
}
