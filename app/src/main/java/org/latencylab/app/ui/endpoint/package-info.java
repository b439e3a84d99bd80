/**
 * Endpoints in the desktop app: the list and editor
 * ({@link org.latencylab.app.ui.endpoint.EndpointsView}/{@link org.latencylab.app.ui.endpoint.EndpointsViewModel}),
 * "Import curl" ({@link org.latencylab.app.ui.endpoint.CurlImport}: a pasted {@code curl} command becomes an endpoint)
 * and "Test connection" ({@link org.latencylab.app.ui.endpoint.ConnectionTester}: one small streaming request through
 * the engine's {@code LlmClient}, reporting status, TTFB and TTFT).
 *
 * <p>The built-in simulator is always the first entry of the list; it is started on demand on 127.0.0.1 (by the
 * run engine for a run, by the tester for a connection test) and stopped afterwards.
 */
package org.latencylab.app.ui.endpoint;
