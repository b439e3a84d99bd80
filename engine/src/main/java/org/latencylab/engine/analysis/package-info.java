/**
 * Analysis of GPU-server benchmarks: the Pareto-optimal variants over several objectives ({@link
 * org.latencylab.engine.analysis.ParetoSet}), the memory-bandwidth roofline bound of decode and the compute bound of
 * prefill from catalogues of GPUs and models ({@link org.latencylab.engine.analysis.Roofline}), and cost per million
 * output tokens ({@link org.latencylab.engine.analysis.Cost}). Pure functions over numbers; no I/O except reading a
 * Hugging Face {@code config.json}.
 */
package org.latencylab.engine.analysis;
