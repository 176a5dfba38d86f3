package dev.wordstats.benchmarks.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvFilesTest {

    @Test
    void cellsWithCommasOrQuotesAreQuotedAndOthersAreNot() {
        String csv = CsvFiles.text(
                List.of("bench", "params", "score"), List.of(List.of("half", "{stripes=1, threads=64}", "say \"hi\"")));

        assertThat(csv.lines().toList())
                .containsExactly("bench,params,score", "half,\"{stripes=1, threads=64}\",\"say \"\"hi\"\"\"");
    }

    @Test
    void anEmptyCellStaysEmptyPastTheFirstColumn() {
        // an empty first cell is written "" (else a one-column record would be a blank line); no file starts so
        assertThat(CsvFiles.text(List.of("a", "b", "c"), List.of(List.of("1", "", "2"))))
                .isEqualTo("a,b,c\n1,,2\n");
    }
}
