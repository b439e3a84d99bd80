package org.latencylab.app.cli;

import org.latencylab.app.ui.settings.AppDirectories;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Sends the log records of the libraries (gRPC, OkHttp and the JDK log through {@code java.util.logging}; so does
 * {@link System.Logger} by default) to a log file instead of the console, where their warnings and stack traces
 * ("Failed to resolve name", "A connection ... was leaked") would stand before LatencyLab's own one-line message.
 * SLF4J users (ChartFX) already log nowhere ({@code slf4j-nop}).
 *
 * <p>The file is {@value #FILE_NAME} in the data folder ({@link AppDirectories#dataDir()}, e.g.
 * {@code ~/.local/share/latencylab/latencylab.log} on Linux), or the file the system property {@value #FILE_PROPERTY}
 * names. It is opened, and appended to, only when a record arrives, so a command that logs nothing leaves no file;
 * when it cannot be written the records are dropped (the console never gets them).
 *
 * <p>Thread-safe; {@link #install()} is idempotent.
 */
public final class LibraryLogging {
    /** System property naming the log file, which wins over the data folder's. */
    public static final String FILE_PROPERTY = "latencylab.log.file";
    /** Name of the log file in the data folder. */
    public static final String FILE_NAME = "latencylab.log";

    private static final AtomicBoolean INSTALLED = new AtomicBoolean();
    /** Held strongly so that the root logger's configuration is not lost to garbage collection. */
    private static final Logger ROOT = Logger.getLogger("");

    private LibraryLogging() {
    }

    /**
     * Replaces the root logger's handlers (the JDK's console handler) with one that writes to {@link #logFile()}.
     * Later calls do nothing.
     */
    public static void install() {
        if (!INSTALLED.compareAndSet(false, true)) {
            return;
        }
        for (Handler h : ROOT.getHandlers()) {
            ROOT.removeHandler(h);
        }
        ROOT.addHandler(new FileHandler(logFile()));
    }

    /** @return the log file: {@value #FILE_PROPERTY} when set, else {@value #FILE_NAME} in the data folder */
    public static Path logFile() {
        String p = System.getProperty(FILE_PROPERTY);
        return p == null || p.isBlank() ? AppDirectories.current().dataDir().resolve(FILE_NAME) : Path.of(p);
    }

    /** Appends each record to a file opened on the first record; drops records when the file cannot be written. */
    private static final class FileHandler extends Handler {
        private final Path file;
        private Writer out;
        private boolean broken;

        FileHandler(Path file) {
            this.file = file;
            setFormatter(new LineFormatter());
        }

        @Override
        public synchronized void publish(LogRecord record) {
            if (broken || !isLoggable(record)) {
                return;
            }
            try {
                if (out == null) {
                    if (file.getParent() != null) {
                        Files.createDirectories(file.getParent());
                    }
                    out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                }
                out.write(getFormatter().format(record));
                out.flush();
            } catch (IOException | RuntimeException e) {
                broken = true; // the console is not the fallback: a log line there is what this class prevents
            }
        }

        @Override
        public synchronized void flush() {
            try {
                if (out != null) {
                    out.flush();
                }
            } catch (IOException e) {
                broken = true;
            }
        }

        @Override
        public synchronized void close() {
            try {
                if (out != null) {
                    out.close();
                }
            } catch (IOException e) {
                broken = true;
            }
            out = null;
        }
    }

    /** {@code 2026-12-07T01:46:59.123Z WARNING io.grpc.internal.ManagedChannelImpl: message}, then the stack trace. */
    private static final class LineFormatter extends Formatter {
        @Override
        public String format(LogRecord r) {
            StringBuilder sb = new StringBuilder().append(Instant.ofEpochMilli(r.getMillis())).append(' ')
                    .append(r.getLevel().getName()).append(' ').append(r.getLoggerName()).append(": ")
                    .append(formatMessage(r)).append(System.lineSeparator());
            if (r.getThrown() != null) {
                StringWriter w = new StringWriter();
                r.getThrown().printStackTrace(new PrintWriter(w));
                sb.append(w);
            }
            return sb.toString();
        }
    }
}
