package org.latencylab.app.ui.controls;

import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.scene.Node;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.Tooltip;
import javafx.util.Duration;

import java.util.List;


/**
 * Small builders for form controls shared by the views: integer spinners bound to view-model properties, labels
 * with tooltips. The adapter property of each bidirectional binding (JavaFX holds bindings weakly) is stored in the
 * control's own properties map, so the binding lives exactly as long as the control — not as long as this builder,
 * which views drop after construction. Use on the JavaFX thread.
 */
public final class Controls {
    /** Key under which a control keeps the adapter property its binding needs. */
    static final String BINDING_KEY = "latencylab.binding";

    /**
     * @param p    the view-model property
     * @param min  smallest value
     * @param max  largest value
     * @param step arrow step
     * @param id   node id (for tests), or null
     * @param help tooltip text
     * @return an editable spinner bound both ways to {@code p}
     */
    public Spinner<Integer> intSpinner(IntegerProperty p, int min, int max, int step, String id, String help) {
        Spinner<Integer> s = new Spinner<>(new SpinnerValueFactory.IntegerSpinnerValueFactory(min, max, p.get(), step));
        s.setEditable(true);
        ObjectProperty<Integer> boxed = p.asObject();
        s.getProperties().put(BINDING_KEY, boxed); // strong reference held by the spinner itself
        s.getValueFactory().valueProperty().bindBidirectional(boxed);
        s.setPrefWidth(110);
        if (id != null) {
            s.setId(id);
        }
        tooltip(s, help);
        // commit typed text when focus leaves, not only on Enter
        s.focusedProperty().addListener((o, a, focused) -> {
            if (!focused) {
                try {
                    s.increment(0);
                } catch (RuntimeException ignored) {
                    s.getEditor().setText(String.valueOf(s.getValue()));
                }
            }
        });
        return s;
    }

    /**
     * @param p    the view-model property
     * @param min  smallest value
     * @param max  largest value
     * @param step arrow step
     * @param id   node id (for tests), or null
     * @param help tooltip text
     * @return an editable spinner of decimal numbers bound both ways to {@code p}
     */
    public Spinner<Double> doubleSpinner(javafx.beans.property.DoubleProperty p, double min, double max, double step,
                                         String id, String help) {
        Spinner<Double> s = new Spinner<>(new SpinnerValueFactory.DoubleSpinnerValueFactory(min, max, p.get(), step));
        s.setEditable(true);
        ObjectProperty<Double> boxed = p.asObject();
        s.getProperties().put(BINDING_KEY, boxed);
        s.getValueFactory().valueProperty().bindBidirectional(boxed);
        s.setPrefWidth(110);
        if (id != null) {
            s.setId(id);
        }
        tooltip(s, help);
        s.focusedProperty().addListener((o, a, focused) -> {
            if (!focused) {
                try {
                    s.increment(0);
                } catch (RuntimeException ignored) {
                    s.getEditor().setText(String.valueOf(s.getValue()));
                }
            }
        });
        return s;
    }

    /**
     * @param p    the view-model property
     * @param id   node id (for tests), or null
     * @param hint prompt text shown while empty, e.g. {@code 30s}
     * @param help tooltip text
     * @return a text field bound both ways to {@code p}
     */
    public static javafx.scene.control.TextField text(javafx.beans.property.StringProperty p, String id, String hint,
                                                      String help) {
        javafx.scene.control.TextField f = new javafx.scene.control.TextField();
        f.textProperty().bindBidirectional(p);
        f.setPrefColumnCount(8);
        f.setPromptText(hint);
        if (id != null) {
            f.setId(id);
        }
        tooltip(f, help);
        return f;
    }

    /**
     * @param p      the view-model property
     * @param values the choices
     * @param id     node id (for tests), or null
     * @param help   tooltip text
     * @param <T>    value type
     * @return a combo box bound both ways to {@code p}; enum constants are shown in lower case
     */
    public static <T> javafx.scene.control.ComboBox<T> choice(javafx.beans.property.Property<T> p, List<T> values,
                                                              String id, String help) {
        javafx.scene.control.ComboBox<T> c = new javafx.scene.control.ComboBox<>();
        c.getItems().setAll(values);
        c.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(T v) { // enums as the scenario files write them: poisson, queue, ...
                return v == null ? "" : v instanceof Enum<?> e ? e.name().toLowerCase(java.util.Locale.ROOT)
                        : v.toString();
            }

            @Override
            public T fromString(String s) {
                return values.stream().filter(v -> toString(v).equals(s)).findFirst().orElse(null);
            }
        });
        c.valueProperty().bindBidirectional(p);
        if (id != null) {
            c.setId(id);
        }
        tooltip(c, help);
        return c;
    }

    /** @param text label text @param help tooltip @return a label with the tooltip */
    public static Label label(String text, String help) {
        Label l = new Label(text);
        if (help != null) {
            l.setTooltip(tip(help));
        }
        return l;
    }

    /** @param n a control @param help tooltip text @param <T> node type @return the node */
    public static <T extends Node> T tooltip(T n, String help) {
        if (help != null && n instanceof Control c) {
            c.setTooltip(tip(help));
        }
        return n;
    }

    /** @param text text @return a wrapping tooltip shown after 300 ms */
    public static Tooltip tip(String text) {
        Tooltip t = new Tooltip(text);
        t.setWrapText(true);
        t.setMaxWidth(420);
        t.setShowDelay(Duration.millis(300));
        t.setShowDuration(Duration.seconds(30));
        return t;
    }

    /**
     * Runs {@code r} on the JavaFX thread in the animation phase of a later pulse, {@code pulses} pulses from now
     * (1 = the next pulse). Spreads the first build of many nodes (their CSS and layout are done in the pulse after
     * they join the scene) over several pulses, so that no single pulse keeps the FX thread for long.
     *
     * @param pulses how many pulses to wait, at least 1
     * @param r      what to run
     * @throws IllegalArgumentException when {@code pulses} is below 1
     * @throws IllegalStateException    when not called on the JavaFX thread
     */
    public static void inPulse(int pulses, Runnable r) {
        if (pulses < 1) {
            throw new IllegalArgumentException("pulses must be at least 1, was " + pulses);
        }
        if (!javafx.application.Platform.isFxApplicationThread()) {
            throw new IllegalStateException("Controls.inPulse must be called on the JavaFX thread");
        }
        new javafx.animation.AnimationTimer() {
            private int seen;

            @Override
            public void handle(long now) {
                if (++seen >= pulses) {
                    stop();
                    r.run();
                }
            }
        }.start();
    }
}
