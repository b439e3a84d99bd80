package org.latencylab.app.ui.settings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.run.StatsSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SettingsStoreTest {
    @TempDir
    Path dir;

    @Test
    void missingFileGivesDefaults() {
        SettingsStore.Loaded l = SettingsStore.at(dir.resolve("settings.json")).load();
        assertThat(l.settings()).isEqualTo(AppSettings.DEFAULTS);
        assertThat(l.message()).isNull();
    }

    @Test
    void roundTripKeepsEverythingButCredentialHeaders() throws Exception {
        Path file = dir.resolve("sub/settings.json");
        SettingsStore store = SettingsStore.at(file);
        EndpointConfig ep = new EndpointConfig("vllm", "openai-chat", "http://10.0.0.5:8000", "llama", "VLLM_KEY",
                Map.of("X-Team", "latency", "Authorization", "Bearer sk-live-123"), false);
        AppSettings s = AppSettings.DEFAULTS.withTheme(Theme.DARK)
                .withEndpoints(List.of(ep), "vllm", "llama-8b-class")
                .withLastExperiment(new ExperimentDraft("sweep", 10, 2, 128, 16, false, List.of(2048, 4096), 5, false,
                        "o200k_base"))
                .withJudging("e2e", List.of(new StatsSettings.TierLevel("fast", 100.0),
                        new StatsSettings.TierLevel("slow", null)), List.of(), "/data/ll");
        store.save(s);
        String text = Files.readString(file);
        assertThat(text).doesNotContain("sk-live-123").doesNotContain("Authorization").contains("VLLM_KEY");

        AppSettings back = store.load().settings();
        assertThat(back.theme()).isEqualTo("dark");
        assertThat(back.endpoints()).hasSize(1);
        assertThat(back.endpoints().get(0).headers()).containsExactly(Map.entry("X-Team", "latency"));
        assertThat(back.endpoints().get(0).verifyTls()).isFalse();
        assertThat(back.selected()).isEqualTo("vllm");
        assertThat(back.simProfile()).isEqualTo("llama-8b-class");
        assertThat(back.lastExperiment().sweepLengths()).containsExactly(2048, 4096);
        assertThat(back.lastExperiment().tokenizer()).isEqualTo("o200k_base");
        assertThat(back.tierMetric()).isEqualTo("e2e");
        assertThat(back.tiers()).hasSize(2);
        assertThat(back.dataDir()).isEqualTo("/data/ll");
        assertThat(Files.exists(file.resolveSibling("settings.json.tmp"))).isFalse();
    }

    @Test
    void corruptFileIsMovedAsideWithAMessage() throws Exception {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{\"theme\": \"dark\", \"endpoints\": [ {\"name\": ");
        Clock clock = Clock.fixed(Instant.parse("2025-03-04T05:06:07Z"), ZoneOffset.UTC);
        SettingsStore.Loaded l = new SettingsStore(file, clock).load();
        assertThat(l.settings()).isEqualTo(AppSettings.DEFAULTS);
        assertThat(l.message()).contains("could not be read").contains("settings.json.corrupt-20250304-050607");
        assertThat(file).doesNotExist();
        assertThat(dir.resolve("settings.json.corrupt-20250304-050607")).exists()
                .content().startsWith("{\"theme\": \"dark\"");
    }

    @Test
    void wrongTypesCountAsCorruptToo() throws Exception {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "[1, 2, 3]");
        SettingsStore.Loaded l = SettingsStore.at(file).load();
        assertThat(l.message()).contains("moved to settings.json.corrupt-");
        assertThat(file).doesNotExist();
    }

    @Test
    void directoriesFollowEachOsConvention() {
        AppDirectories linux = AppDirectories.resolve(Map.of("XDG_CONFIG_HOME", "/xdg/cfg"),
                k -> Map.of("os.name", "Linux", "user.home", "/home/u").get(k));
        assertThat(linux.settingsFile()).isEqualTo(Path.of("/xdg/cfg/latencylab/settings.json"));
        assertThat(linux.runsDir()).isEqualTo(Path.of("/home/u/.local/share/latencylab/runs"));
        assertThat(linux.dataDirFixed()).isFalse();

        AppDirectories relativeXdg = AppDirectories.resolve(Map.of("XDG_DATA_HOME", "relative/dir"),
                k -> Map.of("os.name", "Linux", "user.home", "/home/u").get(k));
        assertThat(relativeXdg.dataDir()).isEqualTo(Path.of("/home/u/.local/share/latencylab"));

        AppDirectories win = AppDirectories.resolve(Map.of("APPDATA", "C:\\Users\\u\\AppData\\Roaming"),
                k -> Map.of("os.name", "Windows 11", "user.home", "C:\\Users\\u").get(k));
        assertThat(win.configDir().toString()).endsWith("LatencyLab");
        assertThat(win.runsDir().toString()).contains("Roaming").endsWith("runs");

        AppDirectories mac = AppDirectories.resolve(Map.of(),
                k -> Map.of("os.name", "Mac OS X", "user.home", "/Users/u").get(k));
        assertThat(mac.runsDir()).isEqualTo(Path.of("/Users/u/Library/Application Support/LatencyLab/runs"));

        AppDirectories overridden = AppDirectories.resolve(Map.of(), k -> Map.of("os.name", "Linux", "user.home",
                "/home/u", "latencylab.config.dir", "/opt/ll-config", "latencylab.data.dir", "/opt/ll-data").get(k));
        assertThat(overridden.settingsFile()).isEqualTo(Path.of("/opt/ll-config/settings.json"));
        assertThat(overridden.runsDir()).isEqualTo(Path.of("/opt/ll-data/runs"));
        assertThat(overridden.dataDirFixed()).isTrue();
    }

    @Test
    void environmentVariablesSetTheFoldersForLaunchersWithoutJvmOptionsAndPropertiesStillWin() {
        Map<String, String> env = Map.of("LATENCYLAB_CONFIG_DIR", "/srv/ll/config", "LATENCYLAB_DATA_DIR",
                "/srv/ll/data", "XDG_CONFIG_HOME", "/xdg/cfg");
        AppDirectories fromEnv = AppDirectories.resolve(env,
                k -> Map.of("os.name", "Linux", "user.home", "/home/u").get(k));
        assertThat(fromEnv.settingsFile()).isEqualTo(Path.of("/srv/ll/config/settings.json"));
        assertThat(fromEnv.runsDir()).isEqualTo(Path.of("/srv/ll/data/runs"));
        assertThat(fromEnv.dataDirFixed()).isTrue();

        AppDirectories both = AppDirectories.resolve(env, k -> Map.of("os.name", "Windows 11", "user.home",
                "C:\\Users\\u", "latencylab.data.dir", "/opt/ll-data").get(k));
        assertThat(both.runsDir()).isEqualTo(Path.of("/opt/ll-data/runs"));
        assertThat(both.settingsFile()).isEqualTo(Path.of("/srv/ll/config/settings.json"));
    }

    @Test
    void settingsFormValidatesTiersAndSlos() {
        SettingsViewModel form = new SettingsViewModel();
        form.load(AppSettings.DEFAULTS, Path.of("/d"));
        assertThat(form.tierBoundsProperty().get()).isEqualTo("80, 300, 1200, 4500");
        assertThat(form.sloProperty().get()).isEqualTo("ttft:95:1000");
        form.tierBoundsProperty().set("100, 50");
        assertThat(form.applyTo(AppSettings.DEFAULTS)).isNull();
        assertThat(form.messageProperty().get()).contains("greater than the previous");
        form.tierBoundsProperty().set("100, 500");
        form.sloProperty().set("e2e:99:2000, ttft:90:300");
        AppSettings s = form.applyTo(AppSettings.DEFAULTS);
        assertThat(s.tiers()).extracting(StatsSettings.TierLevel::maxMs).containsExactly(100.0, 500.0, null);
        assertThat(s.slos()).extracting(org.latencylab.engine.stats.Slo::metric).containsExactly("e2e", "ttft");
        form.sloProperty().set("latency:95:1");
        assertThat(form.applyTo(AppSettings.DEFAULTS)).isNull();
        assertThat(form.messageProperty().get()).contains("must be one of");
    }
}
