/**
 * Trust in the measuring process: is the client fast enough for its numbers to describe the server?
 *
 * <p>{@link org.latencylab.engine.trust.HiccupMeter} measures the JVM's hiccups with the jHiccup method (a thread
 * that sleeps 1 ms and records its oversleep into an HdrHistogram recorder); {@link
 * org.latencylab.engine.trust.TrustMonitor} runs it during a run, reads the process CPU time and the request threads'
 * run-queue wait ({@link org.latencylab.engine.trust.SchedulerWaits}) and, with the run's dispatch lag, judges
 * whether the client was saturated ({@link org.latencylab.engine.api.TrustCheck}, rule and limits documented there). This package depends on nothing of the engine but {@code api}, so the run engine and the
 * conformance checker can both use it.
 */
package org.latencylab.engine.trust;
