package org.latencylab.app.cli;

import org.latencylab.app.Defaults;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.run.DurationText;
import org.latencylab.engine.client.EndpointChecks;
import org.latencylab.engine.client.EndpointDetector;
import org.latencylab.engine.sim.SimProfile;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Options shared by {@code probe} and {@code sweep}: what to measure and where to write it. */
final class TargetOptions {
    @Option(names = "--url", paramLabel = "BASE_URL",
            description = "endpoint base URL, e.g. http://127.0.0.1:8000; an API path pasted with it (/v1/chat/completions"
                    + " and the like) is taken off, and the console says so (default: the built-in simulator)")
    String url;

    @Option(names = "--protocol", paramLabel = "PROTOCOL", defaultValue = "openai-chat",
            description = "openai-chat, openai-completions, anthropic-messages, ollama-chat, ollama-generate, "
                    + "tgi-generate, kserve-grpc (default: ${DEFAULT-VALUE})")
    String protocol;

    @Option(names = "--model", paramLabel = "MODEL", defaultValue = "",
            description = "model name sent in requests (default with --url: the model the server lists, found as "
                    + "`detect` does)")
    String model;

    @Option(names = "--api-key-env", paramLabel = "VAR",
            description = "environment variable that holds the API key (the key itself is never written anywhere);"
                    + " refused before anything is sent when it is not set or empty")
    String apiKeyEnv;

    @Option(names = "--sim", paramLabel = "PROFILE", defaultValue = Defaults.SIM_PROFILE,
            description = "simulator profile name or file when no --url is given (default: ${DEFAULT-VALUE})")
    String simProfile;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "300s",
            description = "total timeout per request, e.g. 30s; 0 = no limit (default: ${DEFAULT-VALUE})")
    String timeout;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "0",
            description = "retries after 429/5xx with backoff, honouring Retry-After (default: ${DEFAULT-VALUE})")
    int retries;

    @Option(names = "--cold-connections",
            description = "no connections are opened for the measurement: a worker's first measured request opens "
                    + "its connection (connect/TLS time inside its TTFT and E2E) and its later ones reuse it, as does "
                    + "one that finds a connection a probe's unrecorded warm-up request left; "
                    + "by default as many connections as requests in flight are opened before measuring, each with "
                    + "one unrecorded 1-token generation request (billed like any request on a paid API)")
    boolean coldConnections;

    @Option(names = "--trace",
            description = "every request carries a W3C traceparent header (new trace and span id each), kept as"
                    + " trace_id and span_id in requests.jsonl; a tracestate header of the endpoint is passed through")
    boolean trace;

    @Option(names = {"-o", "--out"}, paramLabel = "DIR", description = "run directory (default: runs/<timestamp>-<name>)")
    Path out;

    @Option(names = "--overwrite",
            description = "replace the run already in --out (its run files are deleted first); without it such a"
                    + " directory is refused")
    boolean overwrite;

    @Option(names = "--no-charts", description = "do not render PNG charts")
    boolean noCharts;

    /**
     * @param err where to say which model was detected when {@code --url} came without {@code --model}
     * @return what to measure
     * @throws IllegalArgumentException on a bad option, when {@code --api-key-env} names a variable that is not set
     *                                  or empty, when {@code --out} already holds a run and {@code --overwrite}
     *                                  was not given, or when {@code --url} came without {@code --model} and the
     *                                  server lists no model; the message names the option or the file found
     */
    TargetSpec target(java.io.PrintWriter err) {
        client(); // the client options are checked before the endpoint is asked for its model
        if (out != null) {
            // and so is --out: a run already there is refused before anything is sent or said about the endpoint
            org.latencylab.engine.results.RunDirectory.refuseEarlierRun(out, overwrite);
        }
        Protocol p;
        try {
            p = Protocol.fromId(protocol);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--protocol: " + e.getMessage(), e);
        }
        if (url == null) {
            if (p != Protocol.OPENAI_CHAT) {
                throw new IllegalArgumentException("--protocol " + protocol + " needs --url; the built-in simulator is "
                        + "measured over openai-chat (start 'latencylab sim' and pass its URL to measure another protocol)");
            }
            try {
                SimProfile.resolve(simProfile);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--sim: " + e.getMessage(), e);
            }
            return TargetSpec.simulator(simProfile);
        }
        String keyProblem = EndpointChecks.keyProblem(apiKeyEnv, System::getenv);
        if (!keyProblem.isEmpty()) {
            // refused before anything is sent: against a paid API a run without its key is a screen of 401s
            throw new IllegalArgumentException("--api-key-env " + apiKeyEnv.strip() + ": " + keyProblem);
        }
        EndpointChecks.BaseUrl base = EndpointChecks.baseUrl(url);
        if (base.stripped()) {
            err.println("latencylab: --url: " + base.notice());
            err.flush();
        }
        url = base.url();
        String m = model == null ? "" : model.strip();
        if (m.isEmpty()) {
            m = detectModel(err);
        }
        try {
            return TargetSpec.of(new Endpoint("endpoint", p, url, m, apiKeyEnv, Map.of(), true));
        } catch (IllegalArgumentException e) {
            // the endpoint has no name of its own here: "--url: baseUrl ..." rather than "--url: endpoint 'endpoint': ..."
            throw new IllegalArgumentException("--url: " + e.getMessage().replaceFirst("^endpoint 'endpoint': ", ""), e);
        }
    }

    private String detectModel(java.io.PrintWriter err) {
        EndpointDetector.Detection d;
        try (EndpointDetector detector = new EndpointDetector(java.time.Duration.ofSeconds(5), System::getenv)) {
            d = detector.detect(url, apiKeyEnv);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--url: " + e.getMessage(), e);
        }
        if (d.stopped()) {
            throw new IllegalArgumentException(url + ": " + d.stopReason() + "; so no model could be found there:"
                    + " check --url" + (d.probes().get(0).status() == 0 ? "" : " and --api-key-env")
                    + ", or give --model NAME to send anyway");
        }
        if (d.proposedModel().isEmpty()) {
            boolean unreachable = !d.probes().isEmpty() && d.probes().stream().allMatch(pr -> pr.status() == 0);
            if (unreachable) {
                throw new IllegalArgumentException(url + " did not answer (" + d.probes().get(0).answer()
                        + "), so no model could be found there; check --url, or give --model NAME to send anyway");
            }
            throw new IllegalArgumentException("--model is needed: " + url + " lists no model ("
                    + d.report().replace(":\n  ", ": ").replace("\n  ", "; ") + "); give --model NAME");
        }
        err.println("latencylab: no --model given; using '" + d.proposedModel() + "', the model " + url
                + " lists" + (d.models().size() > 1 ? " first of " + d.models().size() : "")
                + " (give --model to choose)");
        err.flush();
        return d.proposedModel();
    }

    ClientOptions client() {
        java.time.Duration total;
        try {
            total = DurationText.parse(timeout);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--timeout: " + e.getMessage(), e);
        }
        if (retries < 0) {
            throw new IllegalArgumentException("--retries must be >= 0, was " + retries);
        }
        return ClientOptions.DEFAULTS.withTotalTimeout(total).withMaxRetries(retries)
                .withColdConnections(coldConnections).withTrace(trace);
    }

    /**
     * @param slos SLO texts {@code METRIC:PERCENTILE:MS} (probe's {@code --slo})
     * @return the judging settings: the default tier table and those SLOs
     */
    static StatsSettings stats(List<String> slos) {
        List<org.latencylab.engine.stats.Slo> list = slos.stream().map(TargetOptions::slo).toList();
        return new StatsSettings(null, null, list);
    }

    private static org.latencylab.engine.stats.Slo slo(String text) {
        String[] p = text.split(":");
        if (p.length != 3) {
            throw new IllegalArgumentException("--slo must look like METRIC:PERCENTILE:MS, e.g. ttft:95:500, was '"
                    + text + "'");
        }
        String ms = p[2].strip();
        try {
            // the threshold is in milliseconds; "500ms" says so too and is read the same (a duration such as "1s" is
            // read as one: 1,000 ms)
            double threshold = ms.matches("[0-9.]+") ? Double.parseDouble(ms)
                    : DurationText.parse(ms).toNanos() / 1e6;
            return org.latencylab.engine.stats.Slo.ofMillis(p[0], Double.parseDouble(p[1]), threshold);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--slo '" + text + "': the percentile must be a number and the"
                    + " threshold milliseconds (500) or a duration (500ms, 1.5s)");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--slo '" + text + "': " + e.getMessage(), e);
        }
    }
}
