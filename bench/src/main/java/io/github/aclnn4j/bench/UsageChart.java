package io.github.aclnn4j.bench;

import java.util.List;
import java.util.Locale;

/**
 * The picture of {@link UsageBench}: one horizontal bar per call, its length the ratio of
 * PyTorch's time to aclnn4j's on a log scale from 1/16 to 16, green where aclnn4j is at least as
 * fast, red where it is slower; a line marks 1×, a dashed one 2×. Plain SVG, no library.
 */
final class UsageChart {
    record Row(String label, double ratio) {}

    private static final int LABEL_WIDTH = 640;
    private static final int PLOT_WIDTH = 480;
    private static final int ROW_HEIGHT = 16;
    private static final double MAX_LOG2 = 4;

    private UsageChart() {}

    static String svg(List<Row> rows) {
        int top = 40;
        int height = top + rows.size() * ROW_HEIGHT + 30;
        int width = LABEL_WIDTH + PLOT_WIDTH + 60;
        double zero = LABEL_WIDTH + PLOT_WIDTH / 2.0;
        double unit = PLOT_WIDTH / (2 * MAX_LOG2);
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"monospace\" font-size=\"11\">%n", width, height));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        s.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"18\" font-size=\"13\">PyTorch 1.13 time / aclnn4j time,"
                + " every call in one JVM (right of the line: aclnn4j faster)</text>%n"));
        for (int k = (int) -MAX_LOG2; k <= MAX_LOG2; k++) {
            double x = zero + k * unit;
            String label = k >= 0 ? (1 << k) + "×" : "1/" + (1 << -k);
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"%s/>%n",
                    x, top - 6, x, height - 24, k == 0 ? "black" : "#ddd", k == 1 ? " stroke-dasharray=\"4 3\"" : ""));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x,
                    height - 10, label));
        }
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            double y = top + i * ROW_HEIGHT;
            double log2 = Math.max(-MAX_LOG2, Math.min(MAX_LOG2, Math.log(r.ratio()) / Math.log(2)));
            double x0 = Math.min(zero, zero + log2 * unit);
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\">%s</text>%n", 6, y + 11, escape(r.label())));
            s.append(String.format(Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n",
                    x0, y + 2, Math.abs(log2 * unit), ROW_HEIGHT - 4, r.ratio() >= 1 ? "#4a4" : "#c44"));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\">%.2f</text>%n",
                    log2 >= 0 ? x0 + Math.abs(log2 * unit) + 3 : x0 - 32, y + 11, r.ratio()));
        }
        return s.append("</svg>\n").toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
