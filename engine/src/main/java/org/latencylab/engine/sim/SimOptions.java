package org.latencylab.engine.sim;

/**
 * How a {@link SimServer} listens and behaves, independently of its latency {@link SimProfile}.
 * Immutable and thread-safe; build with {@link #defaults()} and {@link #newBuilder()}.
 *
 * @param host             address to bind, default {@code 127.0.0.1}
 * @param port             TCP port, 0 for an ephemeral one, in [0, 65535]
 * @param stamping         whether every event's JSON carries {@code "x_sent_ns"}: the server's
 *                         {@link System#nanoTime()} when the event was written
 * @param seed             seed of all randomness (jitter, faults, generated words)
 * @param allowNonLoopback whether {@code host} may be a non-loopback address; off by default because the
 *                         simulator has no authentication
 * @throws IllegalArgumentException when the host is blank or the port out of range
 */
public record SimOptions(String host, int port, boolean stamping, long seed, boolean allowNonLoopback) {

    /** Default seed, so that runs are repeatable unless asked otherwise. */
    public static final long DEFAULT_SEED = 20_240_601L;

    public SimOptions {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank, e.g. 127.0.0.1");
        }
        host = host.strip();
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be in [0, 65535] (0 = ephemeral), was " + port);
        }
    }

    /** @return loopback {@code 127.0.0.1}, ephemeral port, stamping off, {@link #DEFAULT_SEED} */
    public static SimOptions defaults() {
        return new SimOptions("127.0.0.1", 0, false, DEFAULT_SEED, false);
    }

    /** @return a builder starting from {@link #defaults()} */
    public static Builder builder() {
        return defaults().newBuilder();
    }

    /** @return a builder starting from these values */
    public Builder newBuilder() {
        return new Builder(this);
    }

    /** Mutable builder of {@link SimOptions}; not thread-safe. */
    public static final class Builder {
        private String host;
        private int port;
        private boolean stamping;
        private long seed;
        private boolean allowNonLoopback;

        private Builder(SimOptions o) {
            host = o.host;
            port = o.port;
            stamping = o.stamping;
            seed = o.seed;
            allowNonLoopback = o.allowNonLoopback;
        }

        /** @param value address to bind @return this */
        public Builder host(String value) {
            host = value;
            return this;
        }

        /** @param value TCP port, 0 = ephemeral @return this */
        public Builder port(int value) {
            port = value;
            return this;
        }

        /** @param value whether events carry {@code x_sent_ns} @return this */
        public Builder stamping(boolean value) {
            stamping = value;
            return this;
        }

        /** @param value random seed @return this */
        public Builder seed(long value) {
            seed = value;
            return this;
        }

        /** @param value whether a non-loopback host is allowed @return this */
        public Builder allowNonLoopback(boolean value) {
            allowNonLoopback = value;
            return this;
        }

        /** @return the options @throws IllegalArgumentException as the record's constructor */
        public SimOptions build() {
            return new SimOptions(host, port, stamping, seed, allowNonLoopback);
        }
    }
}
