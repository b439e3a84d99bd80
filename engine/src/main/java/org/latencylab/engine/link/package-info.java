/**
 * Network conditions without root rights: a user-space TCP link emulator ({@link org.latencylab.engine.link.LinkEmulator})
 * that LatencyLab starts between a client and a server, and the network profiles it applies
 * ({@link org.latencylab.engine.link.LinkProfile}, built-in {@code wired}, {@code stable-4g}, {@code weak-3g},
 * {@code high-jitter}, or YAML files read by {@link org.latencylab.engine.link.LinkProfiles}).
 *
 * <h2>Design</h2>
 * <ul>
 *   <li>A proxy rather than a kernel queueing discipline: {@code tc netem} needs root and Linux; desktop users on
 *       macOS and Windows have neither. A proxy works everywhere and sees exactly the client's traffic.</li>
 *   <li>The model acts on the byte stream as TCP delivers it: per segment of at most one MSS, serialisation at the
 *       direction's bandwidth (FIFO), one-way delay plus uniform jitter, and loss as a retransmission stall. Delivery
 *       times never decrease, so jitter never reorders bytes and a lost segment holds back every byte after it
 *       (head-of-line blocking), which is what an application reading a TCP socket experiences.</li>
 *   <li>What passed is counted ({@link org.latencylab.engine.link.LinkTraffic}: bytes, segments, stalls per
 *       direction), so a comparison can show why one transport wins (bytes on the wire, round trips).</li>
 * </ul>
 * Not modelled: congestion control (slow start, cwnd), fast retransmit, delayed ACKs, and link-layer effects below
 * TCP. Timer precision is that of {@link java.util.concurrent.locks.LockSupport#parkNanos(long)} (tens of µs).
 */
package org.latencylab.engine.link;
