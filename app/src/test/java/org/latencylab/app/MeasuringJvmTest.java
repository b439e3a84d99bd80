package org.latencylab.app;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The options of a measuring JVM and which commands get one. */
class MeasuringJvmTest {
    @Test
    void jdk21GetsGenerationalZgcExplicitlyAndNoJdk24OrAotFlags() {
        assertThat(MeasuringJvm.options(21, Path.of("x.aot")))
                .contains("-XX:+UseZGC", "-XX:+ZGenerational", MeasuringJvm.MAX_HEAP, MeasuringJvm.SOFT_MAX_HEAP)
                .noneMatch(o -> o.startsWith("--sun-misc") || o.startsWith("-XX:AOTCache"));
    }

    @Test
    void jdk25UsesTheAotCacheWhenThereIsOneAndSilencesUnsafeWarnings() {
        assertThat(MeasuringJvm.options(25, Path.of("c.aot")))
                .contains("-XX:+UseZGC", "-XX:AOTCache=c.aot", "--sun-misc-unsafe-memory-access=allow")
                .doesNotContain("-XX:+ZGenerational");
        assertThat(MeasuringJvm.options(25, null)).noneMatch(o -> o.startsWith("-XX:AOTCache"));
    }

    @Test
    void commandsThatMeasureNothingRunWhereTheyAre() {
        assertThat(MeasuringJvm.measuring(new String[] {"probe", "-n", "5"})).isTrue();
        assertThat(MeasuringJvm.measuring(new String[] {})).isTrue();
        assertThat(MeasuringJvm.measuring(new String[] {"probe", "--help"})).isFalse();
        assertThat(MeasuringJvm.measuring(new String[] {"--version"})).isFalse();
        assertThat(MeasuringJvm.measuring(new String[] {"detect", "http://127.0.0.1:1"})).isFalse();
    }

    @Test
    void carriersAreFourPerCoreAndAtLeastEight() {
        assertThat(MeasuringJvm.carriers(1)).isEqualTo(8);
        assertThat(MeasuringJvm.carriers(2)).isEqualTo(8);
        assertThat(MeasuringJvm.carriers(16)).isEqualTo(64);
    }
}
