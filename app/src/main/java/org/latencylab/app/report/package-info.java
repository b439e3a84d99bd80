/**
 * Turning a finished run into things people read: the console table of the command line and the PNG charts of
 * the run directory.
 */
package org.latencylab.app.report;
