package dev.wordstats.service.counts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wordstats.numa.lock.probe.LockTimer;
import dev.wordstats.numa.topology.NodeLocator;
import dev.wordstats.service.StartupCheckException;
import dev.wordstats.service.WordstatsProperties;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** One instance per data directory: a second one refuses to start; writes never touch another's temporary file. */
@Timeout(60)
class DataDirectoryLockTest {

    @TempDir
    Path dir;

    private WordstatsProperties properties() {
        return new Binder(new MapConfigurationPropertySource(
                        Map.of("wordstats.lock.stripes", "4", "wordstats.store.data-dir", dir.toString())))
                .bindOrCreate("wordstats", WordstatsProperties.class);
    }

    private StoreSnapshots open() {
        WordstatsProperties p = properties();
        return new StoreSnapshots(new WordStore(p, NodeLocator.singleNode(), LockTimer.NONE, LockTimer.NONE), p);
    }

    @Test
    void aSecondInstanceInThisProcessRefusesToStartUntilTheFirstIsClosed() {
        StoreSnapshots first = open();
        assertThatThrownBy(this::open)
                .isInstanceOf(StartupCheckException.class)
                .hasMessageContaining(
                        "wordstats.store.data-dir " + dir.toAbsolutePath().normalize())
                .hasMessageContaining("in use by another wordstats instance")
                .hasMessageContaining(StoreSnapshots.LOCK_FILE_NAME);
        first.close();
        open().close();
    }

    @Test
    void anInstanceRefusesADirectoryAnotherProcessHolds() throws Exception {
        // A separate JVM takes the lock the way a running service does, then waits for its stdin to close.
        Path source = Files.writeString(Files.createTempDirectory("locker").resolve("Locker.java"), """
                import java.nio.channels.FileChannel;
                import java.nio.file.*;
                public class Locker {
                    public static void main(String[] args) throws Exception {
                        try (FileChannel c = FileChannel.open(Path.of(args[0]),
                                StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                            System.out.println(c.tryLock() != null ? "locked" : "busy");
                            System.in.read();
                        }
                    }
                }
                """);
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process locker = new ProcessBuilder(
                        java,
                        source.toString(),
                        dir.resolve(StoreSnapshots.LOCK_FILE_NAME).toString())
                .redirectErrorStream(true)
                .start();
        try {
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(locker.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");
            assertThatThrownBy(this::open)
                    .isInstanceOf(StartupCheckException.class)
                    .hasMessageContaining("in use by another wordstats instance");
        } finally {
            locker.getOutputStream().close();
            if (!locker.waitFor(20, TimeUnit.SECONDS)) {
                locker.destroyForcibly();
            }
        }
        open().close(); // the lock went with the process
    }

    @Test
    void aWriteLeavesATemporaryFileThatIsNotItsOwnAlone() throws IOException {
        WordstatsProperties p = properties();
        WordStore store = new WordStore(p, NodeLocator.singleNode(), LockTimer.NONE, LockTimer.NONE);
        try (StoreSnapshots snapshots = new StoreSnapshots(store, p)) {
            Path others = dir.resolve(StoreSnapshots.FILE_NAME + ".tmp");
            Files.writeString(others, "another writer's");
            store.addAll(Map.of("mine", 2L), 2);
            assertThat(snapshots.writeIfChanged()).isTrue();
            assertThat(others).hasContent("another writer's");
            assertThat(SnapshotFile.read(snapshots.file())).containsExactlyEntriesOf(Map.of("mine", 2L));
            assertThat(SnapshotFile.newTempOf(snapshots.file())).isNotEqualTo(SnapshotFile.newTempOf(snapshots.file()));
        }
    }
}
