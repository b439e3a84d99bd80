package org.latencylab.engine.link;

/**
 * What passed through a {@link LinkEmulator}: bytes, TCP segments and loss stalls per direction, and connections
 * opened. A snapshot (immutable, thread-safe); subtract two with {@link #minus} to get the traffic between them.
 *
 * @param connections  client connections accepted
 * @param bytesUp      payload bytes client → server
 * @param bytesDown    payload bytes server → client
 * @param segmentsUp   segments (of at most the profile's segment size) client → server
 * @param segmentsDown segments server → client
 * @param stallsUp     lost segments client → server (each delayed by the retransmission timeout)
 * @param stallsDown   lost segments server → client
 */
public record LinkTraffic(long connections, long bytesUp, long bytesDown, long segmentsUp, long segmentsDown,
                          long stallsUp, long stallsDown) {

    /** Nothing passed. */
    public static final LinkTraffic NONE = new LinkTraffic(0, 0, 0, 0, 0, 0, 0);

    /** @param earlier an earlier snapshot of the same emulator @return the traffic since then */
    public LinkTraffic minus(LinkTraffic earlier) {
        return new LinkTraffic(connections - earlier.connections, bytesUp - earlier.bytesUp,
                bytesDown - earlier.bytesDown, segmentsUp - earlier.segmentsUp, segmentsDown - earlier.segmentsDown,
                stallsUp - earlier.stallsUp, stallsDown - earlier.stallsDown);
    }

    /** @param other traffic of another emulator or interval @return the sum */
    public LinkTraffic plus(LinkTraffic other) {
        return new LinkTraffic(connections + other.connections, bytesUp + other.bytesUp,
                bytesDown + other.bytesDown, segmentsUp + other.segmentsUp, segmentsDown + other.segmentsDown,
                stallsUp + other.stallsUp, stallsDown + other.stallsDown);
    }

    /** @return stalls in both directions */
    public long stalls() {
        return stallsUp + stallsDown;
    }
}
