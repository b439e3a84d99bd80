package org.latencylab.app.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import org.junit.jupiter.api.Test;
import org.latencylab.app.fixture.cycle.MainPane;
import org.latencylab.app.fixture.cycle.child.ChildPane;
import org.latencylab.app.fixture.viewmodel.LabelHoldingViewModel;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The app's layering: view models expose properties and never touch the scene graph (JabRef's View + ViewModel
 * split; it is what lets their tests run without the toolkit), and no two packages of the app depend on each other
 * in a cycle. Each rule is also checked against a test-only fixture that breaks it, so a rule that cannot fail would
 * show here.
 */
class WindowLayeringTest {
    private static final JavaClasses APP = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.latencylab.app");

    /**
     * The main classes plus the test-only fixtures (packages named {@code fixture}) that break the rules below; the
     * other tests are left out, so that each rule's failure comes from its fixture alone.
     */
    private static final JavaClasses WITH_FIXTURES = new ClassFileImporter()
            .withImportOption(l -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(l) || l.contains("/fixture/"))
            .importPackages("org.latencylab.app");

    /** A view model may use JavaFX properties and collections, but no node, control, layout or scene. */
    static final ArchRule VIEW_MODELS_FREE_OF_SCENE = noClasses().that().haveSimpleNameEndingWith("ViewModel")
            .should().dependOnClassesThat().resideInAPackage("javafx.scene..")
            .because("a view model exposes read-only properties for its view to bind and is tested without the"
                    + " JavaFX toolkit");

    /** Every package of the app (the root package and each subpackage) is a slice; slices form no cycle. */
    static final ArchRule NO_PACKAGE_CYCLES = SlicesRuleDefinition.slices()
            .matching("org.latencylab.(**)").should().beFreeOfCycles();

    @Test
    void viewModelsWereImported() {
        // guards the rules below against passing on an empty import
        assertThat(APP.stream().filter(c -> c.getSimpleName().endsWith("ViewModel")).count()).isGreaterThan(5);
        assertThat(APP.containPackage("org.latencylab.app.ui.results")).isTrue();
    }

    @Test
    void viewModelsAreFreeOfTheSceneGraph() {
        VIEW_MODELS_FREE_OF_SCENE.check(APP);
    }

    @Test
    void theViewModelRuleFailsOnAViewModelThatHoldsALabel() {
        assertThat(WITH_FIXTURES.contain(LabelHoldingViewModel.class)).isTrue();
        assertThatThrownBy(() -> VIEW_MODELS_FREE_OF_SCENE.check(WITH_FIXTURES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(LabelHoldingViewModel.class.getName())
                .hasMessageContaining("javafx.scene.control.Label");
    }

    @Test
    void appPackagesFormNoCycle() {
        NO_PACKAGE_CYCLES.check(APP);
    }

    @Test
    void theCycleRuleFailsOnAParentAndSubpackageThatUseEachOther() {
        assertThat(WITH_FIXTURES.contain(MainPane.class)).isTrue();
        assertThatThrownBy(() -> NO_PACKAGE_CYCLES.check(WITH_FIXTURES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected")
                .hasMessageContaining(MainPane.class.getName())
                .hasMessageContaining(ChildPane.class.getName());
    }
}
