package org.latencylab.app;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The options of a measuring JVM and which commands get one. */
class MeasuringJvmTest {
    @Test
    void jdk21GetsGenerationalZgcExplicitlyAndNoJdk24OrAotFlags() {
        assertThat(MeasuringJvm.options(21, Path.of("x.aot")))
                .contains("-XX:+UseZGC", "-XX:+ZGenerational", MeasuringJvm.MAX_HEAP, MeasuringJvm.SOFT_MAX_HEAP,
                        MeasuringJvm.GC_THREADS)
                .noneMatch(o -> o.startsWith("--sun-misc") || o.startsWith("-XX:AOTCache"));
    }

    @Test
    void jdk25UsesTheAotCacheWhenThereIsOneAndSilencesUnsafeWarnings() {
        assertThat(MeasuringJvm.options(25, Path.of("c.aot")))
                .contains("-XX:+UseZGC", "-XX:AOTCache=c.aot", "--sun-misc-unsafe-memory-access=allow")
                .doesNotContain("-XX:+ZGenerational");
        assertThat(MeasuringJvm.options(25, null)).noneMatch(o -> o.startsWith("-XX:AOTCache"));
    }

    @Test
    void commandsThatMeasureNothingRunWhereTheyAre() {
        assertThat(MeasuringJvm.measuring(new String[] {"probe", "-n", "5"})).isTrue();
        assertThat(MeasuringJvm.measuring(new String[] {})).isTrue();
        assertThat(MeasuringJvm.measuring(new String[] {"probe", "--help"})).isFalse();
        assertThat(MeasuringJvm.measuring(new String[] {"--version"})).isFalse();
        assertThat(MeasuringJvm.measuring(new String[] {"detect", "http://127.0.0.1:1"})).isFalse();
    }

    @Test
    void carriersAreFourPerCoreAndAtLeastEight() {
        assertThat(MeasuringJvm.carriers(1)).isEqualTo(8);
        assertThat(MeasuringJvm.carriers(2)).isEqualTo(8);
        assertThat(MeasuringJvm.carriers(16)).isEqualTo(64);
    }

    @Test
    void theUsersOwnSettingOfAnOptionWinsOverOursWhateverItsValue() {
        List<String> ours = MeasuringJvm.options(25, null);
        List<String> added = MeasuringJvm.missing(List.of("-Xmx1g", "-XX:SoftMaxHeapSize=900m",
                "-Djdk.virtualThreadScheduler.parallelism=2", "-Xlog:gc*:file=gc.log"), ours);
        assertThat(added).noneMatch(o -> o.startsWith("-Xmx") || o.startsWith("-XX:SoftMaxHeapSize")
                        || o.startsWith("-Djdk.virtualThreadScheduler.parallelism"))
                .contains("-XX:+UseZGC", "--enable-native-access=ALL-UNNAMED");
        assertThat(MeasuringJvm.missing(List.of("-XX:-UseZGC"), List.of("-XX:+UseZGC"))).isEmpty();
        // a heap limit given alone (either spelling) also drops our soft limit, which could exceed it
        for (String heap : List.of("-Xmx200m", "-XX:MaxHeapSize=200m")) {
            assertThat(MeasuringJvm.missing(List.of(heap), MeasuringJvm.options(25, null, 300)))
                    .noneMatch(o -> o.startsWith("-Xmx") || o.startsWith("-XX:SoftMaxHeapSize"))
                    .contains("-XX:+UseZGC");
        }
        assertThat(MeasuringJvm.missing(List.of(), ours)).isEqualTo(ours);
    }

    @Test
    void theLauncherScriptAndTheInstalledAppSetTheSameHeapAsARelaunch() throws Exception {
        String script = Files.readString(Path.of("src/main/dist/latencylab"));
        String jpackage = Files.readString(Path.of("../installers/jpackage/common.txt"));
        for (String o : List.of(MeasuringJvm.MAX_HEAP, MeasuringJvm.SOFT_MAX_HEAP, MeasuringJvm.GC_THREADS,
                MeasuringJvm.JIT)) {
            assertThat(script).contains("set -- " + o + " ");
            assertThat(jpackage).contains("--java-options " + o + "\n");
        }
    }

    @Test
    void theHeapGrowsWithClosedLoopConcurrencyAboveTheBaseAndIsCapped() {
        assertThat(MeasuringJvm.heapOptions(1)).containsExactly(MeasuringJvm.MAX_HEAP, MeasuringJvm.SOFT_MAX_HEAP);
        assertThat(MeasuringJvm.heapOptions(256)).containsExactly(MeasuringJvm.MAX_HEAP, MeasuringJvm.SOFT_MAX_HEAP);
        assertThat(MeasuringJvm.heapOptions(1024)).containsExactly("-Xmx1056m", "-XX:SoftMaxHeapSize=960m");
        assertThat(MeasuringJvm.heapOptions(100_000)).containsExactly("-Xmx2048m", "-XX:SoftMaxHeapSize=1952m");
        assertThat(MeasuringJvm.options(25, null, 1024)).contains("-Xmx1056m").doesNotContain(MeasuringJvm.MAX_HEAP);
    }

    @Test
    void theConcurrencyIsReadFromTheOptionsOfAnyCommand() {
        assertThat(MeasuringJvm.concurrency(new String[] {"probe", "-n", "2048", "-c", "1024"})).isEqualTo(1024);
        assertThat(MeasuringJvm.concurrency(new String[] {"sweep", "--concurrency=600"})).isEqualTo(600);
        assertThat(MeasuringJvm.concurrency(new String[] {"calibrate", "-c512"})).isEqualTo(512);
        assertThat(MeasuringJvm.concurrency(new String[] {"probe", "-n", "5000"})).isEqualTo(1);
        assertThat(MeasuringJvm.concurrency(new String[] {"probe", "-c", "many"})).isEqualTo(1);
        // calibrate without a load climbs its default ladder, up to 1,024 streams; with a rate it is an open loop
        assertThat(MeasuringJvm.concurrency(new String[] {"calibrate"})).isEqualTo(1024);
        assertThat(MeasuringJvm.concurrency(new String[] {"calibrate", "--rate", "300"})).isEqualTo(1);
        assertThat(MeasuringJvm.concurrency(new String[] {"calibrate", "-c", "1"})).isEqualTo(1);
    }

    @Test
    void theConcurrencyOfAScenarioIsReadFromItsConcurrencyKeysAndConcurrencyAxes(@org.junit.jupiter.api.io.TempDir
                                                                                  Path dir) throws Exception {
        Path load = dir.resolve("load.yaml");
        Files.writeString(load, """
                name: x
                experiments:
                  - load: {concurrency: 640, duration: 4s, contextTokens: 8192}
                  - type: probe
                    concurrency: 12
                """);
        assertThat(MeasuringJvm.concurrency(new String[] {"run", load.toString(), "-o", "out"})).isEqualTo(640);
        Path grid = dir.resolve("grid.yaml");
        Files.writeString(grid, """
                experiments:
                  - type: grid
                    rowAxis: concurrency
                    rowValues: [1, 8, 900]
                    columnValues: [512, 8192]
                    contextTokens: [512, 2048, 8192]
                """);
        assertThat(MeasuringJvm.concurrency(new String[] {"run", grid.toString()})).isEqualTo(900);
        assertThat(MeasuringJvm.concurrency(new String[] {"run", dir.resolve("missing.yaml").toString()}))
                .isEqualTo(1);
    }
}
