package dev.wordstats.benchmarks.contention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wordstats.numa.lock.Guard;
import dev.wordstats.numa.lock.LockType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The benchmark's lifecycle run by hand, as JMH runs it: a trial of a few small invocations. */
@Timeout(30) // a round joins its threads without a bound of its own
class LockContentionBenchmarkTest {

    @Test
    void everyInvocationGetsANewLockByDefault() throws Exception {
        List<Guard> guards = invocations(true);
        assertThat(guards.get(1)).isNotSameAs(guards.get(0));
        assertThat(guards.get(2)).isNotSameAs(guards.get(1)).isNotSameAs(guards.get(0));
    }

    @Test
    void withoutNewLockEachInvocationTheTrialKeepsOneLock() throws Exception {
        List<Guard> guards = invocations(false);
        assertThat(guards.get(1)).isSameAs(guards.get(0));
        assertThat(guards.get(2)).isSameAs(guards.get(0));
    }

    /** Three invocations of 200 actions on 4 threads; the lock each one ran. */
    private static List<Guard> invocations(boolean newLockEachInvocation) throws Exception {
        LockContentionBenchmark bench = new LockContentionBenchmark();
        bench.lockType = LockType.NUMA_HANDOFF;
        bench.actionsCount = 200;
        bench.threads = 4;
        bench.beforeCpuTokens = 0;
        bench.inCpuTokens = 1;
        bench.yieldsBefore = 0;
        bench.yieldInCrit = false;
        bench.simulatedNodes = 0;
        bench.remotePenaltyTokens = 0;
        bench.pinCarriers = false;
        bench.scheduler = "default";
        bench.recordWaits = false;
        bench.reserveAfterMicros = 1000;
        bench.handoffWithout = "none";
        bench.jfrProbe = false;
        bench.newLockEachInvocation = newLockEachInvocation;
        bench.setUpTrial();
        List<Guard> guards = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                bench.setUpRound();
                guards.add(bench.guardInUse());
                bench.actions(new ContentionMetrics());
                bench.tearDownRound(); // throws unless every action was done
            }
        } finally {
            bench.tearDownTrial();
        }
        return guards;
    }
}
