package dev.wordstats.concurrency;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.wordstats.numa.lock.MonitorLockSettings.Adaptation;
import dev.wordstats.numa.lock.probe.LockProbe;
import dev.wordstats.numa.lock.queue.NumaMonitorLock;
import dev.wordstats.numa.topology.NodeLocator;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The retirement of {@link NumaMonitorLock}'s word racing word calls, lean calls and calls inside a word
 * section. Each round's lock is new, so it starts as a word; the first caller that finds the word held
 * retires it, and the eager thresholds then switch the lean lock to queued and back at every chance, so a
 * round may pass through all three modes. The result pair is (the counter; 1 if the word was retired in
 * the round, else 0). Run with {@code java -jar concurrency-tests/target/jcstress.jar -t NumaMonitorLockWord}.
 */
public final class NumaMonitorLockWordTests {

    private NumaMonitorLockWordTests() {}

    /** A lock that starts as a word and then switches at every chance; a plain counter only the lock orders. */
    abstract static class Word extends NumaMonitorLockTests.Switching {
        Word(NodeLocator nodes) {
            this(nodes, LockProbe.NONE);
        }

        Word(NodeLocator nodes, LockProbe probe) {
            super(nodes, probe, NumaMonitorLockTests.eager(1, Adaptation.DEFAULTS.busyPercent(), true));
        }

        void finishWord(II_Result r) {
            r.r1 = counter;
            r.r2 = lock.isWord() ? 0 : 1;
        }
    }

    /** Two actors, one node: a word call's release races the other's CAS and its retirement. */
    @JCStressTest
    @Description("two actors on one node, two calls each, on a lock that starts as a word")
    @Outcome(id = "4, [01]", expect = ACCEPTABLE, desc = "all four increments")
    @Outcome(
            id = "[0-3], .*",
            expect = FORBIDDEN,
            desc = "lost update: two critical sections at once across the retirement")
    @State
    public static class RetirementRacesWordCalls extends Word {
        public RetirementRacesWordCalls() {
            super(NodeLocator.singleNode());
        }

        @Actor
        public void a() {
            increment(0, 2);
        }

        @Actor
        public void b() {
            increment(0, 2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finishWord(r);
        }
    }

    /**
     * Three actors, one call each: a third caller arrives while a second retires the word that the first
     * holds, and takes the word only if it read it before the retirement began.
     */
    @JCStressTest
    @Description("three actors on two nodes, one call each, on a lock that starts as a word")
    @Outcome(id = "3, [01]", expect = ACCEPTABLE, desc = "all three increments")
    @Outcome(
            id = "[0-2], .*",
            expect = FORBIDDEN,
            desc = "lost update: two critical sections at once across the retirement")
    @State
    public static class ThirdCallerRacesRetirement extends Word {
        public ThirdCallerRacesRetirement() {
            super(ActorNodes.TWO_NODES);
        }

        @Actor
        public void a() {
            increment(0, 1);
        }

        @Actor
        public void b() {
            increment(1, 1);
        }

        @Actor
        public void c() {
            increment(0, 1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finishWord(r);
        }
    }

    /**
     * Two actors, each with calls nested two deep inside its section: a call inside a word section runs
     * inline while the other actor retires the word (a wait for the monitor, which the retiring actor holds
     * while it waits for the word, would deadlock, and jcstress would report the round as stuck).
     */
    @JCStressTest
    @Description("two actors on one node, a call with calls nested two deep each, on a lock that starts as a word")
    @Outcome(id = "4, [01]", expect = ACCEPTABLE, desc = "all four increments")
    @Outcome(
            id = "[0-3], .*",
            expect = FORBIDDEN,
            desc = "lost update: two critical sections at once across the retirement")
    @State
    public static class NestedCallRacesRetirement extends Word {
        public NestedCallRacesRetirement() {
            super(NodeLocator.singleNode());
        }

        @Actor
        public void a() {
            incrementNested(0, 1);
        }

        @Actor
        public void b() {
            incrementNested(0, 1);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finishWord(r);
        }
    }

    /** As RetirementRacesWordCalls on two nodes, through the probed call, whose sections run in its own frame. */
    @JCStressTest
    @Description("two actors on two nodes, two probed calls each, on a lock that starts as a word")
    @Outcome(id = "4, [01]", expect = ACCEPTABLE, desc = "all four increments")
    @Outcome(
            id = "[0-3], .*",
            expect = FORBIDDEN,
            desc = "lost update: two critical sections at once across the retirement")
    @State
    public static class ProbedRetirementRacesWordCalls extends Word {
        public ProbedRetirementRacesWordCalls() {
            super(ActorNodes.TWO_NODES, new NumaMonitorLockTests.TimedProbe());
        }

        @Actor
        public void a() {
            increment(0, 2);
        }

        @Actor
        public void b() {
            increment(1, 2);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            finishWord(r);
        }
    }
}
