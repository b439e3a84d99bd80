package org.latencylab.charts.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/** Dependencies point one way, app → charts → engine: the charts module never reaches into the app. */
class ChartsArchitectureTest {
    private static final JavaClasses CHARTS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.latencylab.charts");

    @Test
    void chartsNeverDependOnTheApp() {
        assertThat(CHARTS.size()).as("charts classes imported").isGreaterThan(10);
        noClasses().that().resideInAPackage("org.latencylab.charts..")
                .should().dependOnClassesThat().resideInAPackage("org.latencylab.app..")
                .check(CHARTS);
    }
}
