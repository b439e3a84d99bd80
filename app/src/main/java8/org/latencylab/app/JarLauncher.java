package org.latencylab.app;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The {@code Main-Class} of {@code latencylab.jar}: checks the Java version before any class of LatencyLab (compiled
 * for Java 21) is loaded, so {@code java -jar latencylab.jar} on an older Java prints one sentence saying what to
 * install instead of an {@code UnsupportedClassVersionError}, and exits 1. On Java 21 or newer it hands the command
 * line to {@code org.latencylab.app.Launcher.main} unchanged.
 *
 * <p>This class alone is compiled for Java 8 (a separate compiler execution in {@code app/pom.xml}, source folder
 * {@code src/main/java8}), so it must use nothing newer than the Java 8 API and reach {@code Launcher} only by
 * reflection. Stateless; {@link #problem} is thread-safe.
 */
public final class JarLauncher {
    /** The lowest Java feature release LatencyLab runs on (the {@code maven.compiler.release} of the build). */
    public static final int REQUIRED_FEATURE = 21;

    private JarLauncher() {
    }

    /**
     * @param args the command line, passed on to {@code org.latencylab.app.Launcher}
     * @throws Exception never in practice: a failure to find or start {@code Launcher} (a broken jar) is thrown as
     *                   is; an exception thrown by {@code Launcher.main} itself is rethrown unwrapped
     */
    public static void main(String[] args) throws Exception {
        String problem = problem(System.getProperty("java.specification.version"));
        if (problem != null) {
            System.err.println(problem);
            System.exit(1);
            return;
        }
        Method main = Class.forName("org.latencylab.app.Launcher").getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw e;
        }
    }

    /**
     * Judges a Java version.
     *
     * @param specificationVersion the value of the system property {@code java.specification.version}, e.g.
     *                             {@code 1.8}, {@code 17}, {@code 21} or {@code 25}; null or unparsable values are
     *                             given the benefit of the doubt
     * @return null when LatencyLab can run on that Java (feature release &gt;= {@value #REQUIRED_FEATURE}, or the
     *         version cannot be read), else the one sentence to print, naming the version found and what to install
     */
    public static String problem(String specificationVersion) {
        int feature = feature(specificationVersion);
        if (feature < 0 || feature >= REQUIRED_FEATURE) {
            return null;
        }
        return "LatencyLab needs Java " + REQUIRED_FEATURE + " or newer; this is Java " + specificationVersion.trim()
                + ". Install a JDK " + REQUIRED_FEATURE + "+ (e.g. Temurin 21) or use the `latencylab` launcher"
                + " script.";
    }

    /**
     * @param v {@code 1.8} style (up to Java 8) or {@code 17} style (Java 9 and later) specification version
     * @return the feature release (8, 17, 21 …), or -1 when {@code v} is null or not of either form
     */
    static int feature(String v) {
        if (v == null) {
            return -1;
        }
        String s = v.trim();
        if (s.startsWith("1.")) {
            s = s.substring(2);
        }
        int dot = s.indexOf('.');
        if (dot >= 0) {
            s = s.substring(0, dot);
        }
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
