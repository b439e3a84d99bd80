/**
 * The "Rankings" tab: ranks endpoints with a {@code compare-endpoints} run started through the window's run view
 * model (progress, cancel, history as for any run), shows the ranking table and chart, monitors endpoints with a
 * live ranking, turns an SLA into a model SLO (the SLO budget), judges the run on screen against an SLO matrix,
 * imports other tools' results into the history and exports the HTML report of the run on screen. View model without the FX toolkit
 * ({@link org.latencylab.app.ui.workflow.RankingViewModel}), view built in code.
 */
package org.latencylab.app.ui.workflow;
