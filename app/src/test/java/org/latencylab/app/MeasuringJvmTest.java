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
        assertThat(JvmOptions.options(21, Path.of("x.aot")))
                .contains("-XX:+UseZGC", "-XX:+ZGenerational", JvmOptions.MAX_HEAP, JvmOptions.SOFT_MAX_HEAP,
                        JvmOptions.GC_THREADS)
                .noneMatch(o -> o.startsWith("--sun-misc") || o.startsWith("-XX:AOTCache"));
    }

    @Test
    void jdk25UsesTheAotCacheWhenThereIsOneAndSilencesUnsafeWarnings() {
        assertThat(JvmOptions.options(25, Path.of("c.aot")))
                .contains("-XX:+UseZGC", "-XX:AOTCache=c.aot", "--sun-misc-unsafe-memory-access=allow")
                .doesNotContain("-XX:+ZGenerational");
        assertThat(JvmOptions.options(25, null)).noneMatch(o -> o.startsWith("-XX:AOTCache"));
    }

    @Test
    void threadPrioritiesReachTheSystemOnlyWhereTheJvmAcceptsThemWithoutAWarningAndNotForASimulator() {
        assertThat(JvmOptions.options(25, null, 64, false, true)).containsSubsequence(JvmOptions.PRIORITIES);
        assertThat(JvmOptions.options(25, null, 64, false, false))
                .doesNotContainAnyElementsOf(JvmOptions.PRIORITIES);
        assertThat(JvmOptions.options(25, null, 1024, true, true))
                .doesNotContainAnyElementsOf(JvmOptions.PRIORITIES);
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
        assertThat(JvmOptions.carriers(1)).isEqualTo(8);
        assertThat(JvmOptions.carriers(2)).isEqualTo(8);
        assertThat(JvmOptions.carriers(16)).isEqualTo(64);
    }

    @Test
    void theUsersOwnSettingOfAnOptionWinsOverOursWhateverItsValue() {
        List<String> ours = JvmOptions.options(25, null);
        List<String> added = MeasuringJvm.missing(List.of("-Xmx1g", "-XX:SoftMaxHeapSize=900m",
                "-Djdk.virtualThreadScheduler.parallelism=2", "-Xlog:gc*:file=gc.log"), ours);
        assertThat(added).noneMatch(o -> o.startsWith("-Xmx") || o.startsWith("-XX:SoftMaxHeapSize")
                        || o.startsWith("-Djdk.virtualThreadScheduler.parallelism"))
                .contains("-XX:+UseZGC", "--enable-native-access=ALL-UNNAMED");
        assertThat(MeasuringJvm.missing(List.of("-XX:-UseZGC"), List.of("-XX:+UseZGC"))).isEmpty();
        // a heap limit given alone (either spelling) also drops our soft limit, which could exceed it
        for (String heap : List.of("-Xmx200m", "-XX:MaxHeapSize=200m")) {
            assertThat(MeasuringJvm.missing(List.of(heap), JvmOptions.options(25, null, 300)))
                    .noneMatch(o -> o.startsWith("-Xmx") || o.startsWith("-XX:SoftMaxHeapSize"))
                    .contains("-XX:+UseZGC");
        }
        assertThat(MeasuringJvm.missing(List.of(), ours)).isEqualTo(ours);
    }

    @Test
    void theLauncherScriptAndTheInstalledAppSetTheSameHeapAsARelaunch() throws Exception {
        String script = Files.readString(Path.of("src/main/dist/latencylab"));
        String jpackage = Files.readString(Path.of("../installers/jpackage/common.txt"));
        for (String o : List.of(JvmOptions.MAX_HEAP, JvmOptions.SOFT_MAX_HEAP, JvmOptions.GC_THREADS,
                JvmOptions.JIT)) {
            assertThat(script).contains("set -- " + o + " ");
            assertThat(jpackage).contains("--java-options " + o + "\n");
        }
    }

    @Test
    void aStandaloneSimulatorCompilesWithC2WhileMeasuringCommandsUseC1Only() throws Exception {
        assertThat(JvmOptions.options(25, null, 1024, true)).doesNotContain(JvmOptions.JIT)
                .contains("-XX:+UseZGC", JvmOptions.GC_THREADS);
        assertThat(JvmOptions.options(25, null, 1024, false)).contains(JvmOptions.JIT);
        assertThat(JvmOptions.options(25, null, 64)).contains(JvmOptions.JIT);
        // the launcher script leaves C1-only out for `sim` too
        String script = Files.readString(Path.of("src/main/dist/latencylab"));
        assertThat(script).contains("[ \"$command\" = sim ] || set -- " + JvmOptions.JIT + " ");
    }

    @Test
    void onlyClosedLoopsAboveTheBaseConcurrencyGetFixedAllocationBuffers() {
        assertThat(JvmOptions.options(25, null, 1024)).containsSubsequence(JvmOptions.TLAB);
        assertThat(JvmOptions.options(25, null, JvmOptions.HEAP_BASE_CONCURRENCY))
                .doesNotContainAnyElementsOf(JvmOptions.TLAB);
        assertThat(JvmOptions.options(25, null)).doesNotContainAnyElementsOf(JvmOptions.TLAB);
    }

    @Test
    void theInstalledAppsHeapIsMarkedAsItsDefaultAndMayGrowLikeTheScripts() throws Exception {
        List<String> installed = jpackageJavaOptions();
        assertThat(installed).contains(JvmOptions.MAX_HEAP, "-D" + MeasuringJvm.DEFAULT_HEAP_MARK + "=true");
        assertThat(MeasuringJvm.defaultHeap(installed)).isTrue();
        assertThat(MeasuringJvm.defaultHeap(List.of("-XX:+UseZGC"))).as("no heap given").isTrue();
        List<String> unmarked = installed.stream().filter(o -> !o.contains(MeasuringJvm.DEFAULT_HEAP_MARK)).toList();
        assertThat(MeasuringJvm.defaultHeap(unmarked)).as("288 MB given by a user").isFalse();
        // a heap written into the launcher's configuration next to the mark, or given after it, is the user's
        List<String> edited = installed.stream().map(o -> o.equals(JvmOptions.MAX_HEAP) ? "-Xmx1g" : o).toList();
        assertThat(MeasuringJvm.defaultHeap(edited)).isFalse();
        List<String> later = new java.util.ArrayList<>(installed);
        later.add("-XX:MaxHeapSize=400m");
        assertThat(MeasuringJvm.defaultHeap(later)).isFalse();
    }

    @Test
    void aJvmWithTheInstalledAppsOptionsGivesA1024StreamRunItsHeapWithoutANotice(
            @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // the scenario asks for 1,024 streams but has a misspelt field: the command exits 2 before any request
        Path scenario = dir.resolve("big.yaml");
        Files.writeString(scenario, "name: big\nendpoint: {builtin: sim}\n"
                + "experiments: [{type: probe, requests: 2048, concurrency: 1024, concurency: 3}]\n");
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // what the installed app's launcher passes (its runtime is Java 25; an older JVM refuses the Unsafe flag)
        jpackageJavaOptions().stream().filter(o -> Runtime.version().feature() >= 23
                || !o.startsWith("--sun-misc-unsafe-memory-access")).forEach(cmd::add);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Launcher.class.getName(), "run",
                scenario.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove(MeasuringJvm.OPT_OUT);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isEqualTo(2);
        assertThat(err).contains("field 'experiments[0].concurency' is unknown").doesNotContain("heap");
    }

    /** @return the {@code --java-options} of the installed app's jpackage configuration, in order */
    private static List<String> jpackageJavaOptions() throws java.io.IOException {
        return Files.readAllLines(Path.of("../installers/jpackage/common.txt")).stream()
                .filter(l -> l.startsWith("--java-options ")).map(l -> l.substring("--java-options ".length()).strip())
                .toList();
    }

    @Test
    void aHeapTheUserChoseBelowWhatTheConcurrencyNeedsGetsOneNotice() {
        long mb = 1024 * 1024;
        assertThat(JvmOptions.heapNotice(1024, 400 * mb)).hasValue("latencylab: note: heap 400 MB given; a"
                + " 1,024-stream run needs about 1,056 MB: garbage collection may show in the latencies (give"
                + " -Xmx1056m, or leave -Xmx out and LatencyLab sizes the heap itself)");
        assertThat(JvmOptions.heapNotice(1024, 1056 * mb)).isEmpty();
        assertThat(JvmOptions.heapNotice(1024, 1045 * mb)).as("within the JVM's rounding").isEmpty();
        assertThat(JvmOptions.heapNotice(1024, 2048 * mb)).isEmpty();
        // up to 256 streams the heap does not depend on the concurrency: a small heap there is the user's business
        assertThat(JvmOptions.heapNotice(256, 100 * mb)).isEmpty();
        assertThat(JvmOptions.heapNotice(300, 100 * mb)).hasValueSatisfying(n -> assertThat(n)
                .contains("heap 100 MB given; a 300-stream run needs about 332 MB"));
    }

    @Test
    void aRelaunchedSimulatorEndsWhenItsLauncherIsKilledWithSigkill(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // no collector given: the launcher relaunches the simulator with ZGC as its child
        ProcessBuilder pb = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName(), "sim", "--profile", "zero-latency", "--port", Integer.toString(port));
        pb.environment().remove(MeasuringJvm.OPT_OUT);
        pb.redirectErrorStream(true).redirectOutput(dir.resolve("sim.log").toFile());
        Process launcher = pb.start();
        ProcessHandle child = null;
        try {
            long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            boolean listening = false;
            while (!listening && System.nanoTime() - until < 0 && launcher.isAlive()) {
                try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                    listening = true;
                } catch (java.io.IOException e) {
                    Thread.sleep(200);
                }
            }
            assertThat(listening).as(Files.readString(dir.resolve("sim.log"))).isTrue();
            child = launcher.toHandle().children().findFirst().orElse(null);
            assertThat(child).as("the relaunched simulator").isNotNull();

            launcher.destroyForcibly(); // SIGKILL: the launcher can forward nothing
            launcher.waitFor();
            boolean ended = child.onExit().completeOnTimeout(null, 20, java.util.concurrent.TimeUnit.SECONDS).get()
                    != null || !child.isAlive();
            assertThat(ended).as("the child is gone within 20 s of its launcher").isTrue();
            assertThat(Files.readString(dir.resolve("sim.log"))).contains("the launching process " + launcher.pid()
                    + " ended; stopping");
        } finally {
            launcher.destroyForcibly();
            if (child != null) {
                child.destroyForcibly();
            }
        }
    }

    @Test
    void aLauncherGivenASmallHeapSaysSoOnceOnStderrAndKeepsIt(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        // a scenario that asks for 1,024 streams but has a misspelt field: the command exits 2 before any request
        Path scenario = dir.resolve("big.yaml");
        Files.writeString(scenario, "name: big\nendpoint: {builtin: sim}\n"
                + "experiments: [{type: probe, requests: 2048, concurrency: 1024, concurency: 3}]\n");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (String heap : List.of("-Xmx400m", "-XX:MaxHeapSize=400m", "-Xmx2g")) {
            // the JVM of a relaunch (any collector but ZGC is relaunched) would print it again if it were not once
            ProcessBuilder pb = new ProcessBuilder(javaBin, heap, "-cp", System.getProperty("java.class.path"),
                    Launcher.class.getName(), "run", scenario.toString());
            pb.environment().remove(MeasuringJvm.OPT_OUT);
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            Process p = pb.start();
            String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(err).isEqualTo(2);
            assertThat(err).contains("field 'experiments[0].concurency' is unknown");
            if (heap.equals("-Xmx2g")) {
                assertThat(err).as(heap).doesNotContain("heap");
            } else {
                assertThat(err.split("latencylab: note: heap ", -1)).as(err).hasSize(2);
                assertThat(err).contains("latencylab: note: heap 400 MB given; a 1,024-stream run needs about 1,056 MB:"
                        + " garbage collection may show in the latencies");
            }
        }
    }

    @Test
    void theHeapGrowsWithClosedLoopConcurrencyAboveTheBaseAndIsCapped() {
        assertThat(JvmOptions.heapOptions(1)).containsExactly(JvmOptions.MAX_HEAP, JvmOptions.SOFT_MAX_HEAP);
        assertThat(JvmOptions.heapOptions(256)).containsExactly(JvmOptions.MAX_HEAP, JvmOptions.SOFT_MAX_HEAP);
        assertThat(JvmOptions.heapOptions(1024)).containsExactly("-Xmx1056m", "-XX:SoftMaxHeapSize=960m");
        assertThat(JvmOptions.heapOptions(100_000)).containsExactly("-Xmx2048m", "-XX:SoftMaxHeapSize=1952m");
        assertThat(JvmOptions.options(25, null, 1024)).contains("-Xmx1056m").doesNotContain(JvmOptions.MAX_HEAP);
    }

    @Test
    void theConcurrencyIsReadFromTheOptionsOfAnyCommand() {
        assertThat(MeasuringJvm.concurrency(new String[] {"probe", "-n", "2048", "-c", "1024"})).isEqualTo(1024);
        assertThat(MeasuringJvm.concurrency(new String[] {"sweep", "--concurrency=600"})).isEqualTo(600);
        assertThat(MeasuringJvm.concurrency(new String[] {"calibrate", "-c512"})).isEqualTo(512);
        assertThat(MeasuringJvm.concurrency(new String[] {"probe", "-n", "5000"})).isEqualTo(1);
        assertThat(MeasuringJvm.concurrency(new String[] {"probe", "-c", "many"})).isEqualTo(1);
        // a standalone simulator serves other processes' load: it gets the heap of a 1,024-stream run
        assertThat(MeasuringJvm.concurrency(new String[] {"sim", "--port", "8080"})).isEqualTo(1024);
        assertThat(JvmOptions.heapOptions(MeasuringJvm.concurrency(new String[] {"sim"})))
                .containsExactly("-Xmx1056m", "-XX:SoftMaxHeapSize=960m");
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
