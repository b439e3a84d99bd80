/**
 * CSV writing: {@link org.latencylab.engine.csv.CsvWriter}, the one writer every CSV file of a run directory and of
 * the window's exports goes through (Jackson's CSV module underneath). A leaf package: it depends on no other
 * package of the engine, so any of them may write CSV.
 */
package org.latencylab.engine.csv;
