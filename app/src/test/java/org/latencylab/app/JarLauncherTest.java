package org.latencylab.app;

import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The jar's Main-Class: the Java-version check, its class-file version, and the real thing on an old JVM. */
class JarLauncherTest {
    @Test
    void java17And8GetOneSentenceNamingTheVersionAndWhatToInstall() {
        assertThat(JarLauncher.problem("17")).isEqualTo("LatencyLab needs Java 21 or newer; this is Java 17."
                + " Install a JDK 21+ (e.g. Temurin 21) or use the `latencylab` launcher script.");
        assertThat(JarLauncher.problem("1.8")).startsWith("LatencyLab needs Java 21 or newer; this is Java 1.8.");
        assertThat(JarLauncher.problem("20")).contains("this is Java 20.");
    }

    @Test
    void java21AndNewerAndUnreadableVersionsPass() {
        assertThat(JarLauncher.problem("21")).isNull();
        assertThat(JarLauncher.problem("25")).isNull();
        assertThat(JarLauncher.problem("30.1")).isNull();
        assertThat(JarLauncher.problem(null)).isNull();
        assertThat(JarLauncher.problem("unknown")).isNull();
        assertThat(JarLauncher.problem(System.getProperty("java.specification.version"))).isNull();
    }

    @Test
    void theLauncherClassIsCompiledForJava8SoAnOldJvmCanLoadIt() throws Exception {
        try (InputStream in = JarLauncher.class.getResourceAsStream("JarLauncher.class");
             DataInputStream d = new DataInputStream(in)) {
            assertThat(d.readInt()).isEqualTo(0xCAFEBABE);
            d.readUnsignedShort(); // minor
            assertThat(d.readUnsignedShort()).as("class-file major version (52 = Java 8)").isEqualTo(52);
        }
        try (InputStream in = Launcher.class.getResourceAsStream("Launcher.class");
             DataInputStream d = new DataInputStream(in)) {
            d.readInt();
            d.readUnsignedShort();
            assertThat(d.readUnsignedShort()).as("the rest stays at Java 21 (65)").isEqualTo(65);
        }
    }

    @Test
    void onARealJava17ItPrintsTheSentenceAndExits1() throws Exception {
        Path java17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
        assumeTrue(Files.isExecutable(java17), "no Java 17 at the Debian path on this machine");
        Path classes = Path.of(JarLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder(List.of(java17.toString(), "-cp", classes.toString(),
                JarLauncher.class.getName(), "--version")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(out.strip()).startsWith("LatencyLab needs Java 21 or newer; this is Java 17.")
                .doesNotContain("UnsupportedClassVersionError");
    }
}
