package org.latencylab.engine.sim;

/**
 * A request body the simulator refuses with HTTP 400; the message says what was wrong and is sent to the client
 * in the protocol's error format.
 */
final class BadRequestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The request field at fault, or null. */
    private final String param;

    /** @param param the field at fault, or null @param message what was wrong */
    BadRequestException(String param, String message) {
        super(message);
        this.param = param;
    }

    /** @return the field at fault, or null */
    String param() {
        return param;
    }
}
