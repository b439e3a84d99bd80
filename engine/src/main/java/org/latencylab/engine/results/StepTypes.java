package org.latencylab.engine.results;

import com.fasterxml.jackson.databind.JsonNode;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.StepResult;

/**
 * What a reader of run directories needs to know about step types, given by the one composition root that lists
 * them ({@code org.latencylab.engine.scenario.StepCatalog}). Implementations are thread-safe.
 */
public interface StepTypes {
    /**
     * @param file what to name in errors
     * @param at   field path to name in errors, e.g. {@code "spec.experiments[1]"}
     * @param node an experiment's fields, {@code type} included
     * @return the spec
     * @throws IllegalArgumentException when the type is unknown or a field is malformed
     */
    ExperimentSpec spec(String file, String at, JsonNode node);

    /**
     * @param type a step type, e.g. {@code "sweep"}
     * @return the record class its runner returns (Jackson-readable), or null when unknown
     */
    Class<? extends StepResult> resultType(String type);
}
