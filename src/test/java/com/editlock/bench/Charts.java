package com.editlock.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/** Line charts with error bars, as PNG files for BENCHMARKS.md (JFreeChart, headless). */
public final class Charts {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    /** One line: x → (y, y low, y high). */
    public static final class Series {
        final String name;
        final Map<Double, double[]> points = new LinkedHashMap<>();

        public Series(String name) {
            this.name = name;
        }

        public Series add(double x, double y, double error) {
            points.put(x, new double[] {y, Math.max(0, y - error), y + error});
            return this;
        }

        public Series add(double x, double y) {
            return add(x, y, 0);
        }
    }

    private static final Color[] COLORS = {
        new Color(0x1f77b4),
        new Color(0xd62728),
        new Color(0x2ca02c),
        new Color(0xff7f0e),
        new Color(0x9467bd),
        new Color(0x8c564b)
    };

    private Charts() {}

    /**
     * Writes {@code file}: the series against a logarithmic x axis ({@code logY}: a logarithmic y
     * axis too).
     */
    public static void line(
            Path file, String title, String xLabel, String yLabel, boolean logY, List<Series> lines)
            throws IOException {
        YIntervalSeriesCollection data = new YIntervalSeriesCollection();
        for (Series s : lines) {
            YIntervalSeries series = new YIntervalSeries(s.name);
            s.points.forEach((x, y) -> series.add(x, y[0], y[1], y[2]));
            data.addSeries(series);
        }
        JFreeChart chart =
                ChartFactory.createXYLineChart(
                        title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        LogAxis x = new LogAxis(xLabel);
        x.setBase(2);
        x.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        x.setSmallestValue(1);
        x.setNumberFormatOverride(
                new java.text.DecimalFormat("#,##0")); // 1, 4, 16, 64 rather than 2^0 … 2^6
        plot.setDomainAxis(x);
        if (logY) {
            LogAxis y = new LogAxis(yLabel);
            y.setBase(10);
            y.setStandardTickUnits(NumberAxis.createStandardTickUnits());
            plot.setRangeAxis(y);
        }
        XYErrorRenderer renderer = new XYErrorRenderer();
        renderer.setDrawXError(false);
        renderer.setDefaultLinesVisible(true);
        renderer.setDefaultShapesVisible(true);
        for (int i = 0; i < lines.size(); i++) {
            renderer.setSeriesPaint(i, COLORS[i % COLORS.length]);
            renderer.setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.setRenderer(renderer);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 820, 460);
    }
}
