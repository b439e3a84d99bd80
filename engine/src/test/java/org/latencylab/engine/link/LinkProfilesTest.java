package org.latencylab.engine.link;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Built-in network profiles carry the seed's values and their sources; bad files name the file and the field. */
class LinkProfilesTest {

    @Test
    void weakThreeGIsTheSeedsDefinition() {
        LinkProfile p = LinkProfiles.resolve("weak-3g");
        assertThat(p.rttMs()).isEqualTo(200.0);
        assertThat(p.down().bandwidthMbps()).isEqualTo(1.6);
        assertThat(p.up().bandwidthMbps()).isEqualTo(0.4);
        assertThat(p.down().loss()).isEqualTo(0.01);
        assertThat(p.up().loss()).isEqualTo(0.01);
        assertThat(p.source()).contains("Seed article");
    }

    @Test
    void everyBuiltInProfileLoadsAndNamesItsSource() {
        for (String name : LinkProfiles.BUILT_IN) {
            LinkProfile p = LinkProfiles.resolve(name);
            assertThat(p.name()).isEqualTo(name);
            assertThat(p.source()).isNotBlank();
        }
        LinkProfile jitter = LinkProfiles.resolve("high-jitter");
        assertThat(jitter.up().jitterMs() + jitter.down().jitterMs()).isEqualTo(80.0);
    }

    @Test
    void aNegativeBandwidthNamesTheFileAndTheField(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad-net.yaml");
        Files.writeString(f, "down: {delayMs: 10, bandwidthMbps: -1}\nup: {delayMs: 10, bandwidthMbps: 1}\n");
        assertThatThrownBy(() -> LinkProfiles.resolve(f.toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad-net.yaml")
                .hasMessageContaining("down.bandwidthMbps")
                .hasMessageContaining("-1");
    }

    @Test
    void unknownFieldsAndMissingProfilesAreNamed(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("typo.yaml");
        Files.writeString(f, "down: {delayMs: 10, bandwidthMbps: 1, lost: 0.1}\nup: {bandwidthMbps: 1}\n");
        assertThatThrownBy(() -> LinkProfiles.resolve(f.toString()))
                .hasMessageContaining("typo.yaml").hasMessageContaining("down.lost");
        assertThatThrownBy(() -> LinkProfiles.resolve("weak-5g"))
                .hasMessageContaining("weak-5g").hasMessageContaining("wired");
    }

    @Test
    void aCustomProfileIsRead(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("satellite.yaml");
        Files.writeString(f, "source: test\ndown: {delayMs: 300, bandwidthMbps: 50, loss: 0.001}\n"
                + "up: {delayMs: 300, bandwidthMbps: 5}\n");
        LinkProfile p = LinkProfiles.resolve(f.toString());
        assertThat(p.name()).isEqualTo("satellite");
        assertThat(p.rttMs()).isEqualTo(600.0);
        assertThat(p.retransmitTimeoutMs()).isEqualTo(800.0); // default: 200 ms + RTT
    }
}
