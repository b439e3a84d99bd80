package org.latencylab.app.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The load step's line names the span goodput was counted over when it is not the measured window. */
class ConsoleReportLoadLineTest {

    @Test
    void aStepThatRanItsDurationCountsGoodputOverItsWindowAndSaysNothingMore() {
        String line = ConsoleReport.loadLine("open loop: target 300.0 req/s", true, 301.9, 301.9, 4_528, 15.0, 0, 0,
                "duration");
        assertThat(line).contains("achieved 301.9 req/s and goodput 301.9 req/s in the 15.0 s measured window"
                + " (warmup/cooldown excluded); 0 dropped").doesNotContain("goodput over");
    }

    @Test
    void aStepThatStoppedEarlyNamesTheLongerSpanOfItsGoodput() {
        // 40 requests sent in 0.4 s, the last of them ended 3.4 s after the window's start
        String line = ConsoleReport.loadLine("open loop: target 100.0 req/s", true, 100.0, 40 / 3.4, 40, 0.4, 0, 0,
                "overload: 40 requests in flight at 0.4 s");
        assertThat(line).contains("goodput 11.8 req/s in the 0.4 s measured window (warmup/cooldown excluded)"
                + " (goodput over 3.4 s: until the window's last request ended); 0 dropped");
    }
}
