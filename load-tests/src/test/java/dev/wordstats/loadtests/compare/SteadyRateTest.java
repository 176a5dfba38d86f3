package dev.wordstats.loadtests.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SteadyRateTest {

    private static final String RULE = "=".repeat(120);

    /** One progress report as Gatling 3.15 prints it, with the nothing-lost scenario beside the load. */
    private static List<String> report(String elapsed, String requests, int loadActive, int checkActive) {
        return List.of(
                RULE,
                "2026-11-28 03:50:51 GMT" + " ".repeat(70) + elapsed + " elapsed",
                "---- Requests " + "-".repeat(70) + "|---Total---|-----OK----|----KO----",
                "> Global" + " ".repeat(77) + "|" + String.format("%10s", requests) + " |"
                        + String.format("%10s", requests) + " |         0",
                "",
                "---- nothing lost " + "-".repeat(60),
                "[" + " ".repeat(60) + "]     0%",
                "          waiting:         1 / active:" + String.format("%10d", checkActive) + "  / done:         0",
                "---- high contention writers " + "-".repeat(60),
                "[" + "|".repeat(60) + "]     0%",
                "          waiting:         0 / active:" + String.format("%10d", loadActive) + "  / done:         0",
                RULE,
                "",
                "");
    }

    private static SteadyRate read(List<List<String>> reports) {
        SteadyRate rate = new SteadyRate();
        List<String> lines =
                new ArrayList<>(List.of("Simulation dev.wordstats.loadtests.HighContention started...", ""));
        reports.forEach(lines::addAll);
        lines.add("> request count                                      |    106,532 |    106,532 |         0");
        lines.forEach(rate::accept);
        return rate;
    }

    @Test
    void theSecondHalfRunsFromTheMiddleToTheLastReportWithUsersActive() {
        SteadyRate rate = read(List.of(
                report("5s", "4,544", 64, 0),
                report("10s", "23,490", 64, 0),
                report("15s", "65,793", 64, 0),
                report("20s", "105,042", 64, 0),
                report("21s", "106,532", 0, 0)));

        assertThat(rate.points()).hasSize(5);
        assertThat(rate.points().get(1)).isEqualTo(new SteadyRate.Point(10, 23_490, 64));
        // from 10 s to 20 s; the 21 s report, after the load, is left out
        assertThat(rate.secondHalf().getAsDouble()).isCloseTo((105_042 - 23_490) / 10.0, within(1e-9));
    }

    @Test
    void aLongerRunTakesTheFirstReportAtOrPastHalfTheTime() {
        SteadyRate rate = read(List.of(
                report("5s", "100", 64, 0),
                report("10s", "1,000", 64, 0),
                report("15s", "2,000", 64, 0),
                report("20s", "3,000", 64, 0),
                report("25s", "4,000", 64, 0),
                report("30s", "5,500", 64, 0),
                report("35s", "7,000", 64, 0),
                report("36s", "7,001", 0, 1)));

        // the end at 35 s, its half 17.5 s: from the 20 s report
        assertThat(rate.secondHalf().getAsDouble()).isCloseTo((7_000 - 3_000) / 15.0, within(1e-9));
    }

    @Test
    void aRunTooShortForFiveSecondsOfSecondHalfHasNoFigure() {
        assertThat(read(List.of(report("5s", "100", 64, 0), report("6s", "120", 0, 0)))
                        .secondHalf())
                .isEmpty();
        assertThat(read(List.of()).secondHalf()).isEmpty();
    }

    @Test
    void elapsedTimesInMinutesAndHoursAreRead() {
        assertThat(SteadyRate.seconds("5s")).isEqualTo(5);
        assertThat(SteadyRate.seconds("1m 5s")).isEqualTo(65);
        assertThat(SteadyRate.seconds("1h 2m 3s")).isEqualTo(3723);
        assertThatThrownBy(() -> SteadyRate.seconds("soon")).isInstanceOf(IllegalArgumentException.class);
    }
}
