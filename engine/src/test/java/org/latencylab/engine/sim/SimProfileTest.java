package org.latencylab.engine.sim;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class SimProfileTest {

    @TempDir
    Path dir;

    @Test
    void builtinsAreListedAndLoad() {
        assertThat(SimProfile.builtinNames()).contains("llama-8b-class", "small-fast", "zero-latency");
        for (String name : SimProfile.builtinNames()) {
            SimProfile p = SimProfile.builtin(name);
            assertThat(p.name()).isEqualTo(name);
            assertThat(p.source()).as("source of %s", name).isNotBlank();
        }
    }

    @Test
    void unknownBuiltinListsTheKnownOnes() {
        assertThatThrownBy(() -> SimProfile.builtin("nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'nope'").hasMessageContaining("llama-8b-class");
    }

    @Test
    void llamaProfileFollowsTheStatedPowerLaw() {
        SimProfile p = SimProfile.builtin("llama-8b-class");
        assertThat(p.prefill().alpha()).isEqualTo(0.72);
        assertThat(p.prefillTime(2048).toNanos() / 1e9).isCloseTo(0.38, within(0.01));
        double slope = Math.log((p.prefillNanos(32768) - p.prefillNanos(0)) / (double) (p.prefillNanos(2048)
                - p.prefillNanos(0))) / Math.log(16);
        assertThat(slope).isCloseTo(0.72, within(1e-6));
        assertThat(p.decode().tpotSeconds()).isBetween(0.01, 0.1);
    }

    @Test
    void smallFastIsTierOneAtOneKiloToken() {
        SimProfile p = SimProfile.builtin("small-fast");
        double median = p.prefillTime(1024).toNanos() / 1e9;
        double p95 = median * Math.exp(1.645 * p.jitter().sigma());
        assertThat(p95).isLessThan(0.300);
        assertThat(p.decode().tpotSeconds()).isLessThan(0.01);
    }

    @Test
    void zeroLatencyHasNoModelledTime() {
        SimProfile p = SimProfile.builtin("zero-latency");
        assertThat(p.prefillTime(100_000)).isEqualTo(Duration.ZERO);
        assertThat(p.tokenGap(50)).isEqualTo(Duration.ZERO);
        assertThat(p.jitter().sigma()).isZero();
    }

    @Test
    void decodeSlowsWithRunningSequences() {
        SimProfile p = Loopback.profile("""
                prefill: {t0: 0, k: 0, alpha: 1}
                decode: {tpot: 0.010, batchSlowdown: 0.5}
                """);
        assertThat(p.tokenGap(1)).isEqualTo(Duration.ofMillis(10));
        assertThat(p.tokenGap(3)).isEqualTo(Duration.ofMillis(20));
        assertThat(p.maxRunningSeqs()).isEqualTo(256);
        assertThat(p.faults().any()).isFalse();
    }

    @Test
    void badNumberNamesFileFieldAndForm() throws IOException {
        Path f = write("x.yaml", """
                prefill: {t0: 0.1, k: 0.001, alpha: fast}
                decode: {tpot: 0.02}
                """);
        assertThatThrownBy(() -> SimProfile.load(f))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(f + ": field 'prefill.alpha' must be a number in (0, 3], was \"fast\"");
    }

    @Test
    void outOfRangeNamesField() throws IOException {
        Path f = write("y.yaml", """
                prefill: {t0: 0.1, k: 0.001, alpha: 4}
                decode: {tpot: 0.02}
                """);
        assertThatThrownBy(() -> SimProfile.load(f))
                .hasMessageStartingWith(f + ": field 'prefill.alpha' must be a number in (0, 3], was 4");
    }

    @Test
    void unknownFieldIsRefused() throws IOException {
        Path f = write("z.yaml", """
                prefill: {t0: 0.1, k: 0.001, alpha: 0.7, beta: 2}
                decode: {tpot: 0.02}
                """);
        assertThatThrownBy(() -> SimProfile.load(f))
                .hasMessageContaining(f.toString()).hasMessageContaining("unknown field 'prefill.beta'")
                .hasMessageContaining("t0, k, alpha");
    }

    @Test
    void missingSectionAndMalformedYamlAreNamed() throws IOException {
        Path noDecode = write("nd.yaml", "prefill: {t0: 0.1, k: 0.001, alpha: 0.7}\n");
        assertThatThrownBy(() -> SimProfile.load(noDecode)).hasMessage(noDecode + ": field 'decode' is missing");
        Path broken = write("b.yaml", "prefill: {t0: [\n");
        assertThatThrownBy(() -> SimProfile.load(broken)).hasMessageStartingWith(broken + ": not valid YAML");
        Path dup = write("d.yaml", "prefill: {t0: 0.1, k: 0.001, alpha: 0.7}\ndecode: {tpot: 0.02}\ndecode: {tpot: 1}\n");
        assertThatThrownBy(() -> SimProfile.load(dup)).hasMessageContaining("decode");
    }

    @Test
    void faultsAreCheckedAndJsonFilesWork() throws IOException {
        Path f = write("f.json", """
                {"prefill": {"t0": 0.1, "k": 0.001, "alpha": 0.7}, "decode": {"tpot": 0.02},
                 "faults": {"rateLimited": {"rate": 0.7}, "serverError": {"rate": 0.5, "status": 502}}}
                """);
        assertThatThrownBy(() -> SimProfile.load(f)).hasMessageContaining(f.toString())
                .hasMessageContaining("'faults.rateLimited.rate' + 'faults.serverError.rate'");
        Path g = write("g.json", """
                {"prefill": {"t0": 0.1, "k": 0.001, "alpha": 0.7}, "decode": {"tpot": 0.02},
                 "faults": {"serverError": {"rate": 0.1, "status": 404}}}
                """);
        assertThatThrownBy(() -> SimProfile.load(g))
                .hasMessage(g + ": field 'faults.serverError.status' must be an integer in [500, 599], was 404");
        Path ok = write("ok.json", """
                {"model": "m", "prefill": {"t0": 0.1, "k": 0.001, "alpha": 0.7}, "decode": {"tpot": 0.02},
                 "faults": {"stall": {"rate": 0.1, "seconds": 0.5}, "reset": {"rate": 0.2, "afterTokens": 3}}}
                """);
        SimProfile p = SimProfile.load(ok);
        assertThat(p.name()).isEqualTo("ok");
        assertThat(p.model()).isEqualTo("m");
        assertThat(p.faults().stall()).isEqualTo(new SimProfile.Stall(0.1, 0.5));
        assertThat(p.faults().reset().afterTokens()).isEqualTo(3);
        assertThat(p.faults().any()).isTrue();
    }

    @Test
    void constructorChecksReadLikeFileChecks() {
        assertThatThrownBy(() -> new SimProfile.Decode(-1, 0))
                .hasMessage("field 'decode.tpot' must be a number in [0, 60], was -1.0");
        assertThatThrownBy(() -> SimProfile.builtin("zero-latency").withMaxRunningSeqs(0))
                .hasMessage("field 'maxRunningSeqs' must be an integer in [1, 1000000], was 0");
    }

    private Path write(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }
}
