/**
 * The headless command line (picocli): {@code run}, {@code probe}, {@code sweep}, {@code sim},
 * {@code check-cases}, {@code gui}. Exit codes: 0 success, 1 an SLO (or a conformance case) failed, 2 bad input
 * (the message names the file and field), 3 the run could not go on, 130 interrupted
 * (Ctrl-C), 143 stopped (SIGTERM).
 */
package org.latencylab.app.cli;
