/**
 * A delaying TCP proxy on loopback: stands in for a gateway (or any fixed network hop) in front of an endpoint, so
 * a direct-vs-gateway baseline can be measured without external infrastructure. The operating system offers no
 * portable way to delay loopback traffic (no {@code tc netem} on macOS or Windows, and not on every Linux kernel),
 * so the delay is added in user space.
 */
package org.latencylab.engine.proxy;
