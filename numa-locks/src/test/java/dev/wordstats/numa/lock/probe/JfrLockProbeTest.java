package dev.wordstats.numa.lock.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockContext;
import dev.wordstats.numa.lock.LockGuard;
import dev.wordstats.numa.lock.LockType;
import dev.wordstats.numa.lock.TestLocks;
import dev.wordstats.numa.lock.jdk.ProbedJdkLock;
import dev.wordstats.numa.lock.jdk.SynchronizedGuard;
import dev.wordstats.numa.lock.queue.NumaMonitorLock;
import dev.wordstats.numa.topology.NodeLocator;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import javax.xml.parsers.DocumentBuilderFactory;
import jdk.jfr.Configuration;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What {@link JfrLockProbe} writes for each report, read back with a {@link RecordingStream}: the
 * fields, the wait as the event's duration, JFR's {@code threshold} on it (none below it, its default as
 * for the JDK's lock events), the commit at the release, a wait that gave up left out, nothing when an
 * event is not enabled, and the shipped settings file. The reports here are made by hand, as a lock makes
 * them (wantsWaitNow at the start of the wait, acquired, released); that real locks make them under
 * contention is {@code LockEventsRecordingTest}'s and {@code LockWaitEventTest}'s part.
 */
class JfrLockProbeTest {

    private static final long MS = 1_000_000L;

    /** A node locator whose answer the test sets. */
    private static final class SetNode implements NodeLocator {
        final AtomicInteger node = new AtomicInteger();

        @Override
        public int nodeCount() {
            return 4;
        }

        @Override
        public int currentNode() {
            return node.get();
        }
    }

    @Test
    void waitEventsCarryTheLockTheNodeTheHandoffAndAStackTrace() {
        SetNode nodes = new SetNode();
        JfrLockProbe probe = new JfrLockProbe(LockType.NUMA_HANDOFF, nodes);
        JfrLockProbe other = new JfrLockProbe(LockType.NUMA_HANDOFF, nodes);

        List<RecordedEvent> events =
                record(stream -> stream.enable(LockEvents.WAIT).withThreshold(Duration.ZERO), () -> {
                    nodes.node.set(1);
                    waitOf(probe, 3 * MS, 0);
                    waitOf(probe, 4 * MS, 0);
                    nodes.node.set(2);
                    waitOf(probe, 5 * MS, 0);
                    waitOf(other, 6 * MS, 0);
                });

        assertThat(events).hasSize(4);
        assertThat(events).allSatisfy(event -> {
            assertThat(event.getEventType().getName()).isEqualTo(LockEvents.WAIT);
            assertThat(event.getEventType().getCategoryNames()).containsExactly(LockEvents.CATEGORY);
            assertThat(event.getString("lockType")).isEqualTo("NUMA_HANDOFF");
            // the probe's own frame is trimmed: the stack starts at its caller, here this test
            assertThat(event.getStackTrace().getFrames())
                    .first()
                    .extracting(frame -> frame.getMethod().getType().getName())
                    .isEqualTo(JfrLockProbeTest.class.getName());
            assertThat(event.getStackTrace().getFrames())
                    .extracting(RecordedFrame::getMethod)
                    .noneSatisfy(method -> assertThat(method.getName()).isEqualTo("acquired"));
        });
        assertThat(events)
                .extracting(event -> event.getDuration("waitTime"))
                .containsExactly(
                        Duration.ofMillis(3), Duration.ofMillis(4), Duration.ofMillis(5), Duration.ofMillis(6));
        assertThat(events).allSatisfy(event -> assertThat(event.getDuration()).isPositive());
        assertThat(events).extracting(event -> event.getInt("node")).containsExactly(1, 1, 2, 2);
        assertThat(events)
                .extracting(event -> event.getString("handoff"))
                .containsExactly("unknown", "same_node", "cross_node", "unknown");
        assertThat(events)
                .extracting(event -> event.getLong("lockId"))
                .containsExactly(probe.lockId(), probe.lockId(), probe.lockId(), other.lockId());
        assertThat(other.lockId()).isNotEqualTo(probe.lockId());
    }

    @Test
    void noWaitEventBelowTheThresholdAndNoneForAnAcquisitionThatDidNotWait() {
        JfrLockProbe probe = new JfrLockProbe(LockType.NUMA_MCS, NodeLocator.singleNode());

        List<RecordedEvent> events =
                record(stream -> stream.enable(LockEvents.WAIT).withThreshold(Duration.ofMillis(10)), () -> {
                    waitOf(probe, 1, 0); // a wait of a few microseconds
                    waitOf(probe, 2, 10 * MS);
                    probe.acquired(false, 50 * MS);
                    probe.released(false, 50 * MS, 0);
                    waitOf(probe, 30, 30 * MS);
                    waitOf(probe, 0, 0);
                });

        assertThat(events)
                .extracting(event -> event.getDuration("waitTime"))
                .containsExactly(Duration.ofNanos(2), Duration.ofNanos(30));
        assertThat(events)
                .extracting(RecordedEvent::getDuration)
                .allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(Duration.ofMillis(10)));
    }

    @Test
    void theEventIsTheWaitAndIsWrittenAtTheReleaseNotAtTheAcquisition() {
        JfrLockProbe probe = new JfrLockProbe(LockType.NUMA_MCS, NodeLocator.singleNode());
        long[] marks = new long[2];

        List<RecordedEvent> events = record(stream -> stream.enable(LockEvents.WAIT), () -> {
            probe.wantsWaitNow();
            sleep(25 * MS);
            probe.acquired(true, 25 * MS);
            marks[0] = System.nanoTime();
            sleep(25 * MS); // the critical section: longer than the wait would not matter, the wait is the event
            marks[1] = System.nanoTime();
            probe.released(true, 25 * MS, marks[1] - marks[0]);
        });

        assertThat(events).hasSize(1);
        RecordedEvent event = events.get(0);
        assertThat(event.getDuration()).isGreaterThanOrEqualTo(Duration.ofMillis(25));
        assertThat(event.getDuration()).as("not the section").isLessThan(Duration.ofMillis(25 + 25));
    }

    @Test
    void aWaitThatGaveUpLendsItsStartToNoLaterAcquisition() {
        JfrLockProbe probe = new JfrLockProbe(LockType.NUMA_MCS, NodeLocator.singleNode());

        List<RecordedEvent> events = record(stream -> stream.enable(LockEvents.WAIT), () -> {
            probe.wantsWaitNow(); // a tryLock that timed out: no acquired, no released
            sleep(40 * MS);
            probe.acquired(false, 0); // the next acquisition takes the lock at once
            probe.released(false, 0, 0);
            waitOf(probe, 0, 0); // the next that waits, a few microseconds
        });

        assertThat(events).as("the 20 ms default threshold: nothing passed it").isEmpty();
    }

    @Test
    void theDefaultWaitThresholdIsTheJdkLockEventsTwentyMilliseconds() {
        JfrLockProbe probe = new JfrLockProbe(LockType.NUMA_MCS, NodeLocator.singleNode());

        List<RecordedEvent> events = record(stream -> stream.enable(LockEvents.WAIT), () -> {
            waitOf(probe, 19, 5 * MS);
            waitOf(probe, 21, 21 * MS);
        });

        assertThat(events).extracting(event -> event.getDuration("waitTime")).containsExactly(Duration.ofNanos(21));
    }

    @Test
    void nothingIsWrittenForAnEventThatIsNotEnabled() {
        JfrLockProbe probe = new JfrLockProbe(LockType.COMBINING, NodeLocator.singleNode());

        List<RecordedEvent> events = record(
                stream -> {
                    // a stream without settings records an event type as its annotations say: turn each off
                    stream.disable(LockEvents.WAIT);
                    stream.disable(LockEvents.COMBINING_BATCH);
                    stream.disable(LockEvents.MODE_SWITCH);
                    stream.enable(LockEvents.RESERVATION);
                },
                () -> {
                    probe.acquired(true, 50 * MS);
                    probe.combined(3, MS);
                    probe.modeSwitched(true);
                });

        assertThat(events).isEmpty();
    }

    @Test
    void reservationBatchAndModeSwitchEventsCarryTheirFields() {
        JfrLockProbe probe = new JfrLockProbe(LockType.NUMA_COMBINING, NodeLocator.singleNode());

        List<RecordedEvent> events = record(
                stream -> {
                    stream.enable(LockEvents.RESERVATION);
                    stream.enable(LockEvents.COMBINING_BATCH);
                    stream.enable(LockEvents.MODE_SWITCH);
                },
                () -> {
                    probe.reserved(1);
                    probe.combined(7, 3 * MS);
                    probe.modeSwitched(true);
                    probe.modeSwitched(false);
                });

        assertThat(events)
                .extracting(event -> event.getEventType().getName())
                .containsExactly(
                        LockEvents.RESERVATION,
                        LockEvents.COMBINING_BATCH,
                        LockEvents.MODE_SWITCH,
                        LockEvents.MODE_SWITCH);
        assertThat(events).allSatisfy(event -> {
            assertThat(event.getString("lockType")).isEqualTo("NUMA_COMBINING");
            assertThat(event.getLong("lockId")).isEqualTo(probe.lockId());
        });
        assertThat(events.get(0).getInt("node")).isEqualTo(1);
        assertThat(events.get(1).getInt("size")).isEqualTo(7);
        assertThat(events.get(1).getDuration("length")).isEqualTo(Duration.ofMillis(3));
        assertThat(events.get(2).getString("mode")).isEqualTo("queued");
        assertThat(events.get(3).getString("mode")).isEqualTo("lean");
    }

    @Test
    void theShippedSettingsTurnEveryEventOnWithLockWaitsFromTenMicroseconds() {
        Configuration settings = LockEvents.settings();
        Map<String, String> values = settings.getSettings();

        assertThat(values)
                .containsEntry(LockEvents.WAIT + "#enabled", "true")
                .containsEntry(LockEvents.WAIT + "#threshold", "10 us")
                .containsEntry(LockEvents.WAIT + "#stackTrace", "true")
                .containsEntry(LockEvents.RESERVATION + "#enabled", "true")
                .containsEntry(LockEvents.COMBINING_BATCH + "#enabled", "true")
                .containsEntry(LockEvents.MODE_SWITCH + "#enabled", "true");

        JfrLockProbe probe = new JfrLockProbe(LockType.NUMA_MCS, NodeLocator.singleNode());
        List<RecordedEvent> events = new CopyOnWriteArrayList<>();
        try (RecordingStream stream = new RecordingStream(settings)) {
            stream.setReuse(false); // the events are kept past the callback
            stream.onEvent(LockEvents.WAIT, events::add);
            stream.startAsync();
            waitOf(probe, 2, 20 * MS); // a shorter one dropped: the threshold tests above
            stream.stop();
        }
        assertThat(events).extracting(event -> event.getDuration("waitTime")).containsExactly(Duration.ofNanos(2));
    }

    /**
     * The file's {@code <control>} section: the two options a user picks by name ({@code jfr configure},
     * or {@code -XX:StartFlightRecording:...,lock-wait-threshold=1ms}), each setting that names a control
     * names one of them, every threshold option is a time span the setting takes, and the defaults are the
     * file's own values.
     */
    @Test
    void theShippedSettingsOfferAThresholdAndAStackTraceOptionByName() throws Exception {
        Document jfc;
        try (InputStream in = LockEvents.class.getResourceAsStream("/" + LockEvents.SETTINGS)) {
            assertThat(in).isNotNull();
            jfc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        }
        Element threshold = single(jfc, "selection");
        Element stacks = single(jfc, "flag");
        assertThat(threshold.getAttribute("name")).isEqualTo("lock-wait-threshold");
        assertThat(stacks.getAttribute("name")).isEqualTo("lock-stack-traces");
        assertThat(stacks.getTextContent().trim()).isEqualTo("true");

        NodeList options = threshold.getElementsByTagName("option");
        Map<String, String> byName = new java.util.LinkedHashMap<>();
        for (int i = 0; i < options.getLength(); i++) {
            Element option = (Element) options.item(i);
            byName.put(option.getAttribute("name"), option.getTextContent().trim());
        }
        assertThat(byName).containsEntry("0ns", "0 ns").containsEntry("20ms", "20 ms");
        assertThat(byName.values()).allSatisfy(span -> assertThat(span).matches("[0-9]+ (ns|us|ms|s)"));
        assertThat(byName.get(threshold.getAttribute("default"))).isEqualTo("10 us");

        NodeList settings = jfc.getElementsByTagName("setting");
        List<String> controlled = new java.util.ArrayList<>();
        for (int i = 0; i < settings.getLength(); i++) {
            Element setting = (Element) settings.item(i);
            if (setting.hasAttribute("control")) {
                String event = ((Element) setting.getParentNode()).getAttribute("name");
                controlled.add(event + "#" + setting.getAttribute("name") + "=" + setting.getAttribute("control"));
            }
        }
        assertThat(controlled)
                .containsExactlyInAnyOrder(
                        LockEvents.WAIT + "#threshold=lock-wait-threshold",
                        LockEvents.WAIT + "#stackTrace=lock-stack-traces",
                        LockEvents.RESERVATION + "#stackTrace=lock-stack-traces",
                        LockEvents.MODE_SWITCH + "#stackTrace=lock-stack-traces");
    }

    private static Element single(Document document, String tag) {
        NodeList found = document.getElementsByTagName(tag);
        assertThat(found.getLength()).as(tag).isEqualTo(1);
        return (Element) found.item(0);
    }

    @Test
    void theDefaultProbeOfALockIsTheJfrOneAndHearsNoFastPath() {
        assertThat(JfrLockProbe.onByDefault()).isTrue();
        LockProbe probe = JfrLockProbe.byDefault(LockType.NUMA_MCS, NodeLocator.singleNode());
        assertThat(probe).isInstanceOf(JfrLockProbe.class);
        assertThat(probe.hearsFastPath()).isFalse();
        assertThat(probe.timed()).isFalse();
        assertThat(LockProbe.fastPathOf(probe)).isNull();
    }

    @Tag(TestLocks.EVERY_TYPE)
    @Test
    void aLockBuiltWithoutAProbeHasNoReportingWrapperOnItsFastPath() {
        LockContext context = TestLocks.context(NodeLocator.singleNode());
        for (LockType type : TestLocks.types().toList()) {
            Guard guard = type.create(context);
            if (guard instanceof LockGuard lockGuard) {
                assertThat(lockGuard.lock()).as(type.name()).isNotInstanceOf(ProbedJdkLock.class);
            }
            if (guard instanceof SynchronizedGuard || guard instanceof NumaMonitorLock) {
                assertThat(guard).extracting("probe").as(type.name()).isNull();
            }
        }
        for (LockType type : new LockType[] {LockType.FAIR_REENTRANT, LockType.UNFAIR_REENTRANT}) {
            assertThat(((LockGuard) type.create(context)).lock()).isInstanceOf(ReentrantLock.class);
        }
    }

    /** Runs {@code reports} on this thread inside a recording set up by {@code setup}, and returns its events. */
    @Test
    void aWaitIsWantedOnlyWhileARecordingEnablesTheWaitEvent() {
        JfrLockProbe probe = new JfrLockProbe(LockType.NUMA_MCS, NodeLocator.singleNode());
        assertThat(probe.wantsWaitNow()).as("no recording").isFalse();
        boolean[] during = new boolean[2];
        record(stream -> stream.disable(LockEvents.WAIT), () -> during[0] = probe.wantsWaitNow());
        record(stream -> stream.enable(LockEvents.WAIT), () -> during[1] = probe.wantsWaitNow());
        assertThat(during[0]).as("a recording with the wait event disabled").isFalse();
        assertThat(during[1]).as("a recording with it").isTrue();
        assertThat(probe.wantsWaitNow()).as("after the recording").isFalse();
        assertThat(LockProbe.both(new CountingProbe(NodeLocator.singleNode()), probe)
                        .wantsWaitNow())
                .as("a probe that counts every wait, beside it")
                .isTrue();
    }

    /**
     * One wait as a lock reports it: asked for at its start, {@code parkNanos} long, acquired with
     * {@code waitTime} as the lock's figure (a marker the test reads back), released.
     */
    private static void waitOf(JfrLockProbe probe, long waitTime, long parkNanos) {
        probe.wantsWaitNow();
        if (parkNanos > 0) {
            sleep(parkNanos);
        }
        probe.acquired(true, waitTime);
        probe.released(true, waitTime, 0);
    }

    /** Parks at least {@code nanos}, however often the park returns early. */
    private static void sleep(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
        }
    }

    private static List<RecordedEvent> record(Consumer<RecordingStream> setup, Runnable reports) {
        List<RecordedEvent> events = new CopyOnWriteArrayList<>();
        try (RecordingStream stream = new RecordingStream()) {
            stream.setReuse(false); // the events are kept past the callback
            setup.accept(stream);
            stream.onEvent(event -> {
                if (event.getEventType().getCategoryNames().contains(LockEvents.CATEGORY)) {
                    events.add(event);
                }
            });
            stream.startAsync();
            reports.run();
            stream.stop(); // writes and delivers every event committed before it
        }
        return events;
    }
}
