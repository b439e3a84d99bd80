/**
 * Long-running monitoring of several endpoints at a low probe rate (hours to days): hourly and daily HdrHistogram
 * interval logs per endpoint, SLO attainment and a ranking kept up to date in {@code monitor.json}, and resumption
 * into the same run directory after a restart, with the gap recorded.
 *
 * <p>Files of a monitor step labelled {@code monitor} in the run directory: {@code monitor.json} (state and live
 * ranking, rewritten atomically at least every {@value org.latencylab.engine.monitor.MonitorRunner#STATE_PERIOD_SECONDS}
 * seconds), {@code monitor-<endpoint>.hourly.hlog} and {@code monitor-<endpoint>.daily.hlog} (HdrHistogram interval
 * logs, absolute epoch-second timestamps, values in ns, tags {@code ttft} and {@code e2e}).
 */
package org.latencylab.engine.monitor;
