package dev.wordstats.loadtests.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.wordstats.comparison.RunOrder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComparisonReportTest {

    @TempDir
    Path dir;

    private RunRecord run(int repeat, int position, String lock, double rps, int exit) throws IOException {
        return run(repeat, position, lock, rps, 250e-6, exit);
    }

    /** A run of 10 s at {@code rps} whose service used {@code cpuPerRequest} seconds of CPU a request. */
    private RunRecord run(int repeat, int position, String lock, double rps, double cpuPerRequest, int exit)
            throws IOException {
        return run(repeat, position, lock, rps, cpuPerRequest, exit, ServerRequests.none());
    }

    /** As above, with the service's figures by kind of request. */
    private RunRecord run(
            int repeat, int position, String lock, double rps, double cpuPerRequest, int exit, ServerRequests server)
            throws IOException {
        Path report = dir.resolve("r" + repeat + "-" + lock).resolve("gatling/run-1/index.html");
        Files.createDirectories(report.getParent());
        Files.writeString(report, "<html></html>");
        GatlingRun.Result gatling = new GatlingRun.Result(
                exit,
                OptionalDouble.of(rps * 10),
                OptionalDouble.of(0),
                OptionalDouble.of(rps),
                OptionalDouble.of(rps * 1.5),
                OptionalDouble.of(5),
                OptionalDouble.of(50),
                OptionalDouble.of(80),
                dir.resolve("gatling.log"),
                Optional.of(report));
        LockMetrics metrics = new LockMetrics(
                OptionalDouble.of(2e-6),
                OptionalDouble.of(1e-7),
                OptionalDouble.of(3e-3),
                OptionalDouble.of(4.194304e-3),
                OptionalDouble.of(25),
                OptionalDouble.of(75),
                OptionalDouble.of(990),
                OptionalDouble.of(10),
                OptionalDouble.of(4),
                OptionalDouble.of(rps * 10 * cpuPerRequest),
                new LockMetrics.Waits(OptionalDouble.of(1e-6), OptionalDouble.of(2e-3)),
                new LockMetrics.Waits(OptionalDouble.of(3e-6), OptionalDouble.of(3e-3)));
        return new RunRecord(repeat, position, lock, gatling, metrics, server, 80, Optional.of(report));
    }

    private List<RunRecord> runs(double[] a, double[] b) throws IOException {
        List<RunRecord> runs = new ArrayList<>();
        for (int r = 0; r < a.length; r++) {
            List<String> order = RunOrder.of(List.of("A", "B"), r);
            for (int p = 0; p < 2; p++) {
                String lock = order.get(p);
                runs.add(run(r + 1, p + 1, lock, lock.equals("A") ? a[r] : b[r], 0));
            }
        }
        return runs;
    }

    @Test
    void theReportHasMediansRangesVerdictsChartsAndLinksToEveryGatlingReport() throws IOException {
        List<RunRecord> runs = runs(new double[] {1000, 1100, 1050}, new double[] {2000, 2100, 1900});

        Path report = ComparisonReport.write(dir, "# header\n", List.of("A", "B"), runs);

        String md = Files.readString(report);
        assertThat(md).contains("| A | 3/3 | 1050 (1000–1100) |");
        assertThat(md).contains("| B | 3/3 | 2000 (1900–2100) |");
        assertThat(md).contains("**requests/s** (higher is better): B > A");
        assertThat(md).contains("**HTTP p99 ms** (lower is better): " + Verdict.NO_DIFFERENCE);
        assertThat(md).contains("[A #1](r1-A/gatling/run-1/index.html)");
        assertThat(md).contains("[B #3](r3-B/gatling/run-1/index.html)");
        assertThat(md).contains("cross-node handoffs %").contains("25.0");
        assertThat(md).contains("![requests/s](throughput.png)");
        assertThat(dir.resolve("throughput.png")).isNotEmptyFile();
        assertThat(Files.size(dir.resolve("throughput.png"))).isGreaterThan(1000);
        assertThat(dir.resolve("runs.csv")).exists();
        assertThat(md).contains("| service CPU µs/request |").contains(" 250.0 (250.0–250.0) |");
        assertThat(md).contains("## Paired by repeat");
        // B over A, repeat by repeat: 2.00, 1.91, 1.81; three repeats cannot pass the sign test
        assertThat(md)
                .contains("| requests/s | B | 1.91 (1.81–2.00) | 3 of 3 | 0 | 0.250 | no measurable difference |");
    }

    /**
     * The service's figures of a run at {@code rps} over 10 s: 60% reads (50% lookups, 10% top lists) with
     * p99 {@code readP99} (lookups 0.8 of it, top lists 1.5 times), 40% writes with p99 20 ms.
     */
    private static ServerRequests server(double rps, double readP99) {
        double requests = rps * 10;
        return new ServerRequests(
                new ServerRequests.Kind(OptionalDouble.of(requests * 0.5), OptionalDouble.of(readP99 * 0.8)),
                new ServerRequests.Kind(OptionalDouble.of(requests * 0.1), OptionalDouble.of(readP99 * 1.5)),
                new ServerRequests.Kind(OptionalDouble.of(requests * 0.6), OptionalDouble.of(readP99)),
                new ServerRequests.Kind(OptionalDouble.of(requests * 0.4), OptionalDouble.of(0.02)));
    }

    /** A at {@code a} requests/s with reads' p99 2 ms, B at {@code b} with 1 ms, order rotated. */
    private List<RunRecord> runsWithReads(double[] a, double[] b) throws IOException {
        List<RunRecord> runs = new ArrayList<>();
        for (int r = 0; r < a.length; r++) {
            List<String> order = RunOrder.of(List.of("A", "B"), r);
            for (int p = 0; p < 2; p++) {
                String lock = order.get(p);
                boolean isA = lock.equals("A");
                double rps = isA ? a[r] : b[r];
                runs.add(run(r + 1, p + 1, lock, rps, 250e-6, 0, server(rps, isA ? 0.002 : 0.001)));
            }
        }
        return runs;
    }

    @Test
    void aLoadWithReadsHasReadsAndWritesApartInEveryTableAndChart() throws IOException {
        List<RunRecord> runs = runsWithReads(new double[] {1000, 1100, 1050}, new double[] {2000, 2100, 1900});

        Path report = ComparisonReport.write(dir, "# header\n", List.of("A", "B"), runs);

        String md = Files.readString(report);
        assertThat(md)
                .contains(" lock wait max bucket ms | slow-path share % | cross-node handoffs % |"
                        + " read requests/s (service) | write requests/s (service) | read p99 ms (service) |"
                        + " lookup p99 ms (service) | top list p99 ms (service) | write p99 ms (service) |"
                        + " read lock wait p99 µs (slow path) | read lock wait max ms |"
                        + " write lock wait p99 µs (slow path) | write lock wait max ms |\n");
        // A: reads 60% of 1000, 1100, 1050 requests/s, writes 40%; p99 of reads 2 ms, lookups 1.6, top lists 3
        assertThat(md)
                .contains(" 25.0 (25.0–25.0) | 630 (600–660) | 420 (400–440) | 2.00 (2.00–2.00) | 1.60 (1.60–1.60) |"
                        + " 3.00 (3.00–3.00) | 20.00 (20.00–20.00) | 1.00 (1.00–1.00) | 2.00 (2.00–2.00) |"
                        + " 3.00 (3.00–3.00) | 3.00 (3.00–3.00) |\n");
        assertThat(md).contains("| B | 3/3 | 2000 (1900–2100) |").contains(" 1200 (1140–1260) | 800 (760–840) |");
        assertThat(md).contains("**read requests/s (service)** (higher is better): B > A");
        assertThat(md).contains("**read p99 ms (service)** (lower is better): B > A");
        assertThat(md)
                .contains("| read requests/s (service) | B | 1.91 (1.81–2.00) | 3 of 3 | 0 | 0.250 |")
                .contains("| read p99 ms (service) | B | 0.50 (0.50–0.50) | 0 of 3 | 3 | 0.250 |")
                .contains("| write p99 ms (service) | B | 1.00 (1.00–1.00) | 0 of 3 | 0 | 1.000 |")
                .contains("| write lock wait max ms | B |")
                .contains("| read lock wait p99 µs (slow path) | B |");
        assertThat(md).contains(ComparisonReport.READ_WRITE_NOTE);
        assertThat(md).contains("![read p99 ms (service)](read-p99.png)");
        assertThat(dir.resolve("read-p99.png")).isNotEmptyFile();
        assertThat(dir.resolve("write-lock-wait-max.png")).isNotEmptyFile();
    }

    @Test
    void aLoadOfWritesKeepsItsColumns() throws IOException {
        List<RunRecord> runs = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            // the nothing-lost check's 8 lookups beside 10,000 posts: no load of reads
            ServerRequests server = new ServerRequests(
                    new ServerRequests.Kind(OptionalDouble.of(8), OptionalDouble.of(0.001)),
                    new ServerRequests.Kind(OptionalDouble.of(0), OptionalDouble.empty()),
                    new ServerRequests.Kind(OptionalDouble.of(8), OptionalDouble.of(0.001)),
                    new ServerRequests.Kind(OptionalDouble.of(10_000), OptionalDouble.of(0.02)));
            runs.add(run(r, 1, "A", 1000, 250e-6, 0, server));
            runs.add(run(r, 2, "B", 2000, 250e-6, 0, server));
        }

        Path report = ComparisonReport.write(dir, "# header\n", List.of("A", "B"), runs);

        String md = Files.readString(report);
        assertThat(md)
                .contains("| lock | runs passed | requests/s | requests/s, second half | HTTP p50 ms | HTTP p99 ms |"
                        + " HTTP p99.9 ms | service CPU µs/request | lock wait p99 µs (slow path) | lock wait max ms |"
                        + " lock wait max bucket ms | slow-path share % | cross-node handoffs % |\n");
        assertThat(md)
                .doesNotContain("(service)")
                .doesNotContain("read lock wait")
                .doesNotContain("write lock wait");
        assertThat(md).doesNotContain(ComparisonReport.READ_WRITE_NOTE);
        assertThat(dir.resolve("read-p99.png")).doesNotExist();
        assertThat(ComparisonReport.figures(runs)).isEqualTo(ComparisonReport.FIGURES);
        assertThat(ComparisonReport.pairedFigures(runs)).isEqualTo(ComparisonReport.PAIRED);
    }

    @Test
    void csvHasReadsAndWritesApart() throws IOException {
        List<RunRecord> runs = runsWithReads(new double[] {1000}, new double[] {2000});

        List<String> lines = RunsCsv.text(runs, dir).lines().toList();

        assertThat(lines.getFirst())
                .contains(",httpP999Millis,serviceLookupRequests,serviceTopRequests,serviceWriteRequests,"
                        + "serviceReadRequestsPerSecond,serviceWriteRequestsPerSecond,serviceLookupP99Millis,"
                        + "serviceTopP99Millis,serviceReadP99Millis,serviceWriteP99Millis,lockWaitP99Seconds,"
                        + "lockWaitMaxSeconds,lockWaitMaxBucketSeconds,readLockWaitP99Seconds,"
                        + "readLockWaitMaxSeconds,writeLockWaitP99Seconds,writeLockWaitMaxSeconds,slowPathShare,");
        assertThat(lines.get(1)).startsWith("1,1,A,true,");
        // A at 1000 requests/s over 10 s: 5000 lookups, 1000 top lists, 4000 writes; reads' p99 2 ms
        assertThat(lines.get(1))
                .contains(",80.0000,5000.00,1000.00,4000.00,600.000,400.000,1.60000,3.00000,2.00000,20.0000,")
                .contains(",1.00000e-06,0.00200000,3.00000e-06,0.00300000,");
        assertThat(lines.get(1).split(",", -1)).hasSize(RunsCsv.HEADER.size());
        // a run without the service's figures by kind leaves their cells empty
        assertThat(RunsCsv.text(List.of(run(1, 1, "A", 1000, 0)), dir)
                        .lines()
                        .toList()
                        .get(1))
                .contains(",80.0000,,,,,,,,,,2.00000e-06,");
    }

    @Test
    void pairedRatiosNameADifferenceOnlyWhereTheSignTestPasses() throws IOException {
        // B is 5% above A in every one of 6 repeats, while the host's speed doubles and halves between repeats:
        // the ranges overlap, the pairs do not
        double[] host = {1000, 2000, 1200, 1900, 1100, 1800};
        double[] b = new double[host.length];
        for (int i = 0; i < host.length; i++) {
            b[i] = host[i] * 1.05;
        }
        List<RunRecord> runs = runs(host, b);

        Path report = ComparisonReport.write(dir, "# header\n", List.of("A", "B"), runs);

        String md = Files.readString(report);
        assertThat(md).contains("**requests/s** (higher is better): " + Verdict.NO_DIFFERENCE);
        assertThat(md).contains("| requests/s | B | 1.05 (1.05–1.05) | 6 of 6 | 0 | 0.031 | better than A |");
    }

    @Test
    void theSignTestCountsTheRatiosOnEachSideOfOneAndLeavesOutTies() {
        assertThat(new PairedRatio("B", "A", List.of(1.1, 1.2, 1.3, 1.1, 1.2, 1.3)).signTestP())
                .isCloseTo(2.0 / 64, within(1e-12));
        assertThat(new PairedRatio("B", "A", List.of(1.1, 1.2, 1.3, 1.1, 1.2, 1.3, 1.1, 0.9)).signTestP())
                .isCloseTo(2.0 * 9 / 256, within(1e-12));
        assertThat(new PairedRatio("B", "A", List.of(1.1, 0.9, 1.1, 0.9)).signTestP())
                .isEqualTo(1.0);
        assertThat(new PairedRatio("B", "A", List.of(0.9, 0.8, 0.9, 0.8, 0.9, 0.8, 1.0)).signTestP())
                .isCloseTo(2.0 / 64, within(1e-12));
        assertThat(new PairedRatio("B", "A", List.of(0.9, 0.8, 0.9, 0.8, 0.9, 0.8)).verdict(true))
                .isEqualTo("worse than A");
        assertThat(new PairedRatio("B", "A", List.of(0.9, 0.8, 0.9, 0.8, 0.9, 0.8)).verdict(false))
                .isEqualTo("better than A");
        assertThat(new PairedRatio("B", "A", List.of(0.9, 0.8, 0.9, 0.8, 0.9)).verdict(true))
                .isEqualTo(Verdict.NO_DIFFERENCE);
        assertThat(new PairedRatio("B", "A", List.of()).verdict(true)).isEqualTo(Verdict.NO_DIFFERENCE);
    }

    @Test
    void pairsAreTakenWithinARepeatAndFailedRunsLeaveTheirRepeatOut() throws IOException {
        List<RunRecord> runs = new ArrayList<>();
        runs.add(run(1, 1, "A", 1000, 0));
        runs.add(run(1, 2, "B", 1100, 0));
        runs.add(run(2, 1, "B", 500, 0));
        runs.add(run(2, 2, "A", 1000, 1)); // failed: repeat 2 has no pair
        runs.add(run(3, 1, "A", 2000, 0));
        runs.add(run(3, 2, "B", 1000, 0));

        PairedRatio pair = PairedRatio.of("B", "A", runs, ComparisonReport.THROUGHPUT.value());

        assertThat(pair.ratios()).containsExactly(1.1, 0.5);
    }

    @Test
    void theServicesCpuPerRequestIsItsCpuTimeOverTheRequestsOfTheRun() throws IOException {
        RunRecord r = run(1, 1, "A", 1000, 180e-6, 0);

        assertThat(ComparisonReport.SERVICE_CPU.value().apply(r).getAsDouble()).isCloseTo(180.0, within(1e-9));
        assertThat(LockMetrics.none().serviceCpuPerRequest(OptionalDouble.of(10)))
                .isEmpty();
    }

    @Test
    void failedRunsAreListedButLeftOutOfTheFigures() throws IOException {
        List<RunRecord> runs = new ArrayList<>(runs(new double[] {1000, 1100}, new double[] {2000, 2100}));
        runs.add(run(3, 1, "A", 99_999, 1));

        Path report = ComparisonReport.write(dir, "# header\n", List.of("A", "B"), runs);

        String md = Files.readString(report);
        assertThat(md).contains("| A | 2/3 | 1050 (1000–1100) |");
        assertThat(md).contains("FAIL (exit 1)");
    }

    @Test
    void csvHasAHeaderAndOneLinePerRunInRunOrder() throws IOException {
        List<RunRecord> runs = runs(new double[] {1000, 1100}, new double[] {2000, 2100});

        List<String> lines = RunsCsv.text(runs, dir).lines().toList();

        assertThat(lines).hasSize(1 + runs.size());
        assertThat(lines.getFirst()).isEqualTo(String.join(",", RunsCsv.HEADER));
        assertThat(lines.get(1)).startsWith("1,1,A,true,10000.0,0.00000,1000.00,");
        assertThat(lines.get(3)).startsWith("2,1,B,true,");
        assertThat(lines.get(1)).endsWith(",80,r1-A/gatling/run-1/index.html");
        assertThat(lines.get(1).split(",", -1)).hasSize(RunsCsv.HEADER.size());
        assertThat(lines.get(1)).contains(",0.250000,"); // cross-node share 25 of 100
        // acquisitions, mode switches, then 10,000 x 250 µs CPU
        assertThat(lines.get(1)).contains(",990.000,10.0000,4.00000,2.50000,");
    }

    @Test
    void theTailsArePairedByRepeatToo() throws IOException {
        List<RunRecord> runs = runs(new double[] {1000, 1100}, new double[] {2000, 2100});

        String paired = ComparisonReport.pairedTable(List.of("A", "B"), runs);

        // every run has the same tails, so each ratio is 1: neither above nor below
        assertThat(paired).contains("| HTTP p99.9 ms | B | 1.00 (1.00–1.00) | 0 of 2 | 0 | 1.000 |");
        assertThat(paired).contains("| lock wait max ms | B |").contains("| lock wait p99 µs (slow path) | B |");
    }

    @Test
    void aCsvCellWithACommaIsQuoted() throws IOException {
        RunRecord plain = run(1, 1, "A", 1000, 0);
        Path odd = dir.resolve("a,b/index.html");
        RunRecord run = new RunRecord(
                1, 1, "A", plain.gatling(), plain.metrics(), plain.server(), 80, java.util.Optional.of(odd));

        String line = RunsCsv.text(List.of(run), dir).lines().toList().get(1);

        assertThat(line).endsWith(",80,\"a,b/index.html\"");
    }

    @Test
    void stripeCountsAreEachAComparisonAndNoneMeansTheServicesDefault() {
        assertThat(Compare.stripes("1, 4")).containsExactly(1, 4);
        assertThat(Compare.stripes("")).containsExactly(0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Compare.stripes("0"))
                .hasMessageContaining("at least 1");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Compare.stripes("one"))
                .hasMessageContaining("stripe counts like 1,4");
    }

    @Test
    void gatlingTracksTheTailPercentilesTheReportShows() {
        assertThat(GatlingRun.percentileProperties())
                .containsEntry("gatling.charting.indicators.percentile3", "99")
                .containsEntry("gatling.charting.indicators.percentile4", "99.9");
        assertThat(GatlingRun.percentileLine("99.9")).isEqualTo("response time 99.9th percentile (ms)");
    }

    @Test
    void anEarlierReportOfTheSameSimulationIsClearedAndOtherFilesStay() throws IOException {
        Files.createDirectories(dir.resolve("r3-FAIR_REENTRANT/gatling"));
        Files.writeString(dir.resolve("r3-FAIR_REENTRANT/gatling/index.html"), "old");
        Files.writeString(dir.resolve("report.md"), "old");
        Files.writeString(dir.resolve("runs.csv"), "old");
        Files.writeString(dir.resolve("throughput.png"), "old");
        Files.writeString(dir.resolve("notes.txt"), "mine");

        Compare.clearEarlierReport(dir);

        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("notes.txt");
        }
    }

    @Test
    void defaultLocksAreEveryLockType() {
        assertThat(Compare.allLockTypes())
                .containsExactlyElementsOf(java.util.Arrays.stream(dev.wordstats.numa.lock.LockType.values())
                        .map(Enum::name)
                        .toList());
    }
}
