/**
 * Form controls shared by every view of the window: spinners, text fields and choices bound to view-model
 * properties, labels and tooltips, and {@link org.latencylab.app.ui.controls.Controls#inPulse} for work spread over
 * pulses. A leaf of the {@code ui} packages: the views depend on it and it depends on none of them, so the window's
 * packages form no cycle.
 */
package org.latencylab.app.ui.controls;
