package com.editlock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * BENCHMARKS.md as it is written: Markdown text, tables (also printed as they come) and charts (PNG
 * files next to it, under {@code docs/benchmarks/}).
 */
public final class Report {

    private final StringBuilder markdown = new StringBuilder();
    private final Path root;

    public Report(Path root) {
        this.root = root;
    }

    public Report heading(String title) {
        markdown.append("\n## ").append(title).append("\n\n");
        System.out.printf("%n== %s ==%n", title);
        return this;
    }

    public Report text(String paragraph) {
        markdown.append(paragraph.strip()).append("\n\n");
        return this;
    }

    public Report table(List<String> header, List<List<String>> rows) {
        StringBuilder t = new StringBuilder();
        t.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < header.size(); i++) {
            t.append(i == 0 ? "---|" : "---:|");
        }
        t.append('\n');
        for (List<String> row : rows) {
            t.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        markdown.append(t).append('\n');
        System.out.println(t);
        return this;
    }

    /** Draws a chart into {@code docs/benchmarks/<name>.png} and shows it here. */
    public Report chart(
            String name,
            String title,
            String xLabel,
            String yLabel,
            boolean logY,
            List<Charts.Series> lines)
            throws IOException {
        Path dir = root.resolve("docs/benchmarks");
        Files.createDirectories(dir);
        Charts.line(dir.resolve(name + ".png"), title, xLabel, yLabel, logY, lines);
        markdown.append("![")
                .append(title)
                .append("](docs/benchmarks/")
                .append(name)
                .append(".png)\n\n");
        return this;
    }

    private final List<List<String>> targets = new java.util.ArrayList<>();

    /**
     * A figure the product promises, with whether this run met it: summed up at the top of the
     * report.
     */
    public Report target(String what, String promise, String measured, boolean met) {
        targets.add(List.of(what, promise, measured, met ? "met" : "**missed** (see the profile)"));
        return this;
    }

    /** The summary of the targets, then everything else. */
    public String markdown() {
        if (targets.isEmpty()) {
            return markdown.toString();
        }
        StringBuilder t =
                new StringBuilder(
                        "\n## Against the targets\n\n| figure | target | this run | |\n"
                                + "|---|---:|---:|---|\n");
        targets.forEach(row -> t.append("| ").append(String.join(" | ", row)).append(" |\n"));
        return t + "\n" + markdown;
    }

    /** {@code 12345.6} → {@code 12,346}; small numbers keep a decimal. */
    public static String number(double value) {
        return Math.abs(value) >= 100
                ? String.format("%,.0f", value)
                : String.format("%,.1f", value);
    }

    /** A relative error as {@code ±4 %}. */
    public static String plusMinus(double value, double error) {
        return value == 0 ? "" : String.format("±%.0f %%", 100 * Math.abs(error / value));
    }
}
