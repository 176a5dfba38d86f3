package dev.wordstats.service.counts;

/** The store holds its maximum of distinct words and the request would add new ones: nothing was added. */
public final class StoreFullException extends RuntimeException {

    StoreFullException(long maxDistinct) {
        super("the store holds its maximum of " + maxDistinct
                + " distinct words and the request brings new ones; nothing was counted");
    }
}
