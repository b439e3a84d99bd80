package org.latencylab.engine.results.cyclefixture;

import org.latencylab.engine.experiment.RunEngine;

/**
 * Test fixture: a class inside {@code results} that depends on {@code experiment}, as {@code RunFiles} once did.
 * Only the architecture test imports it, to prove that the package-cycle rule catches such a loop.
 */
public final class ResultsThatImportTheEngine {
    private ResultsThatImportTheEngine() {
    }

    /** @return a run engine (any use of the class makes the dependency) */
    public static Object engine() {
        return new RunEngine();
    }
}
