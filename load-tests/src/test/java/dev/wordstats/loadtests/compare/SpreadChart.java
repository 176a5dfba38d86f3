package dev.wordstats.loadtests.compare;

import dev.wordstats.comparison.Spread;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One figure per lock as a PNG (XChart, headless): the median as a dot and an error bar from the
 * minimum to the maximum over the repeats. XChart's error bars are symmetric, and a min–max range
 * is not, so the bar belongs to an invisible point at the middle of the range, and the median is a
 * series of its own. The value axis fits the data (it does not start at 0), so that differences of
 * a few percent are visible; the ranges say whether they are real.
 */
final class SpreadChart {

    private SpreadChart() {}

    static void write(Path file, String title, String yTitle, Map<String, Spread> byLock) throws IOException {
        List<String> locks = new ArrayList<>();
        List<Double> middles = new ArrayList<>();
        List<Double> halfRanges = new ArrayList<>();
        List<Double> medians = new ArrayList<>();
        byLock.forEach((lock, s) -> {
            if (s.present()) {
                locks.add(lock);
                middles.add((s.min() + s.max()) / 2);
                halfRanges.add((s.max() - s.min()) / 2);
                medians.add(s.median());
            }
        });
        CategoryChart chart = new CategoryChartBuilder()
                .width(Math.max(700, 200 * locks.size()))
                .height(450)
                .title(title)
                .xAxisTitle("lock type")
                .yAxisTitle(yTitle)
                .build();
        chart.getStyler().setLegendVisible(true);
        chart.getStyler().setOverlapped(true); // the median on its range, not beside it
        chart.getStyler().setErrorBarsColor(new Color(0x33, 0x66, 0x99));
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
        if (!locks.isEmpty()) {
            CategorySeries range = chart.addSeries("min–max", locks, middles, halfRanges);
            range.setMarker(SeriesMarkers.NONE);
            CategorySeries median = chart.addSeries("median", locks, medians);
            median.setMarker(SeriesMarkers.CIRCLE);
            median.setMarkerColor(Color.BLACK);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
