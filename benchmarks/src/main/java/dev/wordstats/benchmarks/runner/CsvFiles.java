package dev.wordstats.benchmarks.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/** The runner's CSV files: RFC 4180 (a cell with a comma or a quote is quoted), lines ended by a newline. */
final class CsvFiles {

    private static final CSVFormat FORMAT =
            CSVFormat.RFC4180.builder().setRecordSeparator('\n').get();

    private CsvFiles() {}

    /** The header line and one line per record. */
    static String text(List<String> header, List<List<String>> records) {
        StringBuilder csv = new StringBuilder();
        try (CSVPrinter printer = new CSVPrinter(
                csv, FORMAT.builder().setHeader(header.toArray(String[]::new)).get())) {
            for (List<String> record : records) {
                printer.printRecord(record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringBuilder does not throw
        }
        return csv.toString();
    }
}
