package org.latencylab.app.ui;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.plugins.YRangeIndicator;
import io.fair_acc.dataset.DataSet;

import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencylab.charts.ChartTheme;
import org.latencylab.engine.run.StatsSettings;
import org.testfx.api.FxToolkit;

import java.util.List;
import java.util.concurrent.Callable;

import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chart warm-up puts a CDF chart and a time chart into a showing window, unseen (transparent, unmanaged, behind
 * the window's own content), lets them lay out and draw their data there, tier bands included, and takes them out
 * again, leaving the window's content as it was.
 */
class ChartWarmUpTest {
    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private static <T> T fx(Callable<T> c) {
        return org.testfx.util.WaitForAsyncUtils.waitForAsyncFx(10_000, c);
    }

    @Test
    void drawsChartDataUnseenInTheWindowAndLeavesIt() throws Exception {
        Label content = new Label("window content");
        StackPane host = fx(() -> new StackPane(content));
        List<Node> added = new CopyOnWriteArrayList<>();
        List<String> whenAdded = new CopyOnWriteArrayList<>();
        Stage stage = fx(() -> {
            host.getChildren().addListener((ListChangeListener<Node>) c -> {
                while (c.next()) {
                    for (Node n : c.getAddedSubList()) {
                        added.add(n);
                        whenAdded.add(host.getChildren().indexOf(n) + " " + n.getOpacity() + " " + n.isManaged()
                                + " " + n.isMouseTransparent());
                    }
                }
            });
            Stage s = new Stage();
            s.setScene(new Scene(host, 800, 600));
            s.show();
            ChartWarmUp.start(host, ChartTheme.LIGHT, StatsSettings.DEFAULTS.tierTable(), 1);
            return s;
        });
        try {
            long until = System.currentTimeMillis() + 20_000;
            while (System.currentTimeMillis() < until
                    && (added.size() < 2 || fx(() -> host.getChildren().size()) != 1)) {
                Thread.sleep(20);
            }
            assertThat(added).as("charts added").hasSize(2).allMatch(n -> n instanceof XYChart);
            // behind the content, transparent, outside the layout, not in the way of the mouse
            assertThat(whenAdded).containsExactly("0 0.0 false true", "1 0.0 false true");
            assertThat(added).as("the CDF chart joins first").first()
                    .matches(n -> ((XYChart) n).getTitle().startsWith("Latency distribution"));
            assertThat(fx(() -> List.copyOf(host.getChildren()))).as("the window's content after").containsExactly(
                    content);

            XYChart cdf = (XYChart) added.get(0);
            XYChart time = (XYChart) added.get(1);
            assertThat(fx(() -> cdf.getAllDatasets().stream().map(DataSet::getDataCount).toList()))
                    .as("CDF lines (staircase points)").hasSize(2).allMatch(n -> n > 200);
            assertThat(fx(() -> time.getAllDatasets().stream().map(DataSet::getDataCount).toList()))
                    .as("time chart lines").containsExactly(10, 10);
            assertThat(fx(() -> time.getPlugins().stream().filter(p -> p instanceof YRangeIndicator).count()))
                    .as("tier bands").isGreaterThan(0);
            // laid out with its data in the window: the axes were ranged to the data (E2E up to 400 ms)
            assertThat(fx(() -> cdf.getXAxis().getMax())).as("CDF x axis max").isGreaterThanOrEqualTo(400);
            assertThat(fx(() -> time.getYAxis().getMax())).as("time y axis max").isGreaterThanOrEqualTo(360);
        } finally {
            fx(() -> {
                stage.close();
                return null;
            });
        }
    }
}
