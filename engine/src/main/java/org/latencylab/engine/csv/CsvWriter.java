package org.latencylab.engine.csv;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

import java.io.Flushable;
import java.io.IOException;
import java.io.Writer;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The one CSV writer of LatencyLab (RFC 4180), over Jackson's CSV generator: every file the engine and the app write
 * as CSV ({@code summary.csv}, a grid's table, a server benchmark's variants and telemetry, the window's request
 * export) goes through it. A row is a list of cells:
 * <ul>
 *   <li>{@code null}: an empty field;</li>
 *   <li>text (any other object, by {@link String#valueOf}): written as is, quoted only when it holds a comma, a
 *       double quote, a CR or a LF (Jackson's strict quoting check), a double quote doubled inside quotes;</li>
 *   <li>{@link #quoted(String)}: always quoted, for columns whose format quotes every value (names).</li>
 * </ul>
 * Numbers are formatted by the caller (a dot as decimal separator, whatever the locale) and passed as text.
 *
 * <p>The writer does not own its target: {@link #flush()} pushes the rows written so far to it, and closing the
 * target is the caller's. Not thread-safe: one thread writes a file.
 */
public final class CsvWriter implements Flushable {
    private static final CsvFactory FACTORY = new CsvFactory();

    /** How each row ends. */
    public enum LineEnd {
        /** {@code \n}. */
        LF("\n"),
        /** {@code \r\n}, the line end RFC 4180 names. */
        CRLF("\r\n");

        private final String chars;

        LineEnd(String chars) {
            this.chars = chars;
        }
    }

    /**
     * A cell that is always written in double quotes.
     *
     * @param text the cell's text, not null
     */
    public record Quoted(String text) {
        /** @throws NullPointerException when {@code text} is null */
        public Quoted {
            Objects.requireNonNull(text, "text");
        }
    }

    private final CsvGenerator generator;

    private CsvWriter(CsvGenerator generator) {
        this.generator = generator;
    }

    /**
     * @param out     where the rows go (not closed by this writer)
     * @param lineEnd how each row ends
     * @return a writer with no rows written yet
     * @throws IOException when the generator cannot be created
     */
    public static CsvWriter to(Writer out, LineEnd lineEnd) throws IOException {
        CsvGenerator g = FACTORY.createGenerator(Objects.requireNonNull(out, "out"));
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        g.enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING);
        g.setSchema(CsvSchema.emptySchema().withLineSeparator(lineEnd.chars));
        return new CsvWriter(g);
    }

    /** @param text a cell's text @return the cell, always quoted when written */
    public static Quoted quoted(String text) {
        return new Quoted(text);
    }

    /**
     * Writes one row.
     *
     * @param cells the row's cells (see the class documentation)
     * @return this writer
     * @throws IOException when writing fails
     */
    public CsvWriter row(Object... cells) throws IOException {
        return row(Arrays.asList(cells));
    }

    /**
     * Writes one row.
     *
     * @param cells the row's cells (see the class documentation)
     * @return this writer
     * @throws IOException when writing fails
     */
    public CsvWriter row(List<?> cells) throws IOException {
        generator.writeStartArray();
        for (Object c : cells) {
            if (c instanceof Quoted q) {
                generator.enable(CsvGenerator.Feature.ALWAYS_QUOTE_STRINGS);
                generator.writeString(q.text());
                generator.disable(CsvGenerator.Feature.ALWAYS_QUOTE_STRINGS);
            } else {
                // an empty string, not writeNull: Jackson leaves out a null that ends a row, an empty string it keeps
                generator.writeString(c == null ? "" : String.valueOf(c));
            }
        }
        generator.writeEndArray();
        return this;
    }

    /**
     * Pushes the rows written so far to the target and flushes it.
     *
     * @throws IOException when writing fails
     */
    @Override
    public void flush() throws IOException {
        generator.flush();
    }
}
