package org.latencylab.engine.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.results.cyclefixture.ResultsThatImportTheEngine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine's layering: free of JavaFX (it runs headless) and of the modules built on it, no package cycle
 * ({@code api} at the bottom, {@code run} value types below both {@code experiment} and {@code results}), and no
 * standard streams (the engine reports through listeners, notices and its result model; only the command line,
 * in {@code app}, prints).
 */
class EngineArchitectureTest {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.latencylab.engine");

    /** Every top-level package of the engine is a slice; slices must not depend on each other in a cycle. */
    static final ArchRule NO_PACKAGE_CYCLES = SlicesRuleDefinition.slices()
            .matching("org.latencylab.engine.(*)..").should().beFreeOfCycles();

    @Test
    void engineClassesWereImported() {
        // guards the rules below against passing on an empty import
        assertThat(ENGINE.size()).isGreaterThan(20);
        assertThat(ENGINE.containPackage("org.latencylab.engine.api")).isTrue();
        assertThat(ENGINE.containPackage("org.latencylab.engine.results")).isTrue();
        assertThat(ENGINE.containPackage("org.latencylab.engine.experiment")).isTrue();
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
                        "org.latencylab.engine.experiment..", "org.latencylab.engine.run..",
                        "org.latencylab.engine.results..", "okhttp3..")
                .check(ENGINE);
    }

    @Test
    void enginePackagesFormNoCycle() {
        NO_PACKAGE_CYCLES.check(ENGINE);
    }

    @Test
    void theCycleRuleFailsWhenResultsImportsExperimentAgain() {
        // a class in 'results' that uses the run engine closes the old loop experiment -> results -> experiment
        JavaClasses withLoop = new ClassFileImporter().importPackages("org.latencylab.engine");
        assertThat(withLoop.contain(ResultsThatImportTheEngine.class)).isTrue();
        assertThatThrownBy(() -> NO_PACKAGE_CYCLES.check(withLoop))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected")
                .hasMessageContaining("results")
                .hasMessageContaining("experiment");
    }

    @Test
    void theRunEngineNeverReadsRequestsBack() {
        // results are computed as requests finish; requests.jsonl is read only to reopen or recover a run
        noClasses().that().resideInAnyPackage("org.latencylab.engine.experiment..", "org.latencylab.engine.load..")
                .should().callMethod(org.latencylab.engine.results.RequestLog.class, "read", java.nio.file.Path.class)
                .orShould().callMethod(org.latencylab.engine.results.RequestLog.class, "forEach",
                        java.nio.file.Path.class, java.util.function.Consumer.class)
                .check(ENGINE);
    }

    @Test
    void engineNeverWritesToStandardStreams() {
        noClasses().that().resideInAPackage("org.latencylab.engine..")
                .and().doNotHaveFullyQualifiedName("org.latencylab.engine.sim.SimMain")
                .should().accessField(System.class, "out").orShould().accessField(System.class, "err")
                .because("the engine reports through listeners, notices and its result model; the command line"
                        + " (in app) is the one console writer, and SimMain the entry point of a simulator process"
                        + " started without the app on its class path")
                .check(ENGINE);
    }

    @Test
    void grpcStaysInTheClientTheSimulatorAndTheGeneratedMessages() {
        noClasses().that().resideInAPackage("org.latencylab.engine..")
                .and().resideOutsideOfPackages("org.latencylab.engine.client..", "org.latencylab.engine.sim..",
                        "org.latencylab.engine.kserve..")
                .should().dependOnClassesThat().resideInAnyPackage("io.grpc..", "com.google.protobuf..",
                        "org.latencylab.engine.kserve..")
                .check(ENGINE);
    }

    @Test
    void theLinkEmulatorUsesNoProtocolStackAndNothingAboveIt() {
        noClasses().that().resideInAPackage("org.latencylab.engine.link..")
                .should().dependOnClassesThat().resideInAnyPackage("io.grpc..", "okhttp3..", "org.eclipse.jetty..",
                        "org.latencylab.engine.client..", "org.latencylab.engine.sim..",
                        "org.latencylab.engine.experiment..", "org.latencylab.engine.transport..")
                .check(ENGINE);
    }

    @Test
    void jettyServesOnlyTheSimulator() {
        noClasses().that().resideInAPackage("org.latencylab.engine..")
                .and().resideOutsideOfPackage("org.latencylab.engine.sim..")
                .should().dependOnClassesThat().resideInAnyPackage("org.eclipse.jetty..")
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
