package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One event of a streamed response before framing: a JSON object (stamped with {@code x_sent_ns} when stamping is
 * on), or a raw payload such as OpenAI's {@code [DONE]}; Anthropic's events also carry an SSE event name.
 * The JSON object is mutable and belongs to the one request that made it.
 *
 * @param name SSE {@code event:} name, or null for none
 * @param json payload object, or null when {@code raw} is set
 * @param raw  raw payload text (not stamped), or null
 */
record WireEvent(String name, ObjectNode json, String raw) {

    /** @param json payload @return an unnamed JSON event */
    static WireEvent of(ObjectNode json) {
        return new WireEvent(null, json, null);
    }

    /** @param name SSE event name @param json payload @return a named JSON event */
    static WireEvent named(String name, ObjectNode json) {
        return new WireEvent(name, json, null);
    }

    /** @param raw raw payload @return an unnamed raw event */
    static WireEvent raw(String raw) {
        return new WireEvent(null, null, raw);
    }
}
