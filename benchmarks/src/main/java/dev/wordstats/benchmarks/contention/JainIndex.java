package dev.wordstats.benchmarks.contention;

/**
 * Jain's fairness index (Jain, Chiu, Hawe 1984) of a share vector: {@code (sum x)^2 / (n * sum x^2)}.
 * 1.0 when every thread got the same share; {@code 1/n} when one thread got everything.
 */
public final class JainIndex {

    private JainIndex() {}

    /** The index of {@code shares}; 1.0 for an empty vector or all zeros (nothing to be unfair about). */
    public static double of(long[] shares) {
        double sum = 0;
        double sumOfSquares = 0;
        for (long share : shares) {
            sum += share;
            sumOfSquares += (double) share * share;
        }
        if (sumOfSquares == 0) {
            return 1.0;
        }
        return sum * sum / (shares.length * sumOfSquares);
    }
}
