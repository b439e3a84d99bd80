package org.latencylab.engine.transport;

import com.fasterxml.jackson.annotation.JsonIgnore;

import org.latencylab.engine.run.StepResult;

import java.util.List;
import java.util.Map;

/**
 * The result of a {@code transports} step: one {@link Cell} per transport × network × connection, each with
 * first-screen latency, TTFT and E2E (P50 and P95 with 95 % intervals), what went over the emulated link and how
 * long connection setup took. Written into {@code run.json}; read by the console table and the grouped bar chart.
 * Immutable and thread-safe.
 *
 * @param label       step label
 * @param screen      the first screen, e.g. {@code 200 characters}
 * @param transports  transport ids in order
 * @param networks    network profile names in order
 * @param connections {@code warm}/{@code cold} in order
 * @param profiles    one line per network profile describing it (RTT, bandwidth, loss)
 * @param cells       every cell that ran, networks outer, then connections, then transports
 */
public record TransportsResult(String label, String screen, List<String> transports, List<String> networks,
                               List<String> connections, List<String> profiles, List<Cell> cells)
        implements StepResult {

    public TransportsResult {
        transports = List.copyOf(transports);
        networks = List.copyOf(networks);
        connections = List.copyOf(connections);
        profiles = List.copyOf(profiles);
        cells = List.copyOf(cells);
    }

    @Override
    public String type() {
        return TransportsSpec.TYPE;
    }

    /**
     * A percentile pair of one metric in milliseconds; null where no request produced the metric.
     *
     * @param count       requests with a value
     * @param p50Ms       median
     * @param p50LowerMs  lower end of the median's 95 % interval
     * @param p50UpperMs  upper end
     * @param p95Ms       95th percentile
     * @param p95LowerMs  lower end of its interval
     * @param p95UpperMs  upper end
     * @param p95Enough   whether at least 10 samples lie above the P95 (else it rests on too few samples)
     */
    public record Stat(long count, Double p50Ms, Double p50LowerMs, Double p50UpperMs, Double p95Ms,
                       Double p95LowerMs, Double p95UpperMs, boolean p95Enough) {
        /** No values. */
        public static final Stat EMPTY = new Stat(0, null, null, null, null, null, null, false);
    }

    /**
     * One transport over one network with warm or cold connections.
     *
     * @param label              label of the cell's requests in {@code requests.jsonl}
     * @param transport          transport id, e.g. {@code grpc}
     * @param transportLabel     its display name, e.g. {@code gRPC stream}
     * @param network            network profile name
     * @param connection         {@code warm} or {@code cold}
     * @param requests           measured requests
     * @param succeeded          of which succeeded
     * @param errors             failed requests by error kind id
     * @param firstScreen        first-screen latency
     * @param ttft               TTFT (absent for the non-streamed baseline)
     * @param e2e                E2E
     * @param setup              connection setup (TCP connect and TLS handshake; 0 on a reused connection)
     * @param bytesDownPerResponse mean bytes server → client per request (headers, framing and TLS included)
     * @param bytesUpPerRequest  mean bytes client → server per request
     * @param eventsPerResponse  mean token-bearing events per response
     * @param bytesPerEvent      bytes down per token-bearing event (bytes down / events; whole body for JSON)
     * @param segmentsDownPerResponse mean segments server → client per request
     * @param stalls             loss stalls (both directions) over the cell
     * @param stallsPerRequest   stalls / requests
     */
    public record Cell(String label, String transport, String transportLabel, String network, String connection,
                       int requests, int succeeded, Map<String, Long> errors, Stat firstScreen, Stat ttft, Stat e2e,
                       Stat setup, double bytesDownPerResponse, double bytesUpPerRequest, double eventsPerResponse,
                       double bytesPerEvent, double segmentsDownPerResponse, long stalls, double stallsPerRequest) {
        public Cell {
            errors = Map.copyOf(errors);
        }
    }

    /**
     * @param transport  transport id
     * @param network    network name
     * @param connection warm or cold
     * @return the cell, or null when it did not run
     */
    @JsonIgnore
    public Cell cell(String transport, String network, String connection) {
        for (Cell c : cells) {
            if (c.transport.equals(transport) && c.network.equals(network) && c.connection.equals(connection)) {
                return c;
            }
        }
        return null;
    }
}
