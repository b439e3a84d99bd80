/**
 * Saved runs: every run is a run directory under the data folder ({@code runs/}); the history lists them (newest
 * first), reopens one into the results view, renames (a title kept in {@code app.json} next to the engine's files,
 * which stay untouched), deletes, and compares two side by side (overlaid CDFs and a table of differences).
 * {@link org.latencylab.app.ui.history.RunStore} does the disk work and is called off the UI thread.
 */
package org.latencylab.app.ui.history;
