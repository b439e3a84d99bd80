package org.latencylab.engine.replay;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replays every conformance case of the cases folder through the real client and demands that each passes.
 * The folder is the system property {@code latencylab.cases.dir} when it exists, else the copy in the test
 * resources.
 */
class ConformanceCasesTest {

    static Path casesDir() {
        String prop = System.getProperty("latencylab.cases.dir");
        if (prop != null && Files.isDirectory(Path.of(prop))) {
            return Path.of(prop);
        }
        return Path.of("src/test/resources/cases/streams");
    }

    @TestFactory
    Stream<DynamicTest> everyCaseInTheFolderPasses() throws IOException {
        Path dir = casesDir();
        List<Path> files = CaseSuite.caseFiles(dir);
        assertThat(files).as("case files in %s", dir).isNotEmpty();
        CaseChecker checker = new CaseChecker();
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            CaseResult r = CaseSuite.runFile(f, checker);
            assertThat(r.status()).as(r.line()).isEqualTo(CaseResult.Status.PASSED);
        }));
    }
}
