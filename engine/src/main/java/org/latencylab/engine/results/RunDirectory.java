package org.latencylab.engine.results;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * Prepares the directory a run is about to write, so that two runs are never mixed in one directory.
 *
 * <p>A directory that already holds a run ({@value RunLayout#RUN_JSON} or {@value RunLayout#REQUESTS_JSONL} present)
 * is refused unless overwriting was asked for; then the files a run writes ({@link RunLayout#isRunFile}) are deleted first
 * and anything else in the directory is left alone. A directory that cannot be created or written is refused with
 * the reason in words ({@code "permission denied: DIR"}, {@code "cannot create DIR: FILE is a file, not a folder"},
 * {@code "read-only file system: DIR"}), never with an exception class name. Both refusals are
 * {@link RunDirectoryException}s, an {@link IllegalArgumentException}: bad input, exit status 2 on the command line.
 *
 * <p>Stateless and thread-safe; two runs preparing the same directory at the same moment are not guarded against.
 */
public final class RunDirectory {
    private RunDirectory() {
    }

    /**
     * Creates the directory when missing and checks that a run may write it.
     *
     * @param dir       the run directory; not null
     * @param overwrite whether an earlier run's files in {@code dir} are deleted instead of refusing the directory
     * @return {@code dir}
     * @throws RunDirectoryException when {@code dir} holds a run and {@code overwrite} is false (the message names
     *                               the file found), or when it cannot be created or written (the message says why)
     */
    public static Path prepare(Path dir, boolean overwrite) {
        Objects.requireNonNull(dir, "dir");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw unwritable(dir, e);
        }
        if (!Files.isDirectory(dir)) {
            throw new RunDirectoryException(dir + " is a file, not a folder", null);
        }
        refuseEarlierRun(dir, overwrite);
        if (overwrite) {
            clear(dir);
        }
        probeWritable(dir);
        return dir;
    }

    /**
     * Refuses a directory that already holds a run, without creating or changing anything: a command can check its
     * {@code --out} this way before it contacts an endpoint, and {@link #prepare} checks the same.
     *
     * @param dir       the run directory (it need not exist); not null
     * @param overwrite whether an earlier run in {@code dir} may be replaced (then nothing is refused)
     * @throws RunDirectoryException when {@code dir} holds a run and {@code overwrite} is false (the message names
     *                               the file found)
     */
    public static void refuseEarlierRun(Path dir, boolean overwrite) {
        Objects.requireNonNull(dir, "dir");
        if (overwrite) {
            return;
        }
        for (String marker : RunLayout.RUN_MARKERS) {
            Path existing = dir.resolve(marker);
            if (Files.exists(existing)) {
                throw new RunDirectoryException("the run directory " + dir + " already holds a run (" + existing
                        + " is there); choose another --out, or pass --overwrite to replace that run", existing);
            }
        }
    }

    /**
     * Like {@link #prepare} for a run that continues the one already in {@code dir} (a monitor after a restart):
     * the directory may hold a run; nothing is deleted.
     *
     * @param dir the run directory; not null
     * @return {@code dir}
     * @throws RunDirectoryException when it cannot be created or written (the message says why)
     */
    public static Path prepareToResume(Path dir) {
        Objects.requireNonNull(dir, "dir");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw unwritable(dir, e);
        }
        if (!Files.isDirectory(dir)) {
            throw new RunDirectoryException(dir + " is a file, not a folder", null);
        }
        probeWritable(dir);
        return dir;
    }

    private static void clear(Path dir) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                if (Files.isRegularFile(f) && RunLayout.isRunFile(f.getFileName().toString())) {
                    Files.delete(f);
                }
            }
        } catch (IOException e) {
            throw unwritable(dir, e);
        }
    }

    /** Creating and deleting a file is the only portable test of writability (permission bits lie for root). */
    private static void probeWritable(Path dir) {
        try {
            Path probe = Files.createTempFile(dir, ".latencylab-write-check", ".tmp");
            Files.delete(probe);
        } catch (IOException e) {
            throw unwritable(dir, e);
        }
    }

    /**
     * Turns an I/O failure into words: the exception types of {@code java.nio.file} and, for failures they do not
     * type (a read-only mount), the operating system's reason text.
     */
    static RunDirectoryException unwritable(Path dir, IOException e) {
        String reason = e instanceof AccessDeniedException ? "permission denied"
                : e instanceof NotDirectoryException || e instanceof FileAlreadyExistsException ? "not a directory"
                : e instanceof NoSuchFileException ? "no such directory"
                : e instanceof FileSystemException fse && fse.getReason() != null ? reasonText(fse.getReason())
                : e.getMessage() == null ? "cannot write" : e.getMessage();
        if (e instanceof NoSuchFileException) {
            // e.g. a folder under /proc: the operating system's "no such file or directory" for a folder being created
            return new RunDirectoryException("cannot create " + dir + ": no such file or directory", null);
        }
        if ("not a directory".equals(reason)) {
            if (Files.exists(dir) && !Files.isDirectory(dir)) {
                return new RunDirectoryException(dir + " is a file, not a folder", null);
            }
            for (Path p = dir.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
                if (Files.exists(p) && !Files.isDirectory(p)) {
                    return new RunDirectoryException("cannot create " + dir + ": " + p + " is a file, not a folder",
                            null);
                }
            }
        }
        return new RunDirectoryException(reason + ": " + dir, null);
    }

    private static String reasonText(String osReason) {
        String r = osReason.toLowerCase(Locale.ROOT);
        if (r.contains("read-only")) {
            return "read-only file system";
        }
        if (r.contains("not a directory")) {
            return "not a directory";
        }
        if (r.contains("permission") || r.contains("access")) {
            return "permission denied";
        }
        if (r.contains("no space")) {
            return "no space left on device";
        }
        return r;
    }

    /**
     * A run directory that may not or cannot be written. Immutable.
     */
    public static final class RunDirectoryException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final transient Path existingRunFile;

        /**
         * @param message         what is wrong, in words, naming the directory or file
         * @param existingRunFile the earlier run's file found there, or null when the directory is unwritable
         */
        public RunDirectoryException(String message, Path existingRunFile) {
            super(message);
            this.existingRunFile = existingRunFile;
        }

        /** @return the earlier run's file that caused the refusal, or null when the directory is unwritable */
        public Path existingRunFile() {
            return existingRunFile;
        }
    }
}
