/**
 * Calibration of the client against an independent clock ({@code latencylab calibrate}): a stamping simulator in a
 * separate process, driven through the same client and run engine as every run, and the client's own error per load
 * ({@link org.latencylab.engine.calibration.Calibration}). Kept apart from {@code trust}, which the run engine uses,
 * because it drives the run engine itself.
 */
package org.latencylab.engine.calibration;
