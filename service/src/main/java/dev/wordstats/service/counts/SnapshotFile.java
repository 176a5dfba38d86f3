package dev.wordstats.service.counts;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * The snapshot file format, version 1, and its atomic writing. All numbers big-endian:
 * <pre>
 *   magic     "WORDSTATS SNAPSHOT\n"  (19 ASCII bytes: anything else is a foreign file)
 *   version   int                     (1)
 *   entries   repeated: int n (1..MAX_WORD_BYTES), n bytes of UTF-8 (the word), long count (>= 1)
 *   end       int 0
 *   words     long                    (the number of entries)
 *   total     long                    (the sum of the counts)
 *   checksum  int                     (CRC-32C of every byte before it)
 * </pre>
 * and nothing after. A reader checks every part, so a truncated, corrupted or foreign file is
 * refused with a {@link BadSnapshotException} that says which, never half-read.
 *
 * <p>{@link #write} writes to a temporary file of its own beside the target ({@code NAME.<random>.tmp},
 * created new, so no other writer's file is ever truncated or removed), forces it to the disk,
 * moves it over the target atomically and forces the directory: a crash at any point leaves the old
 * snapshot or the new one, whole. A write that fails removes its temporary file. The entries come
 * stripe by stripe from a supplier, so the caller can copy one stripe under its guard and let this
 * class write it with no lock held.
 */
final class SnapshotFile {

    static final int VERSION = 1;

    /** The longest word the format accepts, in UTF-8 bytes (words are capped far below it). */
    static final int MAX_WORD_BYTES = 1 << 20;

    private static final String TEMP_SUFFIX = ".tmp";

    private static final SecureRandom TEMP_NAMES = new SecureRandom();

    private static final byte[] MAGIC = "WORDSTATS SNAPSHOT\n".getBytes(StandardCharsets.US_ASCII);

    private SnapshotFile() {}

    /** What {@link #write} wrote. */
    record Written(long words, long total, long bytes) {}

    /**
     * Writes {@code parts} stripes, {@code part.apply(i)} for i from 0, as one snapshot at
     * {@code target}, atomically (see the class comment).
     */
    static Written write(Path target, int parts, IntFunction<Map<String, Long>> part) throws IOException {
        Path tmp = newTempOf(target);
        try {
            return write(target, tmp, parts, part);
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static Written write(Path target, Path tmp, int parts, IntFunction<Map<String, Long>> part)
            throws IOException {
        long words = 0;
        long total = 0;
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            CRC32C crc = new CRC32C();
            DataOutputStream out = new DataOutputStream(
                    new CheckedOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16), crc));
            // Not closed: that would close the channel before the force; the try closes it after.
            out.write(MAGIC);
            out.writeInt(VERSION);
            for (int i = 0; i < parts; i++) {
                for (Map.Entry<String, Long> e : part.apply(i).entrySet()) {
                    byte[] word = e.getKey().getBytes(StandardCharsets.UTF_8);
                    out.writeInt(word.length);
                    out.write(word);
                    out.writeLong(e.getValue());
                    words++;
                    total += e.getValue();
                }
            }
            out.writeInt(0);
            out.writeLong(words);
            out.writeLong(total);
            out.flush();
            out.writeInt((int) crc.getValue());
            out.flush();
            channel.force(true);
        }
        long bytes = Files.size(tmp);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(target.toAbsolutePath().getParent());
        return new Written(words, total, bytes);
    }

    /**
     * Reads the snapshot at {@code file}.
     *
     * @throws BadSnapshotException the file is truncated, corrupt, foreign or of another version
     * @throws IOException the file could not be read at all
     */
    static Map<String, Long> read(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        long size = Files.size(file);
        try (DataInputStream in = new DataInputStream(
                new CheckedInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16), crc))) {
            byte[] magic = in.readNBytes(MAGIC.length);
            if (!Arrays.equals(magic, 0, magic.length, MAGIC, 0, magic.length)) {
                throw new BadSnapshotException(
                        file, "is not a wordstats snapshot (it does not start with " + "\"WORDSTATS SNAPSHOT\")");
            }
            if (magic.length < MAGIC.length) {
                throw truncated(file, size);
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new BadSnapshotException(
                        file, "has format version " + version + "; this service reads version " + VERSION);
            }
            Map<String, Long> counts = new HashMap<>();
            long total = 0;
            var decoder = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
            while (true) {
                int n = in.readInt();
                if (n == 0) {
                    break;
                }
                if (n < 0 || n > MAX_WORD_BYTES) {
                    throw corrupt(file, "a word length of " + n + " bytes after " + counts.size() + " words");
                }
                byte[] bytes = in.readNBytes(n);
                if (bytes.length < n) {
                    throw truncated(file, size);
                }
                String word;
                try {
                    word = decoder.decode(ByteBuffer.wrap(bytes)).toString();
                } catch (CharacterCodingException e) {
                    throw corrupt(file, "a word that is not UTF-8 after " + counts.size() + " words");
                }
                long count = in.readLong();
                if (count < 1) {
                    throw corrupt(file, "a count of " + count + " for a word");
                }
                if (counts.put(word, count) != null) {
                    throw corrupt(file, "a word given twice");
                }
                total += count;
            }
            long words = in.readLong();
            long expectedTotal = in.readLong();
            int computed = (int) crc.getValue();
            int stored = in.readInt();
            if (stored != computed) {
                throw corrupt(file, "a checksum mismatch");
            }
            if (words != counts.size() || expectedTotal != total) {
                throw corrupt(file, "a summary that does not match its entries");
            }
            if (in.read() != -1) {
                throw corrupt(file, "bytes after the checksum");
            }
            return counts;
        } catch (EOFException e) {
            throw truncated(file, size);
        }
    }

    /**
     * A new name for the temporary file a snapshot is written to before it is moved to
     * {@code target}: {@code NAME.<random>.tmp}, unique to one write.
     */
    static Path newTempOf(Path target) {
        return target.resolveSibling(
                target.getFileName() + "." + Long.toHexString(TEMP_NAMES.nextLong() >>> 1) + TEMP_SUFFIX);
    }

    /**
     * Whether {@code file} is a temporary file of a snapshot write to {@code target}: one of
     * {@link #newTempOf} or the single {@code NAME.tmp} of earlier versions.
     */
    static boolean isTempOf(Path target, Path file) {
        String name = file.getFileName().toString();
        String prefix = target.getFileName() + ".";
        return name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX);
    }

    /** Forces a directory's entries (a created, moved or deleted file) to the disk. */
    static void forceDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            // Some file systems cannot open or force a directory; the file itself was forced.
        }
    }

    private static BadSnapshotException truncated(Path file, long size) {
        return new BadSnapshotException(file, "is truncated (it ends after " + size + " bytes)");
    }

    private static BadSnapshotException corrupt(Path file, String what) {
        return new BadSnapshotException(file, "is corrupt (" + what + ")");
    }
}
