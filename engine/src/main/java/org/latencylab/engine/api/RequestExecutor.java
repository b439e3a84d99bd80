package org.latencylab.engine.api;

/**
 * Sends one request and measures it. Schedulers call this from their own (virtual) threads; implementations
 * must be thread-safe. The protocol client implements it for a fixed endpoint and request shape.
 */
@FunctionalInterface
public interface RequestExecutor {
    /**
     * Sends the request described by {@code ticket} and blocks until it has ended.
     *
     * @param ticket identity and intended start of the request
     * @return the measured record; a failed request is a record with outcome ERROR, never an exception
     * @throws InterruptedException when the calling thread is interrupted before the request could start;
     *                              an interrupt during the request yields a record with outcome CANCELLED instead
     */
    RequestRecord execute(RequestTicket ticket) throws InterruptedException;
}
