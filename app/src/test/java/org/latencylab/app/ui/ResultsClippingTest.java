package org.latencylab.app.ui;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.spi.AbstractAxis;
import javafx.animation.AnimationTimer;
import javafx.embed.swing.SwingFXUtils;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.latencylab.app.ui.experiment.ExperimentViewModel;
import org.latencylab.app.ui.results.ResultsLayout;
import org.latencylab.app.ui.settings.Theme;
import org.testfx.api.FxRobot;

import javax.imageio.ImageIO;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.latencylab.app.ui.DesktopWindow.fx;
import static org.latencylab.app.ui.DesktopWindow.waitUntil;

/**
 * Nothing in the Results tab is clipped: a probe and a 2k/8k/32k sweep run against the built-in simulator in the
 * real window, and for each one's layout at 1280×800 and 1600×1000, light and dark, the scene graph is walked. It
 * fails on a {@link Labeled} whose displayed text differs from its text (an ellipsis), a {@link Text} whose bounds
 * leave its chart's (or, outside a chart, the window's), and a ChartFX axis given less room than its tick labels
 * and title need (tick labels are drawn on the axis's canvas, so their clipping shows only in the axis size). A PNG
 * of the window in each case is written under {@code target/results-layouts/} to look at.
 */
class ResultsClippingTest {
    @RegisterExtension
    static final DesktopWindow WINDOW = new DesktopWindow();
    private static DesktopApp app;
    private final FxRobot robot = new FxRobot();
    private static final double[][] SIZES = {{1280, 800}, {1600, 1000}};
    /** Rounding of layout to whole pixels. */
    private static final double SLACK_PX = 1.0;

    @BeforeAll
    static void window() {
        app = WINDOW.app();
    }

    @Test
    void noTextIsClippedInAnyLayoutSizeOrTheme() throws Exception {
        MainViewModel vm = app.viewModel();
        robot.clickOn("Built-in simulator");
        fx(() -> {
            vm.endpoints().simProfileProperty().set("small-fast");
            return null;
        });
        List<String> problems = new ArrayList<>();

        robot.clickOn("Experiment");
        robot.clickOn("#kindProbe");
        fx(() -> {
            vm.experiment().requestsProperty().set(12);
            vm.experiment().concurrencyProperty().set(3);
            vm.experiment().maxOutputTokensProperty().set(8);
            return null;
        });
        run(vm);
        assertThat(fx(() -> vm.results().layoutProperty().get())).isEqualTo(ResultsLayout.PROBE);
        problems.addAll(walkAll("probe"));

        robot.clickOn("Experiment");
        robot.clickOn("#kindSweep");
        fx(() -> {
            ExperimentViewModel e = vm.experiment();
            for (int i = 0; i < 3; i++) {
                e.presetCheckedProperty(i).set(true);
            }
            e.customLengthsProperty().set("");
            e.requestsPerLengthProperty().set(3);
            e.concurrencyProperty().set(3);
            return null;
        });
        run(vm);
        assertThat(fx(() -> vm.results().layoutProperty().get())).isEqualTo(ResultsLayout.SWEEP);
        problems.addAll(walkAll("sweep"));

        assertThat(problems).as("clipped text in the Results tab").isEmpty();
    }

    private void run(MainViewModel vm) throws Exception {
        int before = fx(() -> vm.history().runs().size());
        robot.clickOn("#runButton");
        waitUntil(10, () -> vm.run().runningProperty().get());
        waitUntil(120, () -> !vm.run().runningProperty().get());
        waitUntil(20, () -> vm.history().runs().size() > before);
    }

    private List<String> walkAll(String layout) throws Exception {
        List<String> problems = new ArrayList<>();
        Stage stage = app.stage();
        for (Theme theme : List.of(Theme.LIGHT, Theme.DARK)) {
            for (double[] size : SIZES) {
                fx(() -> {
                    app.viewModel().themeProperty().set(theme);
                    stage.setWidth(size[0]);
                    stage.setHeight(size[1]);
                    return null;
                });
                pulses(6);
                String where = layout + " " + (int) size[0] + "x" + (int) size[1] + " " + theme;
                problems.addAll(fx(() -> {
                    List<String> found = new ArrayList<>();
                    walk(stage.getScene().getRoot(), stage.getScene().getRoot(), where, found);
                    return found;
                }));
                Path png = Path.of("target", "results-layouts", layout + "-" + (int) size[0] + "x" + (int) size[1]
                        + "-" + theme.name().toLowerCase() + ".png");
                Files.createDirectories(png.getParent());
                var img = fx(() -> stage.getScene().snapshot(null));
                ImageIO.write(SwingFXUtils.fromFXImage(img, null), "png", png.toFile());
            }
        }
        return problems;
    }

    /** Waits for {@code n} pulses of the JavaFX thread (layout and CSS are done in a pulse). */
    private static void pulses(int n) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        fx(() -> {
            new AnimationTimer() {
                private int seen;

                @Override
                public void handle(long now) {
                    if (++seen >= n) {
                        stop();
                        done.complete(null);
                    }
                }
            }.start();
            return null;
        });
        done.get(30, TimeUnit.SECONDS);
    }

    private static void walk(Node n, Parent root, String where, List<String> found) {
        if (!n.isVisible() || n.getOpacity() == 0) {
            return; // not shown: nor are its children
        }
        if (n instanceof Labeled l && l.getText() != null && !l.getText().isBlank()) {
            for (Node c : l.getChildrenUnmodifiable()) {
                if (c instanceof Text t && c.isVisible() && !l.getText().replace("_", "").equals(
                        t.getText().replace("_", ""))) {
                    found.add(where + ": " + describe(l) + " shows \"" + t.getText() + "\" of \"" + l.getText()
                            + "\"");
                }
            }
        }
        if (n instanceof Text t && t.getText() != null && !t.getText().isBlank()) {
            String out = leaves(t, root);
            if (out != null) {
                found.add(where + ": text \"" + t.getText() + "\" " + out);
            }
        }
        if (n instanceof XYChart c) {
            long points = c.getAllDatasets().stream().mapToLong(ds -> ds.getDataCount()).sum();
            if (points == 0) {
                found.add(where + ": " + describe(c) + " is shown without data");
            }
        }
        if (n instanceof AbstractAxis a && a.getWidth() > 0 && a.getHeight() > 0) {
            boolean vertical = a.getSide() != null && a.getSide().isVertical();
            double need = vertical ? a.prefWidth(a.getHeight()) : a.prefHeight(a.getWidth());
            double have = vertical ? a.getWidth() : a.getHeight();
            if (have + SLACK_PX < need) {
                found.add(where + ": axis \"" + a.getName() + "\" of " + describe(chartOf(a)) + " has "
                        + Math.round(have) + " px for its labels, needs " + Math.round(need));
            }
        }
        if (n instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                walk(c, root, where, found);
            }
        }
    }

    /**
     * @return how the text's bounds leave the window, its chart, its axis or a clipping ancestor (in a scrolled
     *     list or table only sideways: rows scrolled out of view are not clipped text), or null when they do not
     */
    private static String leaves(Text t, Parent root) {
        Bounds b = t.localToScene(t.getBoundsInLocal());
        String out = outside(b, root.localToScene(root.getLayoutBounds()), true);
        if (out != null) {
            return "at " + fmt(b) + " leaves the window " + out;
        }
        for (Node p = t.getParent(); p != null; p = p.getParent()) {
            Bounds outer = null;
            boolean vertical = true;
            if (p.getClip() != null) {
                outer = p.localToScene(p.getClip().getBoundsInParent());
                vertical = !p.getClass().getSimpleName().equals("ClippedContainer")
                        && !(p.getParent() instanceof javafx.scene.control.ScrollPane)
                        && !p.getStyleClass().contains("viewport");
            } else if (p instanceof XYChart || p instanceof AbstractAxis) {
                outer = p.localToScene(p.getLayoutBounds());
            }
            if (outer != null) {
                out = outside(b, outer, vertical);
                if (out != null) {
                    return "at " + fmt(b) + " leaves " + describe(p) + " at " + fmt(outer) + " " + out;
                }
            }
        }
        return null;
    }

    private static String outside(Bounds b, Bounds outer, boolean vertical) {
        if (b.getMinX() < outer.getMinX() - SLACK_PX || b.getMaxX() > outer.getMaxX() + SLACK_PX) {
            return "sideways";
        }
        if (vertical && (b.getMinY() < outer.getMinY() - SLACK_PX || b.getMaxY() > outer.getMaxY() + SLACK_PX)) {
            return "vertically";
        }
        return null;
    }

    private static Node chartOf(Node n) {
        for (Node p = n.getParent(); p != null; p = p.getParent()) {
            if (p instanceof XYChart) {
                return p;
            }
        }
        return null;
    }

    private static String describe(Node n) {
        if (n == null) {
            return "(no chart)";
        }
        if (n instanceof XYChart c) {
            return "chart \"" + c.getTitle() + "\"";
        }
        return n.getClass().getSimpleName() + (n.getId() == null ? "" : "#" + n.getId());
    }

    private static String fmt(Bounds b) {
        return String.format("[%.0f..%.0f × %.0f..%.0f]", b.getMinX(), b.getMaxX(), b.getMinY(), b.getMaxY());
    }
}
