package org.latencylab.charts.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import org.junit.jupiter.api.Test;
import org.latencylab.charts.data.fixture.DataThatKnowsItsColour;
import org.latencylab.charts.fixture.cycle.Axis;
import org.latencylab.charts.fixture.cycle.data.Points;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The charts module's layering: dependencies point one way, app → charts → engine (the charts module never reaches
 * into the app); the data layer ({@code charts.data}) is free of JavaFX and ChartFX, as ChartFX keeps its datasets
 * apart from its renderers, so chart inputs are built and tested without a toolkit; and no two packages depend on
 * each other in a cycle. Each rule is also checked against a test-only fixture that breaks it, so a rule that cannot
 * fail would show here.
 */
class ChartsArchitectureTest {
    private static final JavaClasses CHARTS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.latencylab.charts");

    /**
     * The main classes plus the test-only fixtures (packages named {@code fixture}) that break the rules below; the
     * other tests are left out, so that each rule's failure comes from its fixture alone.
     */
    private static final JavaClasses WITH_FIXTURES = new ClassFileImporter()
            .withImportOption(l -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(l) || l.contains("/fixture/"))
            .importPackages("org.latencylab.charts");

    /** Chart inputs (series, samples, grids, fronts) know nothing of JavaFX or ChartFX. */
    static final ArchRule DATA_FREE_OF_JAVAFX = noClasses().that().resideInAPackage("org.latencylab.charts.data..")
            .should().dependOnClassesThat().resideInAnyPackage("javafx..", "io.fair_acc..")
            .because("chart inputs are plain values, built and tested without the JavaFX toolkit");

    /** Every package (not only the top-level ones) is a slice; no slices may depend on each other in a cycle. */
    static final ArchRule NO_PACKAGE_CYCLES = SlicesRuleDefinition.slices()
            .matching("org.latencylab.(**)").should().beFreeOfCycles();

    @Test
    void chartsNeverDependOnTheApp() {
        assertThat(CHARTS.size()).as("charts classes imported").isGreaterThan(10);
        noClasses().that().resideInAPackage("org.latencylab.charts..")
                .should().dependOnClassesThat().resideInAPackage("org.latencylab.app..")
                .check(CHARTS);
    }

    @Test
    void chartInputsAreFreeOfJavaFx() {
        assertThat(CHARTS.containPackage("org.latencylab.charts.data")).isTrue();
        DATA_FREE_OF_JAVAFX.check(CHARTS);
    }

    @Test
    void theJavaFxRuleFailsOnAChartInputThatCarriesAColour() {
        assertThat(WITH_FIXTURES.contain(DataThatKnowsItsColour.class)).isTrue();
        assertThatThrownBy(() -> DATA_FREE_OF_JAVAFX.check(WITH_FIXTURES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(DataThatKnowsItsColour.class.getName())
                .hasMessageContaining("javafx.scene.paint.Color");
    }

    @Test
    void chartsPackagesFormNoCycle() {
        NO_PACKAGE_CYCLES.check(CHARTS);
    }

    @Test
    void theCycleRuleFailsOnAParentAndSubpackageThatUseEachOther() {
        assertThat(WITH_FIXTURES.contain(Axis.class)).isTrue();
        assertThatThrownBy(() -> NO_PACKAGE_CYCLES.check(WITH_FIXTURES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected")
                .hasMessageContaining(Axis.class.getName())
                .hasMessageContaining(Points.class.getName());
    }
}
