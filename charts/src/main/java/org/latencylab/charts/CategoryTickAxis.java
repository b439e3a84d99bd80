package org.latencylab.charts;

import java.util.List;

import javafx.util.StringConverter;

import io.fair_acc.chartfx.axes.spi.AxisRange;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.dataset.spi.fastutil.DoubleArrayList;

import org.latencylab.charts.data.Quantity;

/**
 * A numeric axis whose categories sit at 0, 1, 2, … with one major tick and label per category and no minor ticks;
 * the range is {@code −0.5 … n − 0.5} so that each category owns a unit-wide slot. ChartFX's own {@code
 * CategoryAxis} is final and auto-ranges from the data, which would cut the first and last slot in half, hence
 * this small axis. JavaFX thread only.
 */
final class CategoryTickAxis extends DefaultNumericAxis {

    private List<String> categories = List.of();

    CategoryTickAxis(Quantity q) {
        super(q.name(), q.unit());
        setAnimated(false);
        setAutoRanging(false);
        setAutoRangeRounding(false);
        setAutoUnitScaling(false);
        setMinorTickCount(0);
        getMinorTickStyle().setVisible(false);
        setTickLabelFormatter(new StringConverter<>() {
            @Override
            public String toString(Number n) {
                double v = n.doubleValue();
                int i = (int) Math.round(v);
                return Math.abs(v - i) < 1e-6 && i >= 0 && i < categories.size() ? categories.get(i) : "";
            }

            @Override
            public Number fromString(String s) {
                throw new UnsupportedOperationException("category labels are not parsed");
            }
        });
    }

    /** @param labels category labels, first at 0; at least one */
    void setCategories(List<String> labels) {
        categories = List.copyOf(labels);
        set(-0.5, categories.size() - 0.5);
        forceRedraw();
    }

    /** @return the current category labels */
    List<String> categories() {
        return categories;
    }

    @Override
    protected void calculateMajorTickValues(AxisRange range, DoubleArrayList ticks) {
        ticks.clear();
        double min = Math.min(range.getMin(), range.getMax());
        double max = Math.max(range.getMin(), range.getMax());
        for (int i = 0; i < categories.size(); i++) {
            if (i >= min && i <= max) {
                ticks.add(i);
            }
        }
    }

    @Override
    protected void calculateMinorTickValues(DoubleArrayList ticks) {
        ticks.clear();
    }
}
