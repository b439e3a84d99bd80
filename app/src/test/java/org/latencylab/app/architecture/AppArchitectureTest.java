package org.latencylab.app.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.results.RequestLog;

import java.nio.file.Path;
import java.util.function.Consumer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The app only presents the engine's result model: its command line, console report, charts and results views never
 * read requests back to compute anything (a CLI run does not read {@code requests.jsonl} at all; reopening goes
 * through the engine's {@code RunReader}), and nothing in the app computes statistics. The lens and the HTML report
 * analyse a finished run request by request and are the named exceptions.
 */
class AppArchitectureTest {
    private static final JavaClasses APP = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.latencylab.app");

    @Test
    void appClassesWereImported() {
        assertThat(APP.size()).isGreaterThan(20);
        assertThat(APP.containPackage("org.latencylab.app.cli")).isTrue();
    }

    @Test
    void theCommandLineAndTheResultsViewsNeverReadRequestsBack() {
        noClasses().that().resideInAnyPackage("org.latencylab.app.cli..", "org.latencylab.app.report..",
                        "org.latencylab.app.ui.results..", "org.latencylab.app.ui.history..",
                        "org.latencylab.app.ui.lens..")
                .and().doNotHaveFullyQualifiedName("org.latencylab.app.cli.LensCommand")
                .and().doNotHaveFullyQualifiedName("org.latencylab.app.report.HtmlReport")
                .and().doNotHaveFullyQualifiedName("org.latencylab.app.ui.lens.DefinitionsViewModel")
                .should().callMethod(RequestLog.class, "read", Path.class)
                .orShould().callMethod(RequestLog.class, "forEach", Path.class, Consumer.class)
                .because("a run and its views show the engine's result model; only the per-request analyses of a"
                        + " finished run (the metric-definition lens, on the command line and in the window, and the HTML"
                        + " report, which re-time every request"
                        + " under other tools' definitions) read requests.jsonl, once, after the run")
                .check(APP);
    }

    @Test
    void theAppComputesNoStatistics() {
        noClasses().that().resideInAPackage("org.latencylab.app..")
                .should().dependOnClassesThat().haveFullyQualifiedName("org.latencylab.engine.stats.RequestStats")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("org.latencylab.engine.stats.Summaries")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("org.latencylab.engine.stats.StatsAccumulator")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("org.latencylab.engine.fit.PowerLawFitter")
                .check(APP);
    }
}
