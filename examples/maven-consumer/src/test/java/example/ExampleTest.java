package example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.wordstats.numa.lock.LockType;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExampleTest {

    @Test
    void everyLockTypeOfTheInstalledJarCountsEveryVirtualThreadOnce() {
        for (LockType type : LockType.values()) {
            assertEquals(Map.of("word", 10_000), Example.count(type, "word", 10_000), type.name());
        }
    }
}
