package org.latencylab.engine.importer;

import org.latencylab.engine.results.RunLayout;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.compare.RunComparison;
import org.latencylab.engine.lens.MetricDefinition;
import org.latencylab.engine.results.RequestLog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Imports the sample result files of sample-data/imports (written in each tool's documented format). */
class ResultImporterTest {
    private static final Path DIR = Path.of(System.getProperty("latencylab.repo.dir", "..")).resolve("sample-data/imports");

    @Test
    void vllmDetailedResultBecomesOneRecordPerRequestWithVllmsLatency(@TempDir Path tmp) throws Exception {
        Path file = DIR.resolve("vllm-bench-serve-detailed.json");
        assertThat(SourceTool.detect(file)).isEqualTo(SourceTool.VLLM_BENCH);
        ImportedRun run = ResultImporter.read(file, null);
        assertThat(run.records()).hasSize(4);
        RequestRecord first = run.records().get(0);
        assertThat(first.ttftNanos() / 1e6).isCloseTo(118.0, within(1e-6));
        // vLLM's latency = TTFT + the sum of the chunk gaps (0.176 s)
        assertThat(first.e2eNanos() / 1e6).isCloseTo(118 + 176, within(1e-6));
        assertThat(first.tokens().size()).isEqualTo(8);
        assertThat(first.tokens().totalTokens()).isEqualTo(8);
        assertThat(first.outputTokens()).isEqualTo(8);
        assertThat(first.inputTokens()).isEqualTo(512);
        assertThat(MetricDefinition.VLLM_BENCH.tpotNanos(first) / 1e6).isCloseTo(176.0 / 7, within(1e-3));
        RequestRecord failed = run.records().get(3);
        assertThat(failed.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(failed.errorKind()).isEqualTo(ErrorKind.HTTP_STATUS);
        assertThat(run.missingMetrics()).contains("ttfb");
        assertThat(run.model()).isEqualTo("example/llama-8b-instruct");

        Path out = ImportWriter.write(run, tmp.resolve("vllm"));
        JsonNode json = new ObjectMapper().readTree(out.resolve("run.json").toFile());
        assertThat(json.path("source_tool").asText()).isEqualTo("vllm-bench");
        assertThat(json.path("missing_metrics").toString()).contains("ttfb");
        assertThat(json.path("summary").path("succeeded").asLong()).isEqualTo(3);
        assertThat(json.path("summary").path("failed").asLong()).isEqualTo(1);
        List<RequestRecord> back = RequestLog.read(out.resolve("requests.jsonl"));
        assertThat(back).hasSize(4);
        assertThat(back.get(0).ttftNanos()).isEqualTo(first.ttftNanos());
        org.latencylab.engine.results.RunDocument info = RunComparison.load(List.of(out),
                org.latencylab.engine.scenario.StepCatalog.types()).get(0);
        assertThat(info.sourceTool()).isEqualTo("vllm-bench");
        assertThat(info.missingMetrics()).contains("ttfb");
        // the median of 118, 112 and 133 ms
        assertThat(RunComparison.percentileMs(info, "ttft", 50)).isCloseTo(118.0, within(1e-6));
    }

    @Test
    void guidellmReportKeepsFirstAndLastTokenTimesAndErrors(@TempDir Path tmp) {
        ImportedRun run = ResultImporter.read(DIR.resolve("guidellm-benchmarks.json"), null);
        assertThat(run.tool()).isEqualTo(SourceTool.GUIDELLM);
        assertThat(run.records()).hasSize(4);
        RequestRecord a1 = run.records().get(0);
        assertThat(a1.ttftNanos() / 1e6).isCloseTo(120.0, within(0.01));
        assertThat(a1.e2eNanos() / 1e6).isCloseTo(320.0, within(0.01));
        assertThat(a1.tokens().size()).isEqualTo(8);
        long lastEvent = a1.tokens().arrivalNanos(7) - a1.sendNanos();
        assertThat(lastEvent / 1e6).isCloseTo(315.0, within(0.01));
        // GuideLLM's own ITL of this request: (last − first token) / (tokens − 1) = 195 / 7 ms
        assertThat(MetricDefinition.GUIDELLM.itlNanos(a1)[0] / 1e6).isCloseTo(195.0 / 7, within(0.01));
        assertThat(MetricDefinition.GUIDELLM.tpotNanos(a1) / 1e6).isCloseTo(315.0 / 8, within(0.01));
        RequestRecord a4 = run.records().get(3);
        assertThat(a4.errorKind()).isEqualTo(ErrorKind.RATE_LIMITED);
        assertThat(a4.sendNanos() / 1e9).isCloseTo(1.0, within(1e-6));
        ImportWriter.write(run, tmp.resolve("g"));
        assertThat(Files.exists(tmp.resolve("g/run.json"))).isTrue();
    }

    @Test
    void aiperfExportKeepsChunksAndErrors() {
        ImportedRun run = ResultImporter.read(DIR.resolve("aiperf-profile_export.jsonl"), null);
        assertThat(run.tool()).isEqualTo(SourceTool.AIPERF);
        assertThat(run.records()).hasSize(3);
        RequestRecord r0 = run.records().get(0);
        assertThat(r0.ttftNanos() / 1e6).isCloseTo(110.0, within(1e-6));
        assertThat(r0.e2eNanos() / 1e6).isCloseTo(300.0, within(1e-6));
        assertThat(r0.tokens().size()).isEqualTo(8);
        assertThat(r0.tokens().itlNanos(false)[0] / 1e6).isCloseTo(27.0, within(1e-6));
        // AIPerf's own ITL: (300 − 110) / (8 − 1)
        assertThat(MetricDefinition.AIPERF.itlNanos(r0)[0] / 1e6).isCloseTo(190.0 / 7, within(1e-3));
        assertThat(run.records().get(1).sendNanos() / 1e6).isCloseTo(310.0, within(1e-6));
        RequestRecord r2 = run.records().get(2);
        assertThat(r2.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r2.httpStatus()).isEqualTo(500);
        assertThat(r2.errorMessage()).contains("Internal Server Error");
    }

    @Test
    void malformedFilesNameTheFileAndTheField(@TempDir Path tmp) throws Exception {
        Path v = tmp.resolve("bad.json");
        Files.writeString(v, "{\"ttfts\": [0.1, 0.2], \"itls\": [[0.01]], \"output_lens\": [2, 2]}");
        assertThatThrownBy(() -> ResultImporter.read(v, null)).hasMessageContaining("bad.json")
                .hasMessageContaining("'ttfts', 'itls' and 'output_lens'");
        Path a = tmp.resolve("bad.jsonl");
        Files.writeString(a, "{\"metadata\": {}, \"metrics\": {}}\n");
        assertThatThrownBy(() -> ResultImporter.read(a, null)).hasMessageContaining("bad.jsonl:1")
                .hasMessageContaining("metadata.request_start_ns");
        Path notJson = tmp.resolve("notes.json");
        Files.writeString(notJson, "# not json\n");
        assertThatThrownBy(() -> ResultImporter.read(notJson, SourceTool.VLLM_BENCH))
                .hasMessageStartingWith(notJson + ": not JSON at line 1, column 1: Unexpected character ('#'")
                .hasMessageNotContaining("Source").hasMessageNotContaining("StreamReadFeature");
        Path notJsonLines = tmp.resolve("notes.jsonl");
        Files.writeString(notJsonLines, "# not json\n");
        assertThatThrownBy(() -> ResultImporter.read(notJsonLines, SourceTool.AIPERF))
                .hasMessageStartingWith(notJsonLines + ":1: not JSON: Unexpected character ('#'")
                .hasMessageNotContaining("Source").hasMessageNotContaining("StreamReadFeature");
        Path multiLine = tmp.resolve("object.json");
        Files.writeString(multiLine, "{\n  \"benchmarks\": []\n}\n");
        assertThatThrownBy(() -> ResultImporter.read(multiLine, SourceTool.AIPERF))
                .hasMessageStartingWith(multiLine + ":1: not JSON: Unexpected end-of-input")
                .hasMessageContaining("line 1, column 1").hasMessageNotContaining("Source");
        Path u = tmp.resolve("other.json");
        Files.writeString(u, "{\"x\": 1}");
        assertThatThrownBy(() -> SourceTool.detect(u)).hasMessageContaining("--tool");
        // a directory that already holds a run is refused, as by 'run'; --overwrite replaces that run
        ImportedRun aiperf = ResultImporter.read(DIR.resolve("aiperf-profile_export.jsonl"), SourceTool.AIPERF);
        Path into = ImportWriter.write(aiperf, tmp.resolve("imported"));
        assertThatThrownBy(() -> ImportWriter.write(aiperf, into)).hasMessageContaining("already holds a run")
                .hasMessageContaining("--overwrite");
        ImportWriter.write(aiperf, into, true);
        assertThat(RequestLog.read(into.resolve(RunLayout.REQUESTS_JSONL))).hasSize(aiperf.records().size());
    }
}
