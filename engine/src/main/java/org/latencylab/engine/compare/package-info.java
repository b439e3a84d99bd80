/**
 * Experiments over several endpoints at once: {@code compare-endpoints} (the same workload sent to N endpoints,
 * interleaved round-robin so drift over time hits all alike, ranked by P95 with intervals and a significance
 * verdict for every pair of neighbours) and {@code baseline} (the same light request direct and through a
 * gateway, giving the gateway's fixed overhead).
 *
 * <p>Significance of neighbours in a ranking: a percentile bootstrap of the difference of the two P95 values
 * (Efron &amp; Tibshirani, <i>An Introduction to the Bootstrap</i>, 1993, ch. 13: resample each endpoint's
 * samples with replacement, take the difference of the P95s, read the 2.5 % and 97.5 % quantiles of 2000 such
 * differences); two neighbours are "not significantly different" when that 95 % interval contains 0. The
 * two-sided Mann–Whitney U test of Commons Math ({@code MannWhitneyUTest}, normal approximation) is reported next
 * to it as a whole-distribution check.
 */
package org.latencylab.engine.compare;
