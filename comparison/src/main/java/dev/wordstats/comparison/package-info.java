/**
 * What the project's two repeated lock comparisons share: the service comparison in load-tests
 * (Gatling, {@code -Pcompare}) and the interleaved JMH comparison in benchmarks
 * ({@code --interleave N}). {@link dev.wordstats.comparison.RunOrder} rotates the locks each
 * repeat; {@link dev.wordstats.comparison.Spread} is a figure's median and range over the repeats;
 * {@link dev.wordstats.comparison.SignTest} says whether paired ratios lie on one side of 1.
 */
package dev.wordstats.comparison;
