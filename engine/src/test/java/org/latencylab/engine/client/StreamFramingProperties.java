package org.latencylab.engine.client;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.Okio;
import okio.Source;
import okio.Timeout;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.replay.ConformanceCase;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Framing properties: the parsed result of a stream must not depend on how its bytes are split into network
 * reads, and garbage must end in a classified error, never an exception or a hang. The streams are the bodies
 * of the project's conformance cases (every protocol), fed through the client's real body-reading path as
 * in-memory responses whose source returns the random chunks one read at a time.
 */
class StreamFramingProperties {
    private static final LlmClient CLIENT = new LlmClient(ClientOptions.DEFAULTS, name -> null);

    @AfterContainer
    static void closeClient() {
        CLIENT.close();
    }

    /** One valid stream: protocol, content type, body bytes. */
    record Sample(String name, Protocol protocol, String contentType, byte[] body) {
        @Override
        public String toString() {
            return name;
        }
    }

    @Provide
    Arbitrary<Sample> samples() {
        return Arbitraries.of(loadSamples());
    }

    static List<Sample> loadSamples() {
        Path dir = Path.of("src/test/resources/cases/streams");
        List<Sample> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                ConformanceCase c = ConformanceCase.load(f);
                ConformanceCase.ScriptedResponse last = c.responses().get(c.responses().size() - 1);
                if (last.status() != 200 || c.protocol().isEmpty()) {
                    continue;
                }
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                for (ConformanceCase.Part p : last.parts()) {
                    bytes.writeBytes(p.bytes());
                }
                String type = last.headers().getOrDefault("Content-Type", "text/event-stream");
                out.add(new Sample(c.name(), c.protocol().get(), type, bytes.toByteArray()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** A source that hands out the given chunks, at most one chunk per read. */
    static final class ChunkedSource implements Source {
        private final List<byte[]> chunks;
        private int next;
        private int offset;

        ChunkedSource(List<byte[]> chunks) {
            this.chunks = chunks;
        }

        @Override
        public long read(Buffer sink, long byteCount) {
            while (next < chunks.size() && offset == chunks.get(next).length) {
                next++;
                offset = 0;
            }
            if (next >= chunks.size()) {
                return -1;
            }
            byte[] chunk = chunks.get(next);
            int n = (int) Math.min(byteCount, chunk.length - offset);
            sink.write(chunk, offset, n);
            offset += n;
            return n;
        }

        @Override
        public Timeout timeout() {
            return Timeout.NONE;
        }

        @Override
        public void close() {
        }
    }

    static List<byte[]> split(byte[] body, List<Integer> cuts) {
        TreeSet<Integer> at = new TreeSet<>();
        for (int c : cuts) {
            if (body.length > 0) {
                at.add(Math.floorMod(c, body.length));
            }
        }
        List<byte[]> chunks = new ArrayList<>();
        int from = 0;
        for (int c : at) {
            chunks.add(Arrays.copyOfRange(body, from, c));
            from = c;
        }
        chunks.add(Arrays.copyOfRange(body, from, body.length));
        return chunks;
    }

    static RequestRecord read(Protocol protocol, String contentType, List<byte[]> chunks) {
        Response response = new Response.Builder()
                .request(new Request.Builder().url("http://127.0.0.1/").build())
                .protocol(okhttp3.Protocol.HTTP_1_1).code(200).message("OK")
                .body(ResponseBody.create(Okio.buffer(new ChunkedSource(chunks)), MediaType.get(contentType), -1))
                .build();
        RequestRecord.Builder b = RequestRecord.builder();
        b.protocol = protocol;
        b.sendNanos = System.nanoTime();
        CLIENT.readBody(response, new TimingListener(), CLIENT.adapter(protocol), true, b);
        return b.build();
    }

    @Property(tries = 300, seed = "20261129")
    void parsedResultDoesNotDependOnHowTheBytesAreSplit(@ForAll("samples") Sample sample,
            @ForAll @Size(max = 40) List<@IntRange(min = 0, max = 100_000) Integer> cuts) {
        RequestRecord whole = read(sample.protocol(), sample.contentType(), List.of(sample.body()));
        RequestRecord split = read(sample.protocol(), sample.contentType(), split(sample.body(), cuts));
        assertThat(split.outcome()).isEqualTo(whole.outcome());
        assertThat(split.errorKind()).isEqualTo(whole.errorKind());
        assertThat(split.outputText()).isEqualTo(whole.outputText());
        assertThat(split.reasoningText()).isEqualTo(whole.reasoningText());
        assertThat(split.outputTokens()).isEqualTo(whole.outputTokens());
        assertThat(split.inputTokens()).isEqualTo(whole.inputTokens());
        assertThat(split.tokens().tokensCopy()).containsExactly(whole.tokens().tokensCopy());
    }

    @Property(tries = 12, seed = "20261129")
    void unsplitSamplesParseAsTheirCasesExpect(@ForAll("samples") Sample sample) {
        RequestRecord r = read(sample.protocol(), sample.contentType(), List.of(sample.body()));
        // every sample that is not an error case carries text; error cases end in a stream-level error
        if (r.outcome() == Outcome.SUCCESS) {
            assertThat(r.outputText()).isNotEmpty();
            assertThat(r.tokens().size()).isPositive();
        } else {
            assertThat(r.errorKind()).isIn(ErrorKind.EMPTY_RESPONSE, ErrorKind.STREAM_ERROR);
        }
    }

    @Property(tries = 300, seed = "20261129")
    void garbageEndsInAClassifiedErrorNeverAnException(
            @ForAll("garbage") byte[] garbage,
            @ForAll @Size(max = 20) List<@IntRange(min = 0, max = 100_000) Integer> cuts,
            @ForAll("protocols") Protocol protocol) {
        String type = protocol == Protocol.OLLAMA_CHAT || protocol == Protocol.OLLAMA_GENERATE
                ? "application/x-ndjson" : "text/event-stream";
        RequestRecord r = read(protocol, type, split(garbage, cuts));
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.errorKind()).isIn(ErrorKind.PROTOCOL, ErrorKind.TRUNCATED, ErrorKind.EMPTY_RESPONSE);
    }

    @Property(tries = 200, seed = "20261129")
    void validPrefixPlusGarbageNeverThrows(@ForAll("samples") Sample sample,
            @ForAll @IntRange(min = 0, max = 100_000) int cutAt, @ForAll @Size(max = 200) byte[] garbage) {
        byte[] body = sample.body();
        int n = Math.floorMod(cutAt, body.length + 1);
        byte[] mixed = new byte[n + garbage.length];
        System.arraycopy(body, 0, mixed, 0, n);
        System.arraycopy(garbage, 0, mixed, n, garbage.length);
        RequestRecord r = read(sample.protocol(), sample.contentType(), List.of(mixed));
        assertThat(r.outcome()).isIn(Outcome.SUCCESS, Outcome.ERROR);
    }

    /**
     * Garbage that looks like streams: random bytes mixed with SSE/NDJSON field names, line ends, braces and
     * quotes, so the parsers' branches are reached, not only the "no event at all" path.
     */
    @Provide
    Arbitrary<byte[]> garbage() {
        Arbitrary<String> fragment = Arbitraries.oneOf(
                Arbitraries.of("data: ", "data:", "data", "event: ", "id: ", "retry: ", ": comment", "\n", "\r",
                        "\r\n", "\n\n", "{", "}", "[", "]", "\"", ":", ",", "[DONE]", "null", "\"choices\"",
                        "\"done\":true", "\"token\"", "\"type\":\"message_stop\"", "\u2028", "\u00e9"),
                Arbitraries.strings().ofMaxLength(8));
        Arbitrary<byte[]> textual = fragment.list().ofMaxSize(120)
                .map(l -> String.join("", l).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(2000);
        return Arbitraries.oneOf(textual, random);
    }

    @Provide
    Arbitrary<Protocol> protocols() {
        // every protocol framed over HTTP; kserve-grpc's protobuf framing belongs to grpc-java
        return Arbitraries.of(Protocol.values()).filter(p -> p != Protocol.KSERVE_GRPC);
    }
}
