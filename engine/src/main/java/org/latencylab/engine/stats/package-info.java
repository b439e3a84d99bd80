/**
 * Latency statistics: recording, percentile summaries with confidence intervals, tiers, SLOs and goodput.
 *
 * <h2>Metric definitions</h2>
 * The per-request metrics are the derived methods of {@link org.latencylab.engine.api.RequestRecord}; this
 * package only aggregates them (see {@link org.latencylab.engine.stats.Metric}):
 * <ul>
 *   <li><b>TTFT</b>: send to the first event carrying generated text of any kind (answer, reasoning, tool-call
 *       arguments). Also <b>time to first content</b> (first answer text) and <b>TTFB</b> (send to response headers).</li>
 *   <li><b>E2E</b>: send to end of stream. Open-loop runs also report TTFT and E2E from the <i>intended</i> send
 *       time and the client's <b>dispatch lag</b>, so queueing inside the client is never hidden (coordinated
 *       omission).</li>
 *   <li><b>TPOT</b> = (E2E − TTFT) / (output tokens − 1). <b>ITL</b>: gaps between consecutive token-bearing
 *       events; <b>ITL per token</b>: each gap divided by the tokens its event carried.</li>
 * </ul>
 * All values are {@code long} nanoseconds inside the package.
 *
 * <h2>Percentiles and their uncertainty</h2>
 * A percentile read from a sample is itself a random quantity. Every {@link
 * org.latencylab.engine.stats.PercentileEstimate} carries a distribution-free 95 % confidence interval built from
 * order statistics (the number of samples below the true p-quantile is Binomial(n, p); see Hahn &amp; Meeker,
 * <i>Statistical Intervals</i>, 1991, §5.2, and Conover, <i>Practical Nonparametric Statistics</i>, 3rd ed. 1999,
 * §3.2). The interval needs no assumption about the latency distribution, which is rarely normal (long right tails,
 * several modes from batching and cache hits). Exact sorted samples are used when a run kept them (a few million
 * {@code long}s at most); otherwise the ranks are read from an HdrHistogram, whose bucket precision (3 significant
 * digits, 0.1 %) is far below the statistical uncertainty of any tail percentile.
 * A small sample cannot reach 95 %: the ranks run past the sample and are clamped to its minimum or maximum. The
 * estimate then reports the exact coverage of the ranks it used as {@code confidence} (e.g. 0.75 for the median of
 * three samples, whose interval is [min, max]) next to the requested {@code targetConfidence}, and the summary's
 * warning says so; a percentile is never labelled "95 %" when its interval covers less.
 *
 * <h2>Sample-size rule</h2>
 * A percentile p is flagged as not enough samples when fewer than 10 samples are expected above it,
 * {@code n·(1 − p) < 10}: with k samples above the percentile the count itself has a relative standard error of about
 * {@code 1/√k} (Poisson), over 30 % for k &lt; 10, and the upper confidence bound runs into the sample maximum
 * (a P99 from 50 samples is really an estimate of the maximum).
 *
 * <h2>Recording</h2>
 * {@link org.latencylab.engine.stats.StatsAccumulator} takes one finished request at a time (the run engine's result
 * model synchronizes it): counters, SLO tallies, one primitive column per metric (4 bytes a sample up to 2^31 ns,
 * about 2.1 s, 8 bytes above; a long soak's millions of inter-token gaps take half the memory of longs and no
 * object each), an HdrHistogram per metric for
 * live summaries while a step runs (3 significant digits) and a per-second series. When the step ends each column is
 * sorted once, in place, and read as exact order statistics. Live and final statistics, reopened and recovered runs
 * all go through it.
 *
 * <h2>Tiers, SLOs, goodput</h2>
 * {@link org.latencylab.engine.stats.TierTable} classifies the P95 of a chosen metric into latency tiers;
 * {@link org.latencylab.engine.stats.Slo} computes compliance rates (failed requests count as misses);
 * goodput is the rate of requests that succeeded and met every SLO. {@link org.latencylab.engine.stats.RequestStats}
 * turns a list of request records into a {@link org.latencylab.engine.stats.StatsReport}.
 */
package org.latencylab.engine.stats;
