package org.latencylab.app.report.treefixture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.latencylab.engine.results.RunFiles;
import org.latencylab.engine.results.RunLayout;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Breaks the rules of {@code RunJsonReadingArchitectureTest} on purpose (a test checks that they catch it): a
 * report class that reads a run's {@code run.json} as a JSON tree and picks a key out of it.
 */
public final class ReportThatReadsRunJsonAsATree {
    private ReportThatReadsRunJsonAsATree() {
    }

    /** @return the run's status, read by key from the tree */
    public static String status(Path dir) throws IOException {
        JsonNode n = new ObjectMapper().readTree(RunLayout.runJson(dir).toFile());
        return n.path("status").asText();
    }

    /** @return the run's name, read by key from the engine's tree reader */
    public static String name(Path dir) {
        return RunFiles.readRunJson(dir).path("name").asText();
    }
}
