package org.latencylab.app.architecture;

import com.fasterxml.jackson.databind.JsonNode;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;
import org.latencylab.app.report.treefixture.ReportThatReadsRunJsonAsATree;
import org.latencylab.engine.results.RunFiles;
import org.latencylab.engine.results.RunLayout;

import java.nio.file.Path;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code run.json} is read in one place: the engine's results package turns it into the typed
 * {@code RunDocument} (and {@code RunReader}'s result model); everything else (console, HTML report, compare,
 * SLO matrix, history, rankings) reads those types, never the file's keys. Each rule is also run on a fixture
 * class that breaks it, so a rule that could not fail would show.
 */
class RunJsonReadingArchitectureTest {
    private static final String RESULTS = "org.latencylab.engine.results..";
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.latencylab");
    private static final JavaClasses FIXTURE = new ClassFileImporter()
            .importClasses(ReportThatReadsRunJsonAsATree.class);

    /** A class that finds a run directory's {@code run.json} through {@link RunLayout#runJson}. */
    private static final DescribedPredicate<JavaClass> LOCATES_RUN_JSON = DescribedPredicate.describe(
            "locate run.json (RunLayout.runJson)", c -> c.getMethodCallsFromSelf().stream()
                    .anyMatch(call -> call.getTargetOwner().isEquivalentTo(RunLayout.class)
                            && call.getName().equals("runJson")));

    /** The tree reader of {@code run.json} stays inside the results package. */
    static final ArchRule NO_TREE_READER_OUTSIDE_RESULTS = noClasses().that().resideOutsideOfPackage(RESULTS)
            .should().callMethod(RunFiles.class, "readRunJson", Path.class)
            .because("run.json is read as a tree only inside engine.results; others read RunDocument");

    /** A class outside the results package that locates {@code run.json} does not handle JSON trees. */
    static final ArchRule NO_TREE_NEXT_TO_RUN_JSON = noClasses().that().resideOutsideOfPackage(RESULTS)
            .and(LOCATES_RUN_JSON)
            .should().dependOnClassesThat().areAssignableTo(JsonNode.class)
            .because("a class that opens run.json outside engine.results would read its keys; read RunDocument")
            .allowEmptyShould(true); // today no class outside engine.results locates run.json at all

    /** The presenters of runs hold no JSON tree at all. */
    static final ArchRule NO_TREE_IN_PRESENTERS = noClasses().that().resideInAnyPackage("org.latencylab.app.report..",
                    "org.latencylab.app.cli..", "org.latencylab.app.ui.workflow..", "org.latencylab.app.ui.history..")
            .should().dependOnClassesThat().areAssignableTo(JsonNode.class)
            .because("the console, the report, the commands, the history and the rankings show the typed"
                    + " RunDocument, not run.json's keys");

    @Test
    void theMainClassesOfEveryModuleWereImported() {
        assertThat(MAIN.containPackage("org.latencylab.app.report")).isTrue();
        assertThat(MAIN.containPackage("org.latencylab.engine.results")).isTrue();
        assertThat(MAIN.containPackage("org.latencylab.engine.compare")).isTrue();
        assertThat(MAIN.containPackage("org.latencylab.app.report.treefixture")).isFalse();
    }

    @Test
    void onlyTheResultsPackageReadsRunJsonAsATree() {
        NO_TREE_READER_OUTSIDE_RESULTS.check(MAIN);
        NO_TREE_NEXT_TO_RUN_JSON.check(MAIN);
        NO_TREE_IN_PRESENTERS.check(MAIN);
    }

    @Test
    void eachRuleCatchesAClassThatReadsRunJsonAsATree() {
        assertThatThrownBy(() -> NO_TREE_READER_OUTSIDE_RESULTS.check(FIXTURE)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("ReportThatReadsRunJsonAsATree.name").hasMessageContaining("readRunJson");
        assertThatThrownBy(() -> NO_TREE_NEXT_TO_RUN_JSON.check(FIXTURE)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("ReportThatReadsRunJsonAsATree.status").hasMessageContaining("JsonNode");
        assertThatThrownBy(() -> NO_TREE_IN_PRESENTERS.check(FIXTURE)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("ReportThatReadsRunJsonAsATree").hasMessageContaining("JsonNode");
    }
}
