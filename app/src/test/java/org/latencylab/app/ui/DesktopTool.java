package org.latencylab.app.ui;

import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;
import org.latencylab.app.ui.experiment.ExperimentViewModel;

import javax.imageio.ImageIO;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A tool (not a test) that drives the real desktop window on a real display (e.g. under {@code xvfb-run}):
 * <ul>
 *   <li>{@code screenshot OUT.png}: runs a 2k/8k/32k sweep on the simulator, then writes a PNG of the window;</li>
 *   <li>{@code bench}: measures the longest gap between JavaFX pulses (an {@link AnimationTimer} pulse-gap monitor)
 *       while a probe streams about 100 requests/s into the live charts, and prints it with the FX thread's own CPU
 *       time in that gap and the most CPU it spent between any two pulses (a gap much longer than its CPU time
 *       was spent waiting for a core or in a collector pause, not working on the FX thread);</li>
 *   <li>{@code window OUT.png [KIND]}: a PNG of the window as it opens (e.g. to look at the history list), with the
 *       experiment form of KIND ({@code PROBE}, {@code SWEEP}, {@code LOAD}, {@code GRID});</li>
 *   <li>{@code screenshot-load OUT.png} / {@code screenshot-grid OUT.png}: a PNG of the window while a load test
 *       (a burst) or a 3 × 3 grid runs;</li>
 *   <li>{@code compare OUT.png [e2e]}: every run of the history selected and compared, a PNG of the window (the
 *       Compare tab, TTFT CDFs or, with a third argument, E2E);</li>
 *   <li>{@code definitions OUT.png}: the newest run opened, a PNG of its Definitions tab in Results;</li>
 *   <li>{@code default-runs [PROBES]}: the experiment form as a new user finds it (default endpoint, simulator
 *       profile and values), run PROBES times (default 3) as a probe and once as a sweep, printing each step's trust
 *       check as the window's run holds it, to check that the offline default is the trustworthy path;</li>
 *   <li>{@code bench-load [RATE] [SECONDS]}: the same monitor during an open-loop load test started from the load
 *       form (default 200 req/s for 20 s, Poisson arrivals, 64 prompt tokens, 8 output tokens, {@code small-fast}),
 *       with the live load charts, the results charts and the table all updating; it also prints the eight pulses
 *       with the most FX-thread CPU before them and when the run started, the load panel first showed, the summary
 *       table got its first rows and the first load second arrived (ms after the monitor started, and the wall
 *       time of each costly pulse, to find it in a flight recording), to place them.</li>
 * </ul>
 * Both benches leave the window idle for 3 s after it opened (as a user choosing a form would) before they set up
 * and start their run. Set {@code -Dlatencylab.config.dir} and {@code -Dlatencylab.data.dir} to temporary folders.
 */
public final class DesktopTool {
    /** How long the benches leave the window idle after it opened before they set up and start their run, ms. */
    private static final long IDLE_BEFORE_RUN_MS = 3000;

    private DesktopTool() {
    }

    /** @param args {@code screenshot OUT.png}, {@code bench} or {@code bench-load [RATE] [SECONDS]} */
    public static void main(String[] args) throws Exception {
        CompletableFuture<DesktopApp> started = new CompletableFuture<>();
        Platform.startup(() -> {
            try {
                DesktopApp app = new DesktopApp();
                app.init();
                app.start(new Stage());
                started.complete(app);
            } catch (Exception e) {
                started.completeExceptionally(e);
            }
        });
        DesktopApp app = started.get(30, TimeUnit.SECONDS);
        MainViewModel vm = app.viewModel();
        try {
            if (args[0].equals("screenshot")) {
                screenshot(app, vm, Path.of(args[1]));
            } else if (args[0].equals("window")) {
                if (args.length > 2) { // the experiment form of that kind, e.g. LOAD
                    fx(() -> vm.experiment().kindProperty().set(ExperimentViewModel.Kind.valueOf(args[2])));
                }
                Thread.sleep(4000); // the history loads in the background
                CompletableFuture<WritableImage> img = new CompletableFuture<>();
                Platform.runLater(() -> img.complete(app.stage().getScene().snapshot(null)));
                ImageIO.write(SwingFXUtils.fromFXImage(img.get(30, TimeUnit.SECONDS), null), "png",
                        Path.of(args[1]).toFile());
            } else if (args[0].equals("compare") || args[0].equals("definitions")) {
                Thread.sleep(4000); // the history loads in the background
                if (args[0].equals("compare")) {
                    fx(() -> {
                        app.view().history().list().getSelectionModel().selectAll();
                        ((javafx.scene.control.Button) app.stage().getScene().lookup("#compareButton")).fire();
                    });
                    Thread.sleep(4000);
                    if (args.length > 2) { // the CDF of E2E instead of TTFT
                        fx(() -> app.view().compare().root().lookupAll("#compareMetric").forEach(n ->
                                ((javafx.scene.control.ComboBox<?>) n).getSelectionModel().select(1)));
                    }
                } else {
                    fx(() -> vm.history().open(app.view().history().list().getItems().get(0)));
                    Thread.sleep(3000);
                    fx(() -> ((javafx.scene.control.TabPane) app.stage().getScene().lookup("#resultsTabs"))
                            .getSelectionModel().select(1));
                }
                Thread.sleep(3000);
                CompletableFuture<WritableImage> img = new CompletableFuture<>();
                Platform.runLater(() -> img.complete(app.stage().getScene().snapshot(null)));
                ImageIO.write(SwingFXUtils.fromFXImage(img.get(30, TimeUnit.SECONDS), null), "png",
                        Path.of(args[1]).toFile());
            } else if (args[0].equals("screenshot-load")) {
                screenshotLive(app, vm, Path.of(args[1]), ExperimentViewModel.Kind.LOAD);
            } else if (args[0].equals("screenshot-grid")) {
                screenshotLive(app, vm, Path.of(args[1]), ExperimentViewModel.Kind.GRID);
            } else if (args[0].equals("default-runs")) {
                defaultRuns(vm, args.length > 1 ? Integer.parseInt(args[1]) : 3);
            } else if (args[0].equals("bench-load")) {
                double rate = args.length > 1 ? Double.parseDouble(args[1]) : 200;
                String seconds = args.length > 2 ? args[2] : "20";
                bench(app, vm, () -> {
                    vm.endpoints().simProfileProperty().set("small-fast");
                    ExperimentViewModel e = vm.experiment();
                    e.kindProperty().set(ExperimentViewModel.Kind.LOAD);
                    var f = e.load();
                    f.modeProperty().set(org.latencylab.engine.load.LoadMode.OPEN);
                    f.shapeProperty().set(org.latencylab.app.ui.experiment.LoadForm.Shape.CONSTANT);
                    f.arrivalProperty().set(org.latencylab.engine.load.ArrivalProcess.POISSON);
                    f.rateProperty().set(rate);
                    f.durationProperty().set(seconds + "s");
                    f.maxRequestsProperty().set(0);
                    f.warmupProperty().set("0s");
                    f.contextTokensProperty().set(64);
                    f.maxOutputTokensProperty().set(8);
                    f.streamProperty().set(true);
                    f.coldProperty().set(false);
                });
            } else {
                bench(app, vm, () -> {
                    vm.endpoints().simProfileProperty().set("small-fast");
                    ExperimentViewModel e = vm.experiment();
                    e.kindProperty().set(ExperimentViewModel.Kind.PROBE);
                    e.requestsProperty().set(3000);
                    e.concurrencyProperty().set(12);
                    e.promptTokensProperty().set(64);
                    e.maxOutputTokensProperty().set(8);
                    e.streamProperty().set(true);
                });
            }
        } finally {
            Platform.runLater(() -> {
                vm.run().cancel();
                app.stage().close();
            });
            Thread.sleep(500);
            Platform.exit();
            System.exit(0);
        }
    }

    private static void runAndWait(MainViewModel vm, long timeoutSeconds) throws Exception {
        fx(vm::startRun);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        Thread.sleep(500);
        while (System.nanoTime() < end) {
            CompletableFuture<Boolean> running = new CompletableFuture<>();
            Platform.runLater(() -> running.complete(vm.run().runningProperty().get()));
            if (!running.get()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("run did not end in " + timeoutSeconds + " s");
    }

    /** Runs the default probe {@code probes} times and the default sweep once, printing each step's trust check. */
    private static void defaultRuns(MainViewModel vm, int probes) throws Exception {
        for (int i = 0; i <= probes; i++) {
            boolean sweep = i == probes;
            int number = i + 1;
            fx(() -> vm.experiment().kindProperty().set(sweep ? ExperimentViewModel.Kind.SWEEP
                    : ExperimentViewModel.Kind.PROBE));
            runAndWait(vm, 600);
            CompletableFuture<String> lines = new CompletableFuture<>();
            Platform.runLater(() -> {
                var r = vm.results().resultProperty().get();
                StringBuilder b = new StringBuilder(sweep ? "default sweep" : "default probe " + number);
                if (r == null) {
                    b.append(": no result");
                } else {
                    r.steps().forEach(s -> b.append("\n  step ").append(s.label()).append(": ")
                            .append(s.trust() == null ? "no trust check" : s.trust().message()));
                    b.append("\n  run: ").append(r.trust() == null ? "no trust check" : r.trust().message())
                            .append("\n  shown in the Results header: \"").append(vm.results().trustProperty().get())
                            .append('"');
                }
                lines.complete(b.toString());
            });
            System.out.println(lines.get(30, TimeUnit.SECONDS));
        }
    }

    private static void fx(Runnable r) throws Exception {
        CompletableFuture<Void> f = new CompletableFuture<>();
        Platform.runLater(() -> {
            r.run();
            f.complete(null);
        });
        f.get(30, TimeUnit.SECONDS);
    }

    private static void screenshot(DesktopApp app, MainViewModel vm, Path out) throws Exception {
        fx(() -> {
            vm.endpoints().simProfileProperty().set("small-fast");
            ExperimentViewModel e = vm.experiment();
            e.kindProperty().set(ExperimentViewModel.Kind.SWEEP);
            for (int i = 0; i < 3; i++) {
                e.presetCheckedProperty(i).set(true);
            }
            e.customLengthsProperty().set("4k, 16k");
            e.requestsPerLengthProperty().set(8);
            e.concurrencyProperty().set(4);
        });
        runAndWait(vm, 120);
        Thread.sleep(1500);
        CompletableFuture<WritableImage> img = new CompletableFuture<>();
        Platform.runLater(() -> img.complete(app.stage().getScene().snapshot(null)));
        ImageIO.write(SwingFXUtils.fromFXImage(img.get(30, TimeUnit.SECONDS), null), "png", out.toFile());
        System.out.println("wrote " + out);
    }

    /** A load test (burst 20 → 120 req/s on the narrow simulator) or a 3 × 3 grid, pictured while it runs. */
    private static void screenshotLive(DesktopApp app, MainViewModel vm, Path out, ExperimentViewModel.Kind kind)
            throws Exception {
        fx(() -> {
            vm.endpoints().simProfileProperty().set(kind == ExperimentViewModel.Kind.LOAD ? "small-fast-narrow"
                    : "small-fast");
            ExperimentViewModel e = vm.experiment();
            e.kindProperty().set(kind);
            var f = e.load();
            f.modeProperty().set(org.latencylab.engine.load.LoadMode.OPEN);
            f.shapeProperty().set(org.latencylab.app.ui.experiment.LoadForm.Shape.BURST);
            f.burstBaseProperty().set(20);
            f.burstPeakProperty().set(120);
            f.burstAtProperty().set("6s");
            f.burstForProperty().set("6s");
            f.durationProperty().set("30s");
            f.contextTokensProperty().set(512);
            f.maxOutputTokensProperty().set(16);
            var g = e.grid();
            g.rowValuesProperty().set("1, 4, 16");
            g.contextTokensProperty().set("256, 1k, 4k");
            g.cellDurationProperty().set("3s");
            g.cellRequestsProperty().set(0);
        });
        fx(vm::startRun);
        Thread.sleep(kind == ExperimentViewModel.Kind.LOAD ? 20_000 : 17_000);
        CompletableFuture<WritableImage> img = new CompletableFuture<>();
        Platform.runLater(() -> img.complete(app.stage().getScene().snapshot(null)));
        ImageIO.write(SwingFXUtils.fromFXImage(img.get(30, TimeUnit.SECONDS), null), "png", out.toFile());
        System.out.println("wrote " + out);
    }

    private static void bench(DesktopApp app, MainViewModel vm, Runnable setUp) throws Exception {
        java.util.List<long[]> pulseLog = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.Map<String, Long> marks = new java.util.concurrent.ConcurrentHashMap<>();
        AtomicLong last = new AtomicLong();
        AtomicLong maxGap = new AtomicLong();
        AtomicLong pulses = new AtomicLong();
        // the FX thread's own CPU time between two pulses: what it worked (the rest of a gap is waiting for a core,
        // or a collector pause)
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        AtomicLong lastCpu = new AtomicLong(-1);
        AtomicLong maxCpu = new AtomicLong();
        AtomicLong cpuOfMaxGap = new AtomicLong();
        java.util.List<long[]> gaps = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        long origin = System.nanoTime();
        long originWallMs = System.currentTimeMillis();
        AnimationTimer monitor = new AnimationTimer() {
            @Override
            public void handle(long now) {
                long cpu = threads.getCurrentThreadCpuTime();
                long prevCpu = lastCpu.getAndSet(cpu);
                long prev = last.getAndSet(now);
                if (prev != 0) {
                    long worked = prevCpu < 0 ? 0 : cpu - prevCpu;
                    maxCpu.accumulateAndGet(worked, Math::max);
                    if (now - prev > maxGap.get()) {
                        maxGap.set(now - prev);
                        cpuOfMaxGap.set(worked);
                    }
                    pulseLog.add(new long[]{(prev - origin) / 1_000_000, (now - prev) / 1_000_000, worked / 1000});
                    if (now - prev > 100_000_000L) {
                        gaps.add(new long[]{(prev - origin) / 1_000_000, (now - prev) / 1_000_000, worked / 1_000_000});
                    }
                }
                pulses.incrementAndGet();
            }
        };
        // a user takes seconds to choose a form and start a run: the window's own start-up work (the history read,
        // the chart warm-up) is over by then, and is not part of the load test measured here
        Thread.sleep(IDLE_BEFORE_RUN_MS);
        fx(setUp);
        // when the parts of the Results tab first have something to show (to place the longest pulses in the run)
        fx(() -> {
            app.view().steps().root().visibleProperty().addListener((o, a, b) -> marks.putIfAbsent(
                    "load panel shown", (System.nanoTime() - origin) / 1_000_000));
            vm.results().rows().addListener((javafx.collections.ListChangeListener<Object>) c -> marks.putIfAbsent(
                    "first summary rows", (System.nanoTime() - origin) / 1_000_000));
            vm.steps().secondsProperty().addListener((o, a, b) -> marks.putIfAbsent(
                    "first load second", (System.nanoTime() - origin) / 1_000_000));
        });
        fx(monitor::start);
        marks.put("run started", (System.nanoTime() - origin) / 1_000_000);
        long t0 = System.nanoTime();
        runAndWait(vm, 300);
        double seconds = (System.nanoTime() - t0) / 1e9;
        fx(monitor::stop);
        CompletableFuture<Long> n = new CompletableFuture<>();
        Platform.runLater(() -> n.complete(vm.run().lastResultProperty().get().overall().sent()));
        long requests = n.get();
        System.out.printf("requests %d in %.1f s (%.0f req/s); pulses %d; longest pulse gap %.1f ms (FX-thread CPU"
                + " in it %.1f ms); most FX-thread CPU between two pulses %.1f ms%n", requests, seconds,
                requests / seconds, pulses.get(), maxGap.get() / 1e6, cpuOfMaxGap.get() / 1e6, maxCpu.get() / 1e6);
        new java.util.TreeMap<>(marks).forEach((k, v) -> System.out.printf("%s at %d ms%n", k, v));
        synchronized (pulseLog) {
            pulseLog.stream().sorted((a, b) -> Long.compare(b[2], a[2])).limit(8).forEach(g -> System.out.printf(
                    "FX-thread CPU %.1f ms between two pulses (gap %d ms), starting %d ms after the monitor (%s)%n",
                    g[2] / 1e3, g[1], g[0], java.time.Instant.ofEpochMilli(originWallMs + g[0])));
        }
        synchronized (gaps) {
            gaps.forEach(g -> System.out.printf("gap > 100 ms: %d ms long (FX-thread CPU %d ms), starting %d ms after"
                    + " the monitor (%s)%n", g[1], g[2], g[0], java.time.Instant.ofEpochMilli(originWallMs + g[0])));
        }
    }

}
