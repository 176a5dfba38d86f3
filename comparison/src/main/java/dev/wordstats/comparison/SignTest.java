package dev.wordstats.comparison;

import java.util.Collection;
import org.apache.commons.math3.stat.inference.AlternativeHypothesis;
import org.apache.commons.math3.stat.inference.BinomialTest;

/**
 * The two-sided exact sign test of paired ratios: how many lie above 1, how many below (ratios of
 * exactly 1, and those that are not finite, are left out), and the binomial test's p of so lopsided a
 * split if each side were as likely as the other. It needs no assumption about how the ratios are
 * spread, which on a shared host they are not in any known way; the price is that it takes at least
 * 6 pairs, all on one side, to reach p &lt; 0.05.
 *
 * @param above the ratios above 1
 * @param below the ratios below 1
 */
public record SignTest(int above, int below) {

    /** The sign test of {@code ratios}. */
    public static SignTest of(Collection<Double> ratios) {
        int above = 0;
        int below = 0;
        for (Double r : ratios) {
            if (r != null && Double.isFinite(r)) {
                above += r > 1 ? 1 : 0;
                below += r < 1 ? 1 : 0;
            }
        }
        return new SignTest(above, below);
    }

    /** The two-sided p; 1 when no ratio is on either side. */
    public double p() {
        int n = above + below;
        if (n == 0) {
            return 1.0;
        }
        // Commons Math adds both tails, which overlap at an even split (n = 2k): the p of that is 1
        return Math.min(1.0, new BinomialTest().binomialTest(n, above, 0.5, AlternativeHypothesis.TWO_SIDED));
    }

    /** Whether p is below {@code alpha}: the split says which side the ratios lie on. */
    public boolean significant(double alpha) {
        return p() < alpha;
    }
}
