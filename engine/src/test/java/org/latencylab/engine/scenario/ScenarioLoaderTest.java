package org.latencylab.engine.scenario;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.experiment.SweepSpec;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScenarioLoaderTest {
    private static RunSpec parse(String yaml) {
        return StepCatalog.loader().parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "s.yaml");
    }

    private static String error(String yaml) {
        try {
            parse(yaml);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected an error for:\n" + yaml);
    }

    @Test
    void readsEveryShippedScenario() throws Exception {
        Path dir = Path.of(System.getProperty("latencylab.repo.dir", "..")).resolve("sample-data/scenarios");
        List<Path> files;
        try (var s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        for (Path f : files) {
            RunSpec spec = StepCatalog.loader().load(f);
            assertThat(spec.experiments()).as(f.toString()).isNotEmpty();
        }
    }

    @Test
    void theReadmeExamplesAreValidScenarios() throws Exception {
        String readme = Files.readString(Path.of(System.getProperty("latencylab.repo.dir", "..")).resolve("README.md"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("```yaml\\n(.*?)```", java.util.regex.Pattern.DOTALL)
                .matcher(readme);
        int blocks = 0;
        while (m.find()) {
            String yaml = m.group(1);
            if (!yaml.contains("endpoint:")) {
                yaml = "name: readme\nendpoint: {builtin: sim}\n" + yaml;
            }
            RunSpec spec = parse(yaml);
            assertThat(spec.experiments()).as("README block %d", blocks).isNotEmpty();
            blocks++;
        }
        assertThat(blocks).as("yaml blocks in the README").isGreaterThanOrEqualTo(2);
    }

    @Test
    void quickstartHasTheDocumentedShape() {
        Path f = Path.of(System.getProperty("latencylab.repo.dir", "..")).resolve("sample-data/scenarios/quickstart.yaml");
        RunSpec spec = StepCatalog.loader().load(f);
        assertThat(spec.target().isSimulator()).isTrue();
        assertThat(spec.experiments().get(0)).isInstanceOf(ProbeSpec.class);
        assertThat(((ProbeSpec) spec.experiments().get(0)).requests()).isEqualTo(100);
        SweepSpec sweep = (SweepSpec) spec.experiments().get(1);
        assertThat(sweep.contextTokens()).containsExactly(2048, 8192, 32768);
        assertThat(sweep.requestsPerLength()).isEqualTo(20);
    }

    @Test
    void readsEndpointClientAndDefaults() {
        RunSpec spec = parse("""
                name: x
                endpoint: {name: v, protocol: openai-completions, baseUrl: "http://127.0.0.1:9/", model: m, apiKeyEnv: KEY}
                client: {totalTimeout: 15s, maxRetries: 2, idleTimeout: 500ms}
                slos: [{metric: ttft, percentile: 95, maxMs: 300}]
                experiments:
                  - {type: probe}
                """);
        assertThat(spec.target().endpoint().protocol()).isEqualTo(Protocol.OPENAI_COMPLETIONS);
        assertThat(spec.target().endpoint().baseUrl()).isEqualTo("http://127.0.0.1:9");
        assertThat(spec.target().endpoint().apiKeyEnv()).isEqualTo("KEY");
        assertThat(spec.client().totalTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(spec.client().idleTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(spec.client().maxRetries()).isEqualTo(2);
        assertThat(spec.stats().slos()).hasSize(1);
        ProbeSpec p = (ProbeSpec) spec.experiments().get(0);
        assertThat(p.requests()).isEqualTo(100);
        assertThat(p.concurrency()).isEqualTo(1);
    }

    @Test
    void namesFileAndFieldOfEveryMistake() {
        String base = "name: x\nendpoint: {builtin: sim}\n";
        assertThat(error(base + "experiments: [{type: probe, concurency: 3}]"))
                .startsWith("s.yaml: ").contains("experiments[0].concurency").contains("unknown").contains("concurrency");
        assertThat(error(base + "experiments: [{type: probe, concurrency: 0}]"))
                .startsWith("s.yaml: ").contains("experiments[0]").contains("concurrency must be >= 1, was 0");
        assertThat(error(base + "experiments: [{type: probe, requests: many}]"))
                .startsWith("s.yaml: ").contains("experiments[0].requests");
        assertThat(error(base + "experiments: [{type: teleport}]"))
                .contains("experiments[0].type").contains("teleport").contains("probe");
        assertThat(error(base + "experiments: []")).contains("'experiments'");
        assertThat(error(base + "experimnts: [{type: probe}]")).contains("'experimnts' is unknown");
        assertThat(error("name: x\nendpoint: {bultin: sim, profile: small-fast}\nexperiments: [{type: probe}]"))
                .contains("field 'endpoint.bultin' is unknown").contains("[builtin, profile, stamping]")
                .contains("baseUrl");
        assertThat(error("name: x\nendpoint: {profile: small-fast}\nexperiments: [{type: probe}]"))
                .contains("field 'endpoint.profile' is a field of the built-in simulator").contains("builtin: sim");
        assertThat(error("name: x\nendpoint: {builtin: sim, profle: small-fast}\nexperiments: [{type: probe}]"))
                .contains("field 'endpoint.profle' is unknown").contains("profile");
        assertThat(error(base + "client: {totalTimeout: soon}\nexperiments: [{type: probe}]"))
                .contains("client.totalTimeout").contains("15s");
        assertThat(error("name: x\nendpoint: {name: a, protocol: grpc-magic, baseUrl: http://h}\nexperiments: [{type: probe}]"))
                .contains("endpoint.protocol").contains("openai-chat");
        assertThat(error("name: x\nendpoint: {name: a, protocol: openai-chat, baseUrl: ftp://h}\nexperiments: [{type: probe}]"))
                .contains("baseUrl").contains("http");
        assertThat(error("name: x\nexperiments: [{type: probe}]")).contains("'endpoint' is missing");
        assertThat(error(base + "slos: [{metric: ttft, percentile: 120, maxMs: 5}]\nexperiments: [{type: probe}]"))
                .contains("percentile");
        assertThat(error(base + "format: 2\nexperiments: [{type: probe}]")).contains("'format' must be 1");
        assertThat(error("name: [unclosed\n")).contains("not valid YAML").contains("line");
        // one place, the parser's own, not the enclosing node's line beside the parser's text
        assertThat(error("format: 1\nname: x\nexperiments: [\n  - type: probe\n"))
                .contains("not valid YAML at line 4, column 3: expected the node content, but found '-'")
                .doesNotContain("reader").doesNotContain("^");
        assertThat(error(base + "experiments: [{type: probe, requests: lots}]"))
                .contains("field 'experiments[0].requests' must be a whole number, was \"lots\"");
        assertThat(error(base + "slos: [{metric: ttft, percentile: 95, maxMs: 1200ms}]\nexperiments: [{type: probe}]"))
                .contains("slos[0].maxMs").contains("a number");
        // a misspelt field of a record whose correct twin is required is named as unknown, not as the twin missing
        assertThat(error(base + "slos: [{metric: ttft, percentile: 95, maxMS: 100}]\nexperiments: [{type: probe}]"))
                .startsWith("s.yaml: ").contains("field 'slos[0].maxMS' is unknown")
                .contains("[maxMs, metric, percentile]").doesNotContain("null");
        assertThat(error(base + "experiments: [{type: load, rate: 5, duration: 2s, slos: [{metric: ttft, maxMS: 100}]}]"))
                .contains("field 'experiments[0].slos[0].maxMS' is unknown").contains("maxMs");
        assertThat(error(base + "slos: [{metric: ttft, percentile: 150, maxMs: 5}]\nexperiments: [{type: probe}]"))
                .contains("slos[0]").contains("percentile must be in (0, 100]");
        assertThat(error(base + "slos: [{metric: ttftt, percentile: 95, maxMs: 100}]\nexperiments: [{type: probe}]"))
                .contains("slos[0]").contains("unknown metric 'ttftt'").contains("e2e");
        assertThat(error(base + "tierMetric: ttftx\nexperiments: [{type: probe}]"))
                .contains("tierMetric").contains("unknown metric 'ttftx'");
        assertThat(error(base + "slos: [{metric: ttft, percentile: 95, maxMs: 100}]\nexperiments: [{type: probe, stream: false}]"))
                .contains("experiments[0] does not stream").contains("'ttft'");
        // a load step's own SLOs are judged too, so one on a metric a non-streaming step cannot time is refused
        assertThat(error(base + "experiments: [{type: load, concurrency: 2, duration: 2s, stream: false,"
                + " slos: [{metric: e2e, maxMs: 900}, {metric: tpot, percentile: 90, maxMs: 50}]}]"))
                .startsWith("s.yaml: ").contains("experiments[0].slos[1]").contains("does not stream")
                .contains("'tpot'");
        assertThat(error("name: x\nname: y\nendpoint: {builtin: sim}\nexperiments: [{type: probe}]"))
                .contains("Duplicate field 'name'");
        assertThat(error("name: x\nendpoint: {builtin: sim, profile: llama-9b}\nexperiments: [{type: probe}]"))
                .contains("field 'endpoint.profile'").contains("llama-9b").contains("llama-8b-class");
        assertThat(error("name: x\nendpoint: {builtin: sim, profile: nothere/p.yaml}\nexperiments: [{type: probe}]"))
                .contains("field 'endpoint.profile'").contains("does not exist");
    }

    @Test
    void aValueASpecRefusesIsReportedAtItsFieldNotAtTheStep() {
        String base = "name: x\nendpoint: {builtin: sim}\nexperiments:\n  - {type: load, ";
        java.util.Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("rate: -5, duration: 2s", "experiments[0].rate': load: rate must be > 0 req/s, was -5.0");
        cases.put("rate: 5, requests: -1", "experiments[0].requests': load: requests must be >= 1, was -1");
        cases.put("rate: 5, duration: 2s, maxInFlight: -2", "experiments[0].maxInFlight'");
        cases.put("rate: 5, duration: 2s, maxRateRps: -1", "experiments[0].maxRateRps'");
        cases.put("rate: 5, duration: 2s, contextTokens: 0", "experiments[0].contextTokens'");
        cases.put("rate: 5, duration: 2s, maxOutputTokens: -4", "experiments[0].maxOutputTokens'");
        cases.put("rate: 5, duration: 2s, arrival: gamma, shape: -1", "experiments[0].shape'");
        cases.put("concurrency: 0, duration: 2s", "experiments[0].concurrency'");
        cases.put("rate: 5, duration: 0s", "experiments[0].duration'");
        cases.put("burst: {base: 5, peak: -1, at: 1s, for: 1s}, duration: 3s", "experiments[0].burst.peak'");
        cases.put("ramp: {from: 1, to: 5, over: 0s}, duration: 3s", "experiments[0].ramp.over'");
        cases.put("phases: [{rate: -2, for: 1s}], duration: 3s", "experiments[0].phases[0].rate'");
        cases.put("rate: 5, duration: 2s, autoStop: {minSamples: 0}", "experiments[0].autoStop.minSamples'");
        cases.forEach((fields, expected) -> assertThat(error(base + fields + "}\n")).as(fields)
                .startsWith("s.yaml: field '").contains(expected));
        String other = "name: x\nendpoint: {builtin: sim}\nexperiments: ";
        assertThat(error(other + "[{type: probe, concurrency: 0}]"))
                .contains("field 'experiments[0].concurrency': concurrency must be >= 1, was 0");
        assertThat(error(other + "[{type: sweep, contextTokens: [2048, -1]}]"))
                .contains("field 'experiments[0].contextTokens'");
        assertThat(error(other + "[{type: probe}, {type: grid, rowAxis: rate, rowValues: [-3], contextTokens: [64],"
                + " cellRequests: 5}]")).contains("field 'experiments[1].rowValues'");
    }

    @Test
    void aStepLabelIsRefusedAtItsFieldWithTheNameTheStepGets() {
        String base = "name: x\nendpoint: {builtin: sim}\nexperiments:\n";
        // a load step, as any other kind: the name is derived from the type and the place among steps of that type
        assertThat(error(base + "  - {type: load, rate: 5, duration: 2s}\n"
                + "  - {type: load, label: warm, concurrency: 2, duration: 2s}\n"))
                .startsWith("s.yaml: field 'experiments[1].label': a step cannot be given a label;")
                .contains("this one 'load2'").contains("remove the field");
        assertThat(error(base + "  - {type: probe, label: quick, requests: 2}\n"))
                .startsWith("s.yaml: field 'experiments[0].label': a step cannot be given a label;")
                .contains("this one 'probe'");
        // the names a run gives its steps are the ones the message promises
        assertThat(parse(base + "  - {type: load, rate: 5, duration: 2s}\n"
                + "  - {type: load, concurrency: 2, duration: 2s}\n").stepLabels()).containsExactly("load", "load2");
    }

    @Test
    void missingFileIsNamed(@TempDir Path dir) {
        Path f = dir.resolve("nope.yaml");
        assertThatThrownBy(() -> StepCatalog.loader().load(f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nope.yaml").hasMessageContaining("no such scenario file");
    }

    @Test
    void aMalformedFileIsNamedByThePathItWasGiven(@TempDir Path dir) throws Exception {
        // two scenarios of the same name in different folders: the message must say which one
        Path f = Files.createDirectories(dir.resolve("team-a")).resolve("s.yaml");
        Files.writeString(f, "format: 1\nname: x\nendpoint: {builtin: sim, profile: zero-latency}\n"
                + "experiments:\n  - {type: probe, requests: 5, concurency: 2}\n");
        assertThatThrownBy(() -> StepCatalog.loader().load(f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(f + ": field 'experiments[0].concurency' is unknown");
        // a folder given for a scenario says so, without an exception's name
        assertThatThrownBy(() -> StepCatalog.loader().load(f.getParent())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(f.getParent() + ": is a directory, not a scenario file");
    }

    @Test
    void readsJsonToo(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("s.json");
        Files.writeString(f, """
                {"name": "j", "endpoint": {"builtin": "sim", "profile": "small-fast"},
                 "experiments": [{"type": "sweep", "contextTokens": [100, 200, 400], "requestsPerLength": 3}]}
                """);
        RunSpec spec = StepCatalog.loader().load(f);
        assertThat(spec.target().simProfile()).isEqualTo("small-fast");
        assertThat(((SweepSpec) spec.experiments().get(0)).contextTokens()).containsExactly(100, 200, 400);
    }
}
