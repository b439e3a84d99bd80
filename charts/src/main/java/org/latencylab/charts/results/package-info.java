/**
 * From engine results to charts: the adapters that turn {@code RequestRecord}s, sweep results and run results
 * into the chart builders' input records, used alike by the desktop app (live) and the command line (PNG files).
 */
package org.latencylab.charts.results;
