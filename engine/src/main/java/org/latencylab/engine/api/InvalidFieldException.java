package org.latencylab.engine.api;

/**
 * A value that a spec's constructor refused, naming the field that held it, so a reader of a file can point at it:
 * the scenario loader turns {@code field = "rate"} in the first experiment into
 * {@code quick.yaml: field 'experiments[0].rate': load: rate must be > 0 req/s, was -5.0}. Thrown by the compact
 * constructors of the experiment specs and their parts (e.g. a load step's {@code burst}); still an
 * {@link IllegalArgumentException} for every caller that does not care which field it was.
 * Immutable; thread-safe.
 */
public final class InvalidFieldException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The field's name as written in a scenario, relative to the object whose constructor threw. */
    private final String field;

    /**
     * @param field   the field's name as written in a scenario, e.g. {@code rate} or {@code for}; not blank
     * @param message what was wrong, e.g. {@code load: rate must be > 0 req/s, was -5.0}
     * @throws IllegalArgumentException when the field name is blank
     */
    public InvalidFieldException(String field, String message) {
        super(message);
        if (field == null || field.isBlank()) {
            throw new IllegalArgumentException("an invalid field needs its name, was '" + field + "'");
        }
        this.field = field;
    }

    /** @return the field's name as written in a scenario, e.g. {@code rate} */
    public String field() {
        return field;
    }
}
