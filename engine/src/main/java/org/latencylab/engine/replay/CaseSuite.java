package org.latencylab.engine.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Loads every {@code *.json} case in a folder (never a fixed list), sorted by file name, and checks each with
 * a {@link CaseChecker}. A file that cannot be parsed becomes a FAILED result naming the file and field.
 *
 * <p>Stateless; thread-safe.
 */
public final class CaseSuite {
    private CaseSuite() {
    }

    /**
     * @param folder a folder of case files
     * @return the cases' files, sorted by name
     * @throws IOException when the folder cannot be listed
     */
    public static List<Path> caseFiles(Path folder) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".json") && Files.isRegularFile(p))
                    .sorted().toList();
        }
    }

    /**
     * Runs every case in the folder, one after the other.
     *
     * @param folder a folder of {@code *.json} case files
     * @return one result per file, in file-name order
     * @throws IOException when the folder cannot be listed
     */
    public static List<CaseResult> run(Path folder) throws IOException {
        return run(folder, new CaseChecker());
    }

    /**
     * @param folder  a folder of {@code *.json} case files
     * @param checker the checker to use
     * @return one result per file, in file-name order
     * @throws IOException when the folder cannot be listed
     */
    public static List<CaseResult> run(Path folder, CaseChecker checker) throws IOException {
        return run(folder, checker, r -> { });
    }

    /**
     * Like {@link #run(Path, CaseChecker)}, telling each result as its case ends (a folder takes tens of seconds:
     * retry and timing cases wait on purpose).
     *
     * @param folder  a folder of {@code *.json} case files
     * @param checker the checker to use
     * @param ended   called on the calling thread with each result, in file-name order, as soon as it is known
     * @return one result per file, in file-name order
     * @throws IOException when the folder cannot be listed
     */
    public static List<CaseResult> run(Path folder, CaseChecker checker, java.util.function.Consumer<CaseResult> ended)
            throws IOException {
        List<CaseResult> results = new ArrayList<>();
        for (Path file : caseFiles(folder)) {
            CaseResult r = runFile(file, checker);
            results.add(r);
            ended.accept(r);
        }
        return results;
    }

    /**
     * Loads and checks one file.
     *
     * @param file    a case file
     * @param checker the checker
     * @return its result; FAILED with the parse error when the file is not a valid case
     */
    public static CaseResult runFile(Path file, CaseChecker checker) {
        String fallbackName = file.getFileName().toString().replaceFirst("\\.json$", "");
        ConformanceCase c;
        try {
            c = ConformanceCase.load(file);
        } catch (IOException | IllegalArgumentException e) {
            return new CaseResult(fallbackName, CaseResult.Status.FAILED, List.of(String.valueOf(e.getMessage())),
                    null);
        }
        return checker.check(c);
    }

    /**
     * @param results results of a run
     * @return one line per case, then {@code "N passed, M failed, K skipped"}; lines end with {@code \n}
     */
    public static String format(List<CaseResult> results) {
        StringBuilder sb = new StringBuilder();
        for (CaseResult r : results) {
            sb.append(r.line()).append('\n');
        }
        return sb.append(summary(results)).append('\n').toString();
    }

    /**
     * @param results results of a run
     * @return {@code "N passed, M failed, K skipped"}, followed by {@code ", J not judged on timing (server late)"}
     * when the replay server was late for J cases
     */
    public static String summary(List<CaseResult> results) {
        long passed = results.stream().filter(r -> r.status() == CaseResult.Status.PASSED).count();
        long failed = results.stream().filter(r -> r.status() == CaseResult.Status.FAILED).count();
        long skipped = results.stream().filter(r -> r.status() == CaseResult.Status.SKIPPED).count();
        long late = results.stream().filter(r -> r.status() == CaseResult.Status.SERVER_LATE).count();
        return passed + " passed, " + failed + " failed, " + skipped + " skipped"
                + (late > 0 ? ", " + late + " not judged on timing (server late)" : "");
    }
}
