/**
 * Export of what the results view shows: data as CSV (one row per request) and JSON (summary, sweep points and
 * fit), charts as PNG at a chosen size and scale (through the charts module's {@code ChartImages}, off the UI
 * thread) and "copy as image" to the clipboard.
 */
package org.latencylab.app.ui.export;
