package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * One wire protocol as the simulator speaks it: how a request body is read and how the response events look.
 * The timing (queue, prefill, decode, faults) is the same for every dialect and lives in {@link SimHandler}.
 * Implementations are stateless and thread-safe; per-request state is in {@link Turn}.
 */
interface Dialect {

    /** Kinds of error answers. */
    enum ErrorKind { INVALID_REQUEST, RATE_LIMITED, SERVER_ERROR, NOT_FOUND }

    /** @return the framing of streamed responses */
    Framing framing();

    /** @return the prefix of response ids, e.g. {@code chatcmpl-} */
    String idPrefix();

    /** @return whether reasoning output exists in this protocol */
    boolean reasoning();

    /**
     * @param body the parsed JSON body
     * @return the request
     * @throws BadRequestException when a field is missing or malformed
     */
    SimRequest parse(JsonNode body);

    /** @param t the turn @return events sent right after the headers of a stream (may be empty) */
    List<WireEvent> opening(Turn t);

    /**
     * @param t         the turn; its text already includes this piece
     * @param piece     the token
     * @param reasoning whether it is a reasoning token
     * @param last      whether it is the last output token
     * @return the events carrying it (block switches included)
     */
    List<WireEvent> token(Turn t, WordSource.Piece piece, boolean reasoning, boolean last);

    /** @param t the turn @return events after the last token, end marker included */
    List<WireEvent> closing(Turn t);

    /** @param t the finished turn @return the body of a non-streamed answer */
    ObjectNode whole(Turn t);

    /**
     * @param status  HTTP status
     * @param kind    error kind
     * @param message what happened
     * @param param   the request field at fault, or null
     * @return the error body in this protocol's shape
     */
    ObjectNode error(int status, ErrorKind kind, String message, String param);

    /** @return a new empty JSON object */
    static ObjectNode object() {
        return EventWriter.JSON.createObjectNode();
    }
}
