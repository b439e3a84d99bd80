package org.latencylab.app.ui.controls;

import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.scene.control.Spinner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A spinner built by {@link Controls} stays bound to its view-model property after the builder is gone and the
 * garbage collector has run (JavaFX keeps bidirectional bindings weakly; a lost adapter silently unbinds the form).
 */
class ControlsTest {
    @BeforeAll
    static void toolkit() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    private static <T> T fx(Callable<T> c) {
        return org.testfx.util.WaitForAsyncUtils.waitForAsyncFx(10_000, c);
    }

    @Test
    void bindingSurvivesGarbageCollection() throws Exception {
        IntegerProperty requests = new SimpleIntegerProperty(100);
        Spinner<Integer> spinner = fx(() -> new Controls().intSpinner(requests, 1, 1_000_000, 1, "requests", "help"));
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(20);
        }
        fx(() -> {
            spinner.getValueFactory().setValue(20);
            return null;
        });
        assertThat(requests.get()).as("view model follows the spinner").isEqualTo(20);
        fx(() -> {
            requests.set(7);
            return null;
        });
        assertThat(fx(spinner::getValue)).as("spinner follows the view model").isEqualTo(7);
    }
}
