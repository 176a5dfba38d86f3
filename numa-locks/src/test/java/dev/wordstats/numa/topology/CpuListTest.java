package dev.wordstats.numa.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(30)
class CpuListTest {

    @Test
    void parsesSinglesAndRangesAsTheKernelWritesThem() {
        assertThat(CpuList.parse("0-3,8,10-11\n").stream().boxed().toList()).containsExactly(0, 1, 2, 3, 8, 10, 11);
    }

    @Test
    void emptyOrBlankTextIsTheEmptyList() {
        assertThat(CpuList.parse("")).isEqualTo(new BitSet());
        assertThat(CpuList.parse("\n")).isEqualTo(new BitSet());
    }

    @Test
    void toleratesSpacesAroundElements() {
        assertThat(CpuList.parse(" 1 , 3-4 ").stream().boxed().toList()).containsExactly(1, 3, 4);
    }

    @Test
    void parsesTheKernelStrideForm() {
        // from each group of 4 starting at 0, the first 2: 0,1, 4,5, 8,9
        assertThat(CpuList.parse("0-9:2/4").stream().boxed().toList()).containsExactly(0, 1, 4, 5, 8, 9);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "0-a|'a' is not a CPU number",
                "3-1|range end 1 is below its start 3",
                "1,,2|empty element",
                "1,|empty element",
                "-2|missing number",
                "0-|missing number",
                "x|'x' is not a CPU number",
                "70000|above 65535",
                "0-7:3|stride needs the form",
                "0-7:5/4|stride needs 0 < used <= group",
            })
    void rejectsMalformedListsNamingTheBadElement(String text, String why) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> CpuList.parse(text))
                .withMessageContaining("malformed cpulist '" + text.strip() + "'")
                .withMessageContaining(why);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "0-1", "0-3,8,10-11", "5,7,9", "0-7,16-23"})
    void formatIsTheInverseOfParse(String text) {
        assertThat(CpuList.format(CpuList.parse(text))).isEqualTo(text);
    }

    @Test
    void formatsCollectionsAndTheEmptySet() {
        assertThat(CpuList.format(List.of(3, 1, 2, 7))).isEqualTo("1-3,7");
        assertThat(CpuList.format(new BitSet())).isEmpty();
    }
}
