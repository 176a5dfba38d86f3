package dev.wordstats.loadtests.compare;

import dev.wordstats.loadtests.CountingSimulation;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Requests per second over the second half of a Gatling run, read from the progress Gatling prints every
 * 5 s (the time elapsed, the requests so far, the active users). Gatling's own mean throughput covers the
 * whole run, including its start: on a 2-vCPU guest the last 10 s of a 20 s run served 1.8 to 6 times
 * as many requests a second as the first 10 (median 2.5, 82 runs), by a margin that varied from run to
 * run. The service is warmed up before the run, so the start is most likely the fresh Gatling JVM
 * compiling its own code on the CPUs the service needs.
 *
 * <p>The half is taken from the last report with users of the load still active (not counting the
 * nothing-lost check that follows the load) back to the first report at or past half its time; empty
 * when that spans under 5 s.
 */
final class SteadyRate {

    /** A progress report's first line: the wall clock, then the time elapsed ("5s", "1m 5s"). */
    static final Pattern ELAPSED = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\S+\\s+(.+?) elapsed$");

    private static final Pattern UNIT = Pattern.compile("(\\d+)([hms])");
    /** A scenario's users line of a progress report. */
    static final Pattern ACTIVE = Pattern.compile(".*active:\\s*([\\d,]+).*");

    private static final Pattern SCENARIO = Pattern.compile("^---- (.+?) -+$");
    private static final long MIN_SPAN_SECONDS = 5;

    /** One progress report: seconds since the start, requests so far, users active. */
    record Point(long seconds, long requests, long active) {}

    private final List<Point> points = new ArrayList<>();
    private long seconds = -1; // of the report being read, -1 between reports
    private long requests;
    private long active;
    private boolean load; // whether the scenario being read is the load (not the check after it)

    /** Reads one line of Gatling's console output. */
    void accept(String line) {
        String t = line.strip();
        Matcher m = ELAPSED.matcher(t);
        if (m.matches()) {
            seconds = seconds(m.group(1));
            requests = -1;
            active = 0;
            load = false;
            return;
        }
        if (seconds < 0) {
            return;
        }
        Matcher g = GatlingRun.STAT_LINE.matcher(t);
        if (g.matches() && requests < 0 && g.group(1).strip().equals("Global")) {
            requests = Long.parseLong(g.group(2).replace(",", ""));
        }
        Matcher sc = SCENARIO.matcher(t);
        if (sc.matches()) {
            String name = sc.group(1).strip();
            load = !name.equals(CountingSimulation.NOTHING_LOST_SCENARIO);
        }
        Matcher a = ACTIVE.matcher(t);
        if (a.matches() && load) {
            active += Long.parseLong(a.group(1).replace(",", ""));
        }
        if (t.startsWith("=====")) {
            if (requests >= 0) {
                points.add(new Point(seconds, requests, active));
            }
            seconds = -1;
        }
    }

    List<Point> points() {
        return List.copyOf(points);
    }

    /** Requests per second over the second half of the load; empty if the run was too short to tell. */
    OptionalDouble secondHalf() {
        Point end = null;
        for (Point p : points) {
            if (p.active() > 0) {
                end = p;
            }
        }
        if (end == null) {
            return OptionalDouble.empty();
        }
        for (Point p : points) {
            if (2 * p.seconds() >= end.seconds()) {
                long span = end.seconds() - p.seconds();
                return span < MIN_SPAN_SECONDS
                        ? OptionalDouble.empty()
                        : OptionalDouble.of((double) (end.requests() - p.requests()) / span);
            }
        }
        return OptionalDouble.empty();
    }

    /** "5s", "1m 5s", "1h 2m 3s" to seconds. */
    static long seconds(String elapsed) {
        Matcher m = UNIT.matcher(elapsed);
        long s = 0;
        boolean any = false;
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            s += switch (m.group(2)) {
                case "h" -> n * 3600;
                case "m" -> n * 60;
                default -> n;
            };
            any = true;
        }
        if (!any) {
            throw new IllegalArgumentException("not a Gatling elapsed time: '" + elapsed + "'");
        }
        return s;
    }
}
