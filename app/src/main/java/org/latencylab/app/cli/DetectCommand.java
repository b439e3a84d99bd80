package org.latencylab.app.cli;

import org.latencylab.engine.client.EndpointChecks;
import org.latencylab.engine.client.EndpointDetector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code latencylab detect BASE_URL}: which LLM API answers at a base URL, and which model to ask for. */
@Command(name = "detect", mixinStandardHelpOptions = true,
        description = {"Find out which LLM API a base URL speaks and propose a model.",
                "%nTries GET /v1/models (OpenAI-compatible), /api/tags (Ollama) and /info (TGI); when nothing"
                        + " answers, lists each URL tried and what it answered. Exit status 1 when no API was found."})
final class DetectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "BASE_URL", description = "e.g. http://127.0.0.1:8000")
    String baseUrl;

    @Option(names = "--api-key-env", paramLabel = "VAR", description = "environment variable holding the API key")
    String apiKeyEnv;

    @Option(names = "--timeout", defaultValue = "5s", description = "time allowed per probe (default: ${DEFAULT-VALUE})")
    String timeout;

    @Override
    public Integer call() {
        if (!baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) {
            throw new IllegalArgumentException("BASE_URL must start with http:// or https://, was '" + baseUrl + "'");
        }
        Duration t;
        try {
            t = org.latencylab.engine.run.DurationText.parse(timeout);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--timeout: " + e.getMessage(), e);
        }
        if (t.isZero()) {
            throw new IllegalArgumentException("--timeout must be more than 0, was '" + timeout + "'");
        }
        String keyProblem = EndpointChecks.keyProblem(apiKeyEnv, System::getenv);
        if (!keyProblem.isEmpty()) {
            throw new IllegalArgumentException("--api-key-env " + apiKeyEnv.strip() + ": " + keyProblem);
        }
        EndpointChecks.BaseUrl base = EndpointChecks.baseUrl(baseUrl);
        if (base.stripped()) {
            spec.commandLine().getErr().println("latencylab: " + base.notice());
            spec.commandLine().getErr().flush();
        }
        try (EndpointDetector d = new EndpointDetector(t, System::getenv)) {
            EndpointDetector.Detection found = d.detect(base.url(), apiKeyEnv);
            var out = spec.commandLine().getOut();
            out.println(found.report());
            if (found.found() && found.models().size() > 1) {
                out.println("models: " + String.join(", ", found.models()));
            }
            out.flush();
            return found.found() ? ExitCodes.OK : ExitCodes.SLO_FAILED;
        }
    }
}
