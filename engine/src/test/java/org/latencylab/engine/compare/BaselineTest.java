package org.latencylab.engine.compare;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.run.RunResult;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** baseline: the simulator direct and through LatencyLab's delaying proxy, over real loopback TCP. */
class BaselineTest {
    @Test
    void aProxyAdding5MsEachWayShowsAsAbout10MsOfFixedOverhead(@TempDir Path dir) throws Exception {
        RunResult r = Scenarios.run("""
                format: 1
                name: gw
                endpoint: {builtin: sim, profile: zero-latency}
                experiments:
                  - type: baseline
                    direct: {name: direct, profile: zero-latency}
                    gateway: {name: via-proxy, proxyOf: direct, proxyDelay: 5ms}
                    requests: 40
                """, dir.resolve("run"), Duration.ofSeconds(60));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        BaselineRunner.BaselineResult b = (BaselineRunner.BaselineResult) r.steps().get(0).result();
        BaselineRunner.Overhead e2e = b.overheads().stream().filter(o -> o.metric().equals("e2e")).findFirst().orElseThrow();
        assertThat(e2e.pairs()).isEqualTo(40);
        // one round trip through the proxy: request out (+5 ms) and the response back (+5 ms); the stream's later
        // chunks arrive with the same delay, so E2E grows by about 10 ms. Upper bound generous for a busy machine.
        assertThat(e2e.pairedP50Nanos() / 1e6).isBetween(9.0, 30.0);
        assertThat(e2e.p50Difference().differenceMillis()).isBetween(9.0, 30.0);
        assertThat(e2e.p50Difference().excludesZero()).isTrue();
        BaselineRunner.Overhead ttfb = b.overheads().stream().filter(o -> o.metric().equals("ttfb")).findFirst().orElseThrow();
        assertThat(ttfb.pairedP50Nanos() / 1e6).isBetween(9.0, 30.0);
    }
}
