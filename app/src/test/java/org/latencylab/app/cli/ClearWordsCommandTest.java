package org.latencylab.app.cli;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The six bad inputs of a newcomer that used to answer in jargon, each run through the command line in-process:
 * the message's words, the exit status, and nothing else on the console (no stack trace, no exception class name,
 * no library log line, also on the process's own standard streams).
 */
class ClearWordsCommandTest {
    /** What a command printed: picocli's writers, and anything else that reached System.out / System.err. */
    record Console(int code, String out, String err, String systemOut, String systemErr) {
        String all() {
            return out + err + systemOut + systemErr;
        }

        /** Asserts that the console holds words only: no stack trace, exception class or library log line. */
        void holdsWordsOnly() {
            assertThat(all()).as(all()).doesNotContain("\tat ").doesNotContain("Exception")
                    .doesNotContain("WARNING").doesNotContain("SEVERE").doesNotContain("io.grpc")
                    .doesNotContain("okhttp3").doesNotContain("[Source:").doesNotContain("REDACTED");
        }
    }

    private static synchronized Console run(String... args) {
        PrintStream realOut = System.out;
        PrintStream realErr = System.err;
        ByteArrayOutputStream sysOut = new ByteArrayOutputStream();
        ByteArrayOutputStream sysErr = new ByteArrayOutputStream();
        CommandLineTest.Result r;
        try {
            System.setOut(new PrintStream(sysOut, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(sysErr, true, StandardCharsets.UTF_8));
            r = CommandLineTest.run(args);
        } finally {
            System.setOut(realOut);
            System.setErr(realErr);
        }
        return new Console(r.code(), r.out(), r.err(), sysOut.toString(StandardCharsets.UTF_8),
                sysErr.toString(StandardCharsets.UTF_8));
    }

    private static SimServer sim() {
        return SimServer.start(SimProfile.builtin("small-fast"), SimOptions.defaults());
    }

    /** Case 1: a host name that does not resolve is said in words, and gRPC's resolver warning stays off the console. */
    @Test
    void aHostNameThatDoesNotResolveIsSaidInWordsWithoutALibraryLogLine() {
        Console c = run("probe", "--url", "http://no-such-host.invalid", "-n", "1", "--no-charts");
        assertThat(c.code()).as(c.all()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(c.err()).contains("the host name no-such-host.invalid does not resolve")
                .contains("check the URL's host name").contains("give --model NAME");
        assertThat(c.err().strip().lines().count()).as("one line: " + c.err()).isEqualTo(1);
        c.holdsWordsOnly();
    }

    /** Case 2: https:// to a plain-HTTP server says the TLS handshake got no TLS answer, after one probe only. */
    @Test
    void httpsToAPlainHttpServerSaysTheHandshakeGotNoTlsAnswerAfterOneProbe() {
        try (SimServer sim = sim()) {
            String https = sim.baseUrl().replace("http://", "https://");
            long start = System.nanoTime();
            Console c = run("probe", "--url", https, "-n", "1", "--no-charts");
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(c.code()).as(c.all()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(c.err()).contains("got no TLS answer").contains("an http:// URL reaches a plain-HTTP server")
                    .doesNotContain("InterruptedIOException").doesNotContain("did not answer (timeout");
            // one 5 s probe, not four of them (/v1/models, /api/tags, /info, gRPC: 20 s and more)
            assertThat(seconds).as("stops after the first probe").isLessThan(15);
            c.holdsWordsOnly();
        }
    }

    /** Case 2, where the bytes show it: a plain-HTTP answer to the ClientHello fails at once, in words. */
    @Test
    void aPlainHttpAnswerToTheTlsHandshakeFailsAtOnceInWords() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread t = Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        s.getInputStream().read(new byte[512]); // the ClientHello
                        s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                        s.getOutputStream().flush();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            long start = System.nanoTime();
            Console c = run("probe", "--url", "https://127.0.0.1:" + server.getLocalPort(), "-n", "1", "--no-charts");
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(c.code()).as(c.all()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(c.err()).contains("answered the TLS handshake without TLS")
                    .contains("an http:// URL reaches a plain-HTTP server");
            assertThat(seconds).as("no timeout is waited for: the answer showed it").isLessThan(4.5);
            c.holdsWordsOnly();
            server.close();
            t.join(2000);
        }
    }

    /** Case 3: the most common copy-paste, the chat path on the URL, is measured at its base URL, said once. */
    @Test
    void aUrlEndingInTheChatPathIsMeasuredAtItsBaseUrlAndSaysSo(@TempDir Path dir) throws Exception {
        try (SimServer sim = sim()) {
            Path out = dir.resolve("run");
            Console c = run("probe", "--url", sim.baseUrl() + "/v1/chat/completions", "-n", "2",
                    "--prompt-tokens", "16", "--max-tokens", "4", "--no-charts", "--out", out.toString());
            assertThat(c.code()).as(c.all()).isZero();
            assertThat(c.err()).contains("--url: the URL ends in the API path /v1/chat/completions; using its base"
                    + " URL " + sim.baseUrl()).contains("no --model given; using 'small-fast-sim'");
            assertThat(c.out()).contains("requests: 2 sent, 2 ok, 0 failed");
            String runJson = Files.readString(out.resolve("run.json"));
            assertThat(runJson).contains(sim.baseUrl()).doesNotContain("/v1/chat/completions/v1");
            c.holdsWordsOnly();

            Console withModel = run("probe", "--url", sim.baseUrl() + "/v1/chat/completions/", "--model",
                    "small-fast-sim", "-n", "1", "--prompt-tokens", "16", "--max-tokens", "4", "--no-charts",
                    "--out", dir.resolve("run2").toString());
            assertThat(withModel.code()).as(withModel.all()).isZero();
            assertThat(withModel.out()).contains("requests: 1 sent, 1 ok, 0 failed");
        }
    }

    /** Case 4: an API key variable that is not set is refused before anything is sent. */
    @Test
    void anUnsetApiKeyVariableIsRefusedBeforeAnythingIsSent(@TempDir Path dir) throws Exception {
        String var = "LATENCYLAB_TEST_KEY_THAT_IS_NEVER_SET";
        assertThat(System.getenv(var)).isNull();
        AtomicInteger connections = new AtomicInteger();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread t = Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        connections.incrementAndGet();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            String url = "http://127.0.0.1:" + server.getLocalPort();
            Path out = dir.resolve("run");
            for (List<String> args : List.of(
                    List.of("probe", "--url", url, "--api-key-env", var, "--model", "m", "-n", "1"),
                    List.of("probe", "--url", url, "--api-key-env", var, "-n", "1"),
                    List.of("sweep", "--url", url, "--api-key-env", var, "-l", "64", "-n", "1"),
                    List.of("detect", url, "--api-key-env", var))) {
                List<String> all = new ArrayList<>(args);
                if (!args.get(0).equals("detect")) {
                    all.addAll(List.of("--no-charts", "--out", out.toString()));
                }
                Console c = run(all.toArray(String[]::new));
                assertThat(c.code()).as(args + ": " + c.all()).isEqualTo(ExitCodes.BAD_INPUT);
                assertThat(c.err()).as(args.toString()).contains("--api-key-env " + var + ": the environment variable "
                        + var + " is not set: set it to the API key (export " + var + "=...)");
                c.holdsWordsOnly();
            }
            Path scenario = dir.resolve("keyed.yaml");
            Files.writeString(scenario, "format: 1\nname: keyed\nendpoint: {name: e, protocol: openai-chat, baseUrl: "
                    + "\"" + url + "\", model: m, apiKeyEnv: " + var + "}\nexperiments:\n  - {type: probe, requests: 1}\n");
            Console fromScenario = run("run", scenario.toString(), "--no-charts", "--out", out.toString());
            assertThat(fromScenario.code()).as(fromScenario.all()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(fromScenario.err()).contains(scenario + ": field 'endpoint.apiKeyEnv': the environment variable "
                    + var + " is not set");
            fromScenario.holdsWordsOnly();
            assertThat(connections.get()).as("nothing was sent").isZero();
            assertThat(out).as("no run directory").doesNotExist();
            server.close();
            t.join(2000);
        }
    }

    /** Case 4, the server's side: a 401 while finding the model is refused with words about the key. */
    @Test
    void anEndpointThatAnswers401WhileFindingTheModelIsRefusedWithWordsAboutTheKey() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        AtomicInteger requests = new AtomicInteger();
        server.createContext("/", x -> {
            requests.incrementAndGet();
            byte[] body = "{\"error\":{\"message\":\"Incorrect API key provided\"}}".getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(401, body.length);
            try (OutputStream o = x.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        try {
            Console c = run("probe", "--url", "http://127.0.0.1:" + server.getAddress().getPort(), "-n", "1",
                    "--no-charts");
            assertThat(c.code()).as(c.all()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(c.err()).contains("the server refused the request with HTTP 401 (it wants an API key: none was"
                    + " sent").contains("--api-key-env");
            assertThat(requests.get()).as("one probe: the others would be refused alike").isEqualTo(1);
            c.holdsWordsOnly();
        } finally {
            server.stop(0);
        }
    }

    /** Case 5: a cut-short run.json, a binary scenario and a timeout say file, line and column in words. */
    @Test
    void brokenFilesAndTimeoutsAreSaidInWordsWithFileLineAndColumn(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        try (SimServer sim = sim()) {
            Console ok = run("probe", "--url", sim.baseUrl(), "--model", "m", "-n", "1", "--prompt-tokens", "16",
                    "--max-tokens", "4", "--no-charts", "--out", out.toString());
            assertThat(ok.code()).as(ok.all()).isZero();
        }
        Path runJson = out.resolve("run.json");
        String text = Files.readString(runJson);
        String cut = text.substring(0, text.indexOf("\"spec\"") + 20);
        Files.writeString(runJson, cut);
        long line = cut.lines().count();
        for (String command : List.of("report", "summarize")) {
            List<String> args = new ArrayList<>(List.of(command, out.toString()));
            if (command.equals("report")) {
                args.addAll(List.of("--out", dir.resolve("r.html").toString()));
            }
            Console c = run(args.toArray(String[]::new));
            assertThat(c.code()).as(command + ": " + c.all()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(c.err()).as(command).contains(runJson + ": line " + line + ", column ")
                    .contains("the file ends before the JSON is complete (was it cut short");
            assertThat(c.err().strip().lines().count()).as("one line: " + c.err()).isEqualTo(1);
            c.holdsWordsOnly();
        }

        Path png = dir.resolve("scenario.yaml");
        Files.write(png, new byte[]{(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13});
        Console bin = run("run", png.toString());
        assertThat(bin.code()).as(bin.all()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(bin.err()).contains(png + ": line 1, column 1: not UTF-8 text: byte 0x89 at byte 1")
                .contains("is it a binary file");
        bin.holdsWordsOnly();
        Path json = dir.resolve("scenario.json");
        Files.write(json, new byte[]{'{', '"', 'n', (byte) 0xff, (byte) 0xfe, '"'});
        Console binJson = run("run", json.toString());
        assertThat(binJson.code()).as(binJson.all()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(binJson.err()).contains(json + ": ").contains("not UTF-8 text: byte 0xff");
        binJson.holdsWordsOnly();

        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            List<Socket> held = new ArrayList<>();
            Thread t = Thread.ofVirtual().start(() -> {
                while (!silent.isClosed()) {
                    try {
                        held.add(silent.accept()); // accepted, never answered
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            Console timeout = run("detect", "http://127.0.0.1:" + silent.getLocalPort(), "--timeout", "1s");
            assertThat(timeout.code()).as(timeout.all()).isEqualTo(ExitCodes.SLO_FAILED);
            assertThat(timeout.out()).contains("/v1/models -> no answer before the timeout ran out")
                    .doesNotContain("InterruptedIOException");
            timeout.holdsWordsOnly();
            silent.close();
            for (Socket s : held) {
                s.close();
            }
            t.join(2000);
        }
    }

    /** Case 6: a sweep longer than the prompt builder makes is refused with the plan, before a run folder exists. */
    @Test
    void aSweepLengthAboveTheLongestPromptIsRefusedBeforeARunFolderIsMade(@TempDir Path dir) {
        Path out = dir.resolve("run");
        Console c = run("sweep", "-l", "10000000", "-n", "1", "--no-charts", "--out", out.toString());
        assertThat(c.code()).as(c.all()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(c.err()).contains("--lengths must be at most 4000000 tokens (the longest prompt LatencyLab builds),"
                + " was 10000000");
        assertThat(out).as("no run folder").doesNotExist();
        c.holdsWordsOnly();
        Console probe = run("probe", "--prompt-tokens", "4000001", "-n", "1", "--no-charts", "--out",
                out.toString());
        assertThat(probe.code()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(probe.err()).contains("--prompt-tokens must be at most 4000000 tokens");
        assertThat(out).doesNotExist();
    }

    /**
     * A web server that is not an LLM API (its 404 and 501 answers are HTML error pages): detection and the failed
     * requests say "an HTML page" with the page's title, never its markup, and the gRPC probe says what it found.
     */
    @Test
    void aWebServersHtmlErrorPagesAreSummarizedNotDumped(@TempDir Path dir) throws Exception {
        HttpServer web = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        web.createContext("/", ex -> {
            boolean get = ex.getRequestMethod().equals("GET");
            byte[] page = ("<!DOCTYPE HTML>\n<html lang=\"en\">\n<head><title>Error response</title></head>\n<body>"
                    + "<h1>Error response</h1><p>Error code: " + (get ? 404 : 501) + "</p>"
                    + "<p>Message: File not found.</p></body></html>\n").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "text/html;charset=utf-8");
            ex.sendResponseHeaders(get ? 404 : 501, page.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(page);
            }
        });
        web.start();
        try {
            String url = "http://127.0.0.1:" + web.getAddress().getPort();
            Console detect = run("probe", "--url", url, "-n", "1", "--no-charts");
            assertThat(detect.code()).as(detect.all()).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(detect.err()).contains("/v1/models -> HTTP 404: an HTML page (\"Error response\"), not an LLM"
                    + " API's answer").contains("not a KServe gRPC server").doesNotContain("<").doesNotContain("tried:;")
                    .contains("give --model NAME");
            detect.holdsWordsOnly();
            Console sent = run("probe", "--url", url, "--model", "m", "-n", "1", "--no-charts", "--out",
                    dir.resolve("run").toString());
            assertThat(sent.code()).as(sent.all()).isEqualTo(ExitCodes.RUN_FAILED);
            assertThat(sent.all()).contains("HTTP 501").contains("an HTML page (\"Error response\")")
                    .doesNotContain("<!DOCTYPE").doesNotContain("<h1>");
        } finally {
            web.stop(0);
        }
    }

    /** Lengths as the window and the docs write them ({@code 2k}) are read on the command line too; others refused. */
    @Test
    void sweepLengthsTakeTheKSuffixAndABadOneIsNamed(@TempDir Path dir) {
        Console bad = run("sweep", "-l", "2k,abc", "-n", "1", "--no-charts", "--out", dir.resolve("bad").toString());
        assertThat(bad.code()).as(bad.all()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(bad.err()).contains("length 'abc' is not a positive token count (e.g. 4096 or 4k)")
                .doesNotContain("'2k' is not an int");
        assertThat(dir.resolve("bad")).doesNotExist();
        bad.holdsWordsOnly();
        Console big = run("sweep", "-l", "4000k", "-n", "1", "--no-charts", "--out", dir.resolve("big").toString());
        assertThat(big.err()).as("4000k is read as 4,096,000 tokens").contains("--lengths must be at most 4000000"
                + " tokens (the longest prompt LatencyLab builds), was 4096000");
        try (SimServer s = sim()) {
            Path out = dir.resolve("ok");
            Console ok = run("sweep", "--url", "http://127.0.0.1:" + s.port(), "--model", s.profile().model(),
                    "-l", "1k,2k", "-n", "2", "--warmup", "0", "--no-charts", "--out", out.toString());
            assertThat(ok.code()).as(ok.all()).isEqualTo(ExitCodes.OK);
            assertThat(ok.out()).contains("1024 tok").contains("2048 tok");
        }
    }

    /**
     * The console of the real launcher process (not picocli's writers): an unresolvable host for a gRPC endpoint
     * makes gRPC's resolver log a warning with a stack trace; it lands in the log file, and the console holds
     * LatencyLab's words only.
     */
    @Test
    void libraryLogRecordsGoToTheLogFileNotTheProcessConsole(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("latencylab.log");
        Supplier<ProcessBuilder> launcher = () -> new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "-D" + LibraryLogging.FILE_PROPERTY + "=" + log, "-Dlatencylab.jitWarmUp=false",
                "org.latencylab.app.Launcher");
        ProcessBuilder grpc = launcher.get();
        grpc.command().addAll(List.of("probe", "--url", "http://no-such-host.invalid:9", "--protocol", "kserve-grpc",
                "--model", "m", "-n", "1", "--no-charts", "--out", dir.resolve("run").toString()));
        String[] console = runProcess(grpc);
        assertThat(console[0]).as(console[1]).isEqualTo(Integer.toString(ExitCodes.RUN_FAILED));
        // the JVM flags are the launcher script's (--enable-native-access keeps the JDK's own warning off)
        assertThat(console[1]).contains("no request succeeded").contains("the host name no-such-host.invalid does"
                + " not resolve").doesNotContain("\tat ").doesNotContain("WARNING").doesNotContain("ManagedChannelImpl")
                .doesNotContain("Exception");
        assertThat(Files.readString(log)).as("the library's warning is kept in the log file")
                .contains("WARNING io.grpc").contains("no-such-host.invalid").contains("\tat ");

        ProcessBuilder http = launcher.get();
        http.command().addAll(List.of("probe", "--url", "http://no-such-host.invalid", "-n", "1", "--no-charts"));
        String[] probe = runProcess(http);
        assertThat(probe[0]).isEqualTo(Integer.toString(ExitCodes.BAD_INPUT));
        assertThat(probe[1].strip()).as("one line of words on the whole console")
                .startsWith("latencylab: http://no-such-host.invalid: the host name no-such-host.invalid does not"
                        + " resolve").doesNotContain("\n");
    }

    /** @return exit status and the process's stdout and stderr together */
    private static String[] runProcess(ProcessBuilder pb) throws Exception {
        pb.environment().put("LATENCYLAB_NO_RELAUNCH", "1");
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String console;
        try (InputStream in = p.getInputStream()) {
            console = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new String[]{Integer.toString(p.waitFor()), console};
    }
}
