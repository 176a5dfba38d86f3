/**
 * The tokenizer: the exact word rules (NFC, runs of letters, marks and digits, joining apostrophes, root
 * lower case) and the word-length limit. Depends on nothing else in the service.
 */
@NullMarked
package dev.wordstats.service.text;

import org.jspecify.annotations.NullMarked;
