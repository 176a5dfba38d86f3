/**
 * The read/write benchmark: readers and writers of striped word counts, each read a short lookup or a
 * copy of a whole stripe, under every lock type's read and write sections and beside a copy-on-write
 * bound ({@link dev.wordstats.benchmarks.readwrite.ReadWriteBenchmark}).
 */
package dev.wordstats.benchmarks.readwrite;
