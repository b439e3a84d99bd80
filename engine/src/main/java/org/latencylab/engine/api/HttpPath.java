package org.latencylab.engine.api;

/**
 * Which code measured a run's requests: LatencyLab's own HTTP/1.1 exchange, OkHttp, or gRPC. The paths differ in
 * where each timestamp is taken and in their own CPU cost, so a run records which one it used
 * ({@code run.json}: {@code environment.http_path}). Thread-safe (an enum).
 */
public enum HttpPath {
    /**
     * LatencyLab's own HTTP/1.1 exchange ({@code client/DirectHttp1}): plain {@code http://} endpoints without a
     * proxy, unless {@code -Dlatencylab.http=okhttp} turns it off.
     */
    DIRECT_HTTP1("direct-http1", "LatencyLab's own HTTP/1.1 exchange"),
    /** OkHttp: {@code https://} endpoints, HTTP/2, proxies, or every endpoint with {@code -Dlatencylab.http=okhttp}. */
    OKHTTP("okhttp", "OkHttp"),
    /** grpc-java: the KServe v2 gRPC protocol. */
    GRPC("grpc", "grpc-java");

    private final String id;
    private final String description;

    HttpPath(String id, String description) {
        this.id = id;
        this.description = description;
    }

    /** @return the name written to files, e.g. {@code direct-http1} */
    public String id() {
        return id;
    }

    /** @return the path for people, e.g. {@code LatencyLab's own HTTP/1.1 exchange} */
    public String description() {
        return description;
    }

    /**
     * @param id a name written by {@link #id()}
     * @return the path
     * @throws IllegalArgumentException when the name is unknown (the message lists the valid ones)
     */
    public static HttpPath fromId(String id) {
        for (HttpPath p : values()) {
            if (p.id.equals(id)) {
                return p;
            }
        }
        throw new IllegalArgumentException("http_path must be direct-http1, okhttp or grpc, was '" + id + "'");
    }
}
