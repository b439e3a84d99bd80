package org.latencylab.engine.telemetry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads samples from the Prometheus text exposition format 0.0.4 ("Exposition formats", prometheus.io): one sample
 * per line, {@code name{label="value",...} value [timestamp]}; lines starting with {@code #} (HELP, TYPE) and blank
 * lines are skipped; label values may contain the escapes {@code \\}, {@code \"} and {@code \n}; values may be
 * {@code NaN}, {@code +Inf} or {@code -Inf}. Histograms appear as their {@code _bucket}, {@code _sum} and
 * {@code _count} samples. Stateless and thread-safe.
 */
public final class PrometheusText {
    private PrometheusText() {
    }

    /**
     * One sample.
     *
     * @param name   metric name, e.g. {@code vllm:num_requests_running} (colons allowed)
     * @param labels label names to values (unmodifiable, in order of appearance)
     * @param value  the value (unitless as exposed; Prometheus convention: seconds, bytes, ratios)
     */
    public record Sample(String name, Map<String, String> labels, double value) {
        public Sample {
            Objects.requireNonNull(name, "name");
            labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
        }
    }

    /**
     * @param text a scrape body
     * @return its samples in order
     * @throws IllegalArgumentException when a sample line is malformed; the message gives the line number and text
     */
    public static List<Sample> parse(String text) {
        List<Sample> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                out.add(line(line));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("Prometheus text line " + (n + 1) + " is malformed ("
                        + e.getMessage() + "): " + line, e);
            }
        }
        return out;
    }

    private static Sample line(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && !Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        String name = line.substring(0, i);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("no metric name");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (true) {
                while (i < line.length() && (line.charAt(i) == ',' || line.charAt(i) == ' ')) {
                    i++;
                }
                if (i >= line.length()) {
                    throw new IllegalArgumentException("unclosed '{'");
                }
                if (line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int eq = line.indexOf('=', i);
                if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                    throw new IllegalArgumentException("label without =\"value\"");
                }
                String key = line.substring(i, eq).strip();
                StringBuilder v = new StringBuilder();
                int j = eq + 2;
                for (; j < line.length() && line.charAt(j) != '"'; j++) {
                    char c = line.charAt(j);
                    if (c == '\\' && j + 1 < line.length()) {
                        char e = line.charAt(++j);
                        v.append(e == 'n' ? '\n' : e);
                    } else {
                        v.append(c);
                    }
                }
                if (j >= line.length()) {
                    throw new IllegalArgumentException("unterminated label value");
                }
                labels.put(key, v.toString());
                i = j + 1;
            }
        }
        String[] rest = line.substring(i).strip().split("\\s+");
        if (rest.length == 0 || rest[0].isEmpty()) {
            throw new IllegalArgumentException("no value");
        }
        return new Sample(name, labels, value(rest[0]));
    }

    private static double value(String s) {
        return switch (s) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(s);
        };
    }

    /**
     * Sums a metric over all its label sets.
     *
     * @param samples parsed samples
     * @param name    exact sample name (e.g. {@code vllm:time_to_first_token_seconds_sum})
     * @return the sum, or null when no sample has that name
     */
    public static Double sum(List<Sample> samples, String name) {
        Double total = null;
        for (Sample s : samples) {
            if (s.name().equals(name)) {
                total = (total == null ? 0 : total) + s.value();
            }
        }
        return total;
    }
}
