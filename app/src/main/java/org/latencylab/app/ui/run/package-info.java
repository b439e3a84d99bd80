/**
 * Run control: start a run on the engine, show progress (counts, failures, ETA), cancel it. The engine's snapshot
 * listener reaches the UI thread through {@code CoalescingRunListener}; finished requests go to the results view
 * model as they arrive.
 */
package org.latencylab.app.ui.run;
