package org.latencylab.engine.client;

import java.io.IOException;

/**
 * The response cannot be read as the protocol's stream format (wrong content type, broken framing).
 * Classified as {@link org.latencylab.engine.api.ErrorKind#PROTOCOL}. Thrown by adapters only.
 */
final class StreamFormatException extends IOException {
    /** @param message what was wrong, naming the input */
    StreamFormatException(String message) {
        super(message);
    }
}
