/**
 * GPU-server benchmarks ({@code type: server-bench}): server variants that LatencyLab launches from command
 * templates ({@link org.latencylab.engine.server.LaunchTemplates}, {@link org.latencylab.engine.server.ServerProcess})
 * or attaches to, parameter grids expanded into variants, the same load plan run against each with the load engine,
 * telemetry sampled meanwhile ({@code telemetry}), and the analysis across variants ({@code analysis}: Pareto front,
 * roofline, cost) in one {@link org.latencylab.engine.server.ServerBenchResult}.
 *
 * <p>Process safety: every launched server is registered with {@link org.latencylab.engine.server.ServerProcess}'s
 * JVM shutdown hook, stopped with SIGTERM and then SIGKILL after a grace period together with all its descendants,
 * so no server outlives LatencyLab (also on Ctrl-C). Command lines are logged with secrets masked
 * ({@link org.latencylab.engine.server.SecretMask}).
 */
package org.latencylab.engine.server;
