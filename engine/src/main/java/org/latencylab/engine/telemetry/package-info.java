/**
 * Server and GPU telemetry during a GPU-server benchmark: the Prometheus text format ({@link
 * org.latencylab.engine.telemetry.PrometheusText}), the metric names of vLLM, SGLang and TGI ({@link
 * org.latencylab.engine.telemetry.ServerMetricNames}), {@code nvidia-smi} CSV readings ({@link
 * org.latencylab.engine.telemetry.NvidiaSmi}) and the 1 Hz recorder that samples both while a variant is under load
 * ({@link org.latencylab.engine.telemetry.TelemetryRecorder}).
 *
 * <p>Why a parser of our own for the Prometheus text format: the Prometheus Java client (prometheus-metrics 1.x,
 * already used by the simulator) only writes the format; none of the Maven artifacts available to this project
 * parses it. The parser reads the line format of the exposition format 0.0.4 specification (sample lines with
 * optional labels and timestamp, {@code #} comments) and nothing more.
 */
package org.latencylab.engine.telemetry;
