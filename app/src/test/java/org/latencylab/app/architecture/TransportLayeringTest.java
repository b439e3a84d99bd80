package org.latencylab.app.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * gRPC, protobuf, the HTTP/2 server and the link emulator's sockets stay inside {@code engine}: the charts and the
 * app see only the engine's results (transports, traffic counts, profiles), never the protocol stacks.
 */
class TransportLayeringTest {
    private static final JavaClasses ABOVE_ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.latencylab.app", "org.latencylab.charts");

    @Test
    void appAndChartClassesWereImported() {
        assertThat(ABOVE_ENGINE.containPackage("org.latencylab.app.cli")).isTrue();
        assertThat(ABOVE_ENGINE.containPackage("org.latencylab.charts.results")).isTrue();
    }

    @Test
    void appAndChartsNeverTouchGrpcProtobufJettyOrTheEmulatorItself() {
        noClasses().that().resideInAnyPackage("org.latencylab.app..", "org.latencylab.charts..")
                .should().dependOnClassesThat().resideInAnyPackage("io.grpc..", "com.google.protobuf..",
                        "org.eclipse.jetty..", "org.latencylab.engine.kserve..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("org.latencylab.engine.link.LinkEmulator")
                .check(ABOVE_ENGINE);
    }
}
