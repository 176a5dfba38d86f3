package dev.wordstats.service.text;

/** A word longer than the configured maximum: the whole request is rejected. */
public final class WordTooLongException extends RuntimeException {

    private final int length;
    private final int maxLength;

    WordTooLongException(String word, int length, int maxLength) {
        super("a word of " + length + " code points is longer than the limit of " + maxLength + " (it starts with '"
                + word.substring(0, word.offsetByCodePoints(0, Math.min(20, length))) + "')");
        this.length = length;
        this.maxLength = maxLength;
    }

    /** The word's length in code points. */
    public int length() {
        return length;
    }

    /** The limit it passed. */
    public int maxLength() {
        return maxLength;
    }
}
