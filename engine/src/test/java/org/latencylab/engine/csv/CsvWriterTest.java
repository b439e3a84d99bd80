package org.latencylab.engine.csv;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CsvWriterTest {
    @Test
    void textIsQuotedOnlyWhereRfc4180NeedsItAndEmptyCellsSurviveAtTheEndOfARow() throws Exception {
        StringWriter out = new StringWriter();
        CsvWriter w = CsvWriter.to(out, CsvWriter.LineEnd.LF);
        w.row("step", "metric", "count");
        w.row("rate=200,contextTokens=512", "ttft", 12, null);
        w.row("say \"hi\"", "two\nlines", "a b", "#1", null, null);
        w.flush();
        assertThat(out.toString()).isEqualTo("step,metric,count\n"
                + "\"rate=200,contextTokens=512\",ttft,12,\n"
                + "\"say \"\"hi\"\"\",\"two\nlines\",a b,#1,,\n");
    }

    @Test
    void aQuotedCellIsAlwaysQuotedAndTheNextCellIsNot() throws Exception {
        StringWriter out = new StringWriter();
        CsvWriter w = CsvWriter.to(out, CsvWriter.LineEnd.CRLF);
        w.row(0, CsvWriter.quoted("sim A100"), "ok", 1.5);
        w.row(CsvWriter.quoted(""), "x");
        w.flush();
        assertThat(out.toString()).isEqualTo("0,\"sim A100\",ok,1.5\r\n\"\",x\r\n");
    }

    @Test
    void whatItWritesReadsBackCellForCell() throws Exception {
        List<String> cells = List.of("plain", "comma,inside", "quote\"inside", "line\r\nbreak", "", " spaced ");
        StringWriter out = new StringWriter();
        CsvWriter.to(out, CsvWriter.LineEnd.CRLF).row(cells).flush();
        CsvMapper mapper = new CsvMapper();
        mapper.enable(CsvParser.Feature.WRAP_AS_ARRAY);
        try (MappingIterator<String[]> rows = mapper.readerFor(String[].class).readValues(out.toString())) {
            assertThat(Arrays.asList(rows.next())).containsExactlyElementsOf(cells);
            assertThat(rows.hasNext()).isFalse();
        }
    }
}
