package org.latencylab.engine.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/** The engine must stay free of JavaFX (it runs headless) and of the modules built on it. */
class EngineArchitectureTest {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.latencylab.engine");

    @Test
    void engineClassesWereImported() {
        // guards the rules below against passing on an empty import
        assertThat(ENGINE.size()).isGreaterThan(20);
        assertThat(ENGINE.containPackage("org.latencylab.engine.api")).isTrue();
    }

    @Test
    void engineNeverImportsJavaFx() {
        noClasses().that().resideInAPackage("org.latencylab.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "io.fair_acc..")
                .check(ENGINE);
    }

    @Test
    void engineDoesNotDependOnChartsOrApp() {
        noClasses().that().resideInAPackage("org.latencylab.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("org.latencylab.charts..", "org.latencylab.app..")
                .check(ENGINE);
    }

    @Test
    void apiValuesDependOnNothingElseOfTheEngine() {
        noClasses().that().resideInAPackage("org.latencylab.engine.api..")
                .should().dependOnClassesThat().resideInAnyPackage("org.latencylab.engine.client..",
                        "org.latencylab.engine.sim..", "org.latencylab.engine.stats..",
                        "org.latencylab.engine.experiment..", "okhttp3..")
                .check(ENGINE);
    }

    @Test
    void theTrustCheckDependsOnlyOnApiValuesSoTheRunEngineAndTheCheckerCanUseIt() {
        noClasses().that().resideInAPackage("org.latencylab.engine.trust..")
                .should().dependOnClassesThat().resideInAnyPackage("org.latencylab.engine.experiment..",
                        "org.latencylab.engine.calibration..", "org.latencylab.engine.replay..",
                        "org.latencylab.engine.results..", "org.latencylab.engine.client..", "org.latencylab.engine.sim..",
                        "org.latencylab.engine.load..")
                .check(ENGINE);
    }
}
