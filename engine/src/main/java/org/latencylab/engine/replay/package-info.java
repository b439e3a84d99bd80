/**
 * Replays scripted server responses with their timing and checks the client against them.
 *
 * <p>A {@link org.latencylab.engine.replay.ConformanceCase} is one file of the project's stream conformance
 * cases (format 1): responses per attempt, each a status, headers and body parts with the millisecond at which
 * each part is written, plus the values a correct client measures. The
 * {@link org.latencylab.engine.replay.ReplayServer} serves a case on loopback with the JDK's HTTP server;
 * the {@link org.latencylab.engine.replay.CaseChecker} runs it through the real
 * {@link org.latencylab.engine.client.LlmClient} and compares; {@link org.latencylab.engine.replay.CaseSuite}
 * loads every case file of a folder, so new cases are picked up without code changes.
 *
 * <p>Timing rule: the server writes a part no earlier than its {@code at_ms}, and the client can only see it
 * later, so a measured time must lie in {@code [expected, expected + tolerance]}.
 */
package org.latencylab.engine.replay;
