/**
 * Trace replay: reading public LLM request traces (Mooncake JSON Lines, BurstGPT and Azure CSV) one record at a time
 * and sending them as an open loop at their traced times.
 *
 * <p>Why two passes over the file: a replay rescaled to a mean rate ({@code rate}) must know the window's request
 * count and span before it sends the first request, and holding the trace in memory would bound the trace by the
 * heap. The first pass ({@link org.latencylab.engine.trace.TraceScan}) counts; the second
 * ({@link org.latencylab.engine.trace.TraceFeed}) feeds the load step's dispatcher as it goes, so memory holds one
 * record at a time. The load step ({@link org.latencylab.engine.load.LoadStepRunner#runFed}) keeps its open-loop rules:
 * every latency is timed from the traced (intended) start, and how late the client sent (dispatch lag, send −
 * intended) is the replay's schedule fidelity.
 *
 * <p>Bad records are skipped and counted, each message naming file, line and field; what makes the whole file
 * unusable is a {@link org.latencylab.engine.trace.TraceException} with a one-line message.
 */
package org.latencylab.engine.trace;
