package dev.wordstats.loadtests.compare;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One figure per lock as a PNG (XChart, headless): the median as a dot and a vertical bar from the
 * minimum to the maximum over the repeats. XChart's own error bars are symmetric, and a min–max
 * range is not, so each bar is a line series of its own. The value axis fits the data (it does not
 * start at 0), so that differences of a few percent are visible; the ranges say whether they are
 * real.
 */
final class SpreadChart {

    private static final Color BAR = new Color(0x33, 0x66, 0x99);

    private SpreadChart() {}

    static void write(Path file, String title, String yTitle, Map<String, Spread> byLock) throws IOException {
        List<String> locks = new ArrayList<>(byLock.keySet());
        XYChart chart = new XYChartBuilder()
                .width(Math.max(700, 150 * locks.size()))
                .height(450)
                .title(title)
                .xAxisTitle("lock type")
                .yAxisTitle(yTitle)
                .build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setXAxisMin(-0.5);
        chart.getStyler().setXAxisMax(locks.size() - 0.5);
        chart.getStyler().setXAxisTickMarkSpacingHint(Math.max(40, 600 / Math.max(1, locks.size())));
        chart.getStyler().setXAxisDecimalPattern("0");
        chart.setCustomXAxisTickLabelsFormatter(x -> {
            int i = (int) Math.round(x);
            return Math.abs(x - i) < 1e-6 && i >= 0 && i < locks.size() ? locks.get(i) : "";
        });
        List<Double> xs = new ArrayList<>();
        List<Double> medians = new ArrayList<>();
        for (int i = 0; i < locks.size(); i++) {
            Spread s = byLock.get(locks.get(i));
            if (!s.present()) {
                continue;
            }
            XYSeries range =
                    chart.addSeries("range " + locks.get(i), new double[] {i, i}, new double[] {s.min(), s.max()});
            range.setMarker(SeriesMarkers.NONE);
            range.setMarkerColor(BAR);
            range.setLineColor(BAR);
            range.setLineStyle(new BasicStroke(3f));
            xs.add((double) i);
            medians.add(s.median());
        }
        if (!xs.isEmpty()) {
            XYSeries median = chart.addSeries("median", xs, medians);
            median.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            median.setMarker(SeriesMarkers.CIRCLE);
            median.setMarkerColor(Color.BLACK);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
