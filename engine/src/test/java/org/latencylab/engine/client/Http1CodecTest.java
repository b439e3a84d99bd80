package org.latencylab.engine.client;

import okhttp3.Headers;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The own HTTP/1.1 path's codec on byte arrays and strings, without a socket (RFC 9112). */
class Http1CodecTest {
    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static long chunkSize(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
        // a buffer with bytes before and after the line: the parse reads only [from, end)
        byte[] padded = new byte[bytes.length + 4];
        padded[0] = 'f';
        padded[1] = 'f';
        System.arraycopy(bytes, 0, padded, 2, bytes.length);
        padded[padded.length - 2] = '\r';
        padded[padded.length - 1] = '\n';
        return Http1Codec.chunkSize(ByteBuffer.wrap(padded), 2, 2 + bytes.length);
    }

    @Test
    void aPostIsEncodedAsRequestLineHostHeadersLengthAndBodyBytes() throws IOException {
        Request r = new Request.Builder().url("http://127.0.0.1:8080/v1/chat/completions?x=1")
                .header("Authorization", "Bearer k")
                .post(RequestBody.create("{\"a\":1}", MediaType.get("application/json; charset=utf-8"))).build();
        assertThat(text(Http1Codec.encode(r))).isEqualTo("POST /v1/chat/completions?x=1 HTTP/1.1\r\n"
                + "Host: 127.0.0.1:8080\r\n"
                + "Authorization: Bearer k\r\n"
                + "Accept-Encoding: identity\r\n"
                + "User-Agent: latencylab\r\n"
                + "Content-Type: application/json; charset=utf-8\r\n"
                + "Content-Length: 7\r\n"
                + "\r\n"
                + "{\"a\":1}");
    }

    @Test
    void theDefaultPortIsLeftOutAnIpv6HostIsBracketedAndOwnHeadersAreKept() throws IOException {
        Request get = new Request.Builder().url("http://example.org/health").header("Accept-Encoding", "gzip")
                .header("User-Agent", "me").get().build();
        assertThat(text(Http1Codec.encode(get))).isEqualTo("GET /health HTTP/1.1\r\nHost: example.org\r\n"
                + "Accept-Encoding: gzip\r\nUser-Agent: me\r\n\r\n");
        Request v6 = new Request.Builder().url("http://[::1]:9000/").get().build();
        assertThat(text(Http1Codec.encode(v6))).startsWith("GET / HTTP/1.1\r\nHost: [::1]:9000\r\n");
    }

    @Test
    void statusLinesGiveVersionCodeAndReasonAndNonsenseIsAProtocolError() throws ProtocolException {
        assertThat(Http1Codec.statusLine("HTTP/1.1 200 OK")).isEqualTo(new Http1Codec.StatusLine(true, 200, "OK"));
        assertThat(Http1Codec.statusLine("HTTP/1.0 503 Service Unavailable"))
                .isEqualTo(new Http1Codec.StatusLine(false, 503, "Service Unavailable"));
        assertThat(Http1Codec.statusLine("HTTP/1.1 204 ")).isEqualTo(new Http1Codec.StatusLine(true, 204, ""));
        assertThat(Http1Codec.statusLine("HTTP/1.1 404")).isEqualTo(new Http1Codec.StatusLine(true, 404, ""));
        assertThatThrownBy(() -> Http1Codec.statusLine("HTTP/2 200 OK")).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("unexpected status line");
        assertThatThrownBy(() -> Http1Codec.statusLine("HTTP/1.1 2x0 OK")).isInstanceOf(ProtocolException.class);
        assertThatThrownBy(() -> Http1Codec.statusLine("SSH-2.0-OpenSSH_9")).isInstanceOf(ProtocolException.class);
    }

    @Test
    void headerLinesAreTrimmedAndALineWithoutANameIsRefused() throws ProtocolException {
        Headers.Builder b = new Headers.Builder();
        Http1Codec.headerLine("Content-Type:  text/event-stream ", b);
        Http1Codec.headerLine("X-Odd: a:b", b);
        Headers h = b.build();
        assertThat(h.get("content-type")).isEqualTo("text/event-stream");
        assertThat(h.get("X-Odd")).isEqualTo("a:b");
        assertThatThrownBy(() -> Http1Codec.headerLine(": nameless", new Headers.Builder()))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("malformed header field");
        assertThatThrownBy(() -> Http1Codec.headerLine("no colon", new Headers.Builder()))
                .isInstanceOf(ProtocolException.class);
    }

    @Test
    void interimResponsesAndConnectionReuseFollowRfc9112() throws ProtocolException {
        assertThat(Http1Codec.interim(100)).isTrue();
        assertThat(Http1Codec.interim(103)).isTrue();
        assertThat(Http1Codec.interim(101)).isFalse();
        assertThat(Http1Codec.interim(200)).isFalse();
        Headers none = Headers.of();
        assertThat(Http1Codec.keepAlive(Http1Codec.statusLine("HTTP/1.1 200 OK"), none)).isTrue();
        assertThat(Http1Codec.keepAlive(Http1Codec.statusLine("HTTP/1.0 200 OK"), none)).isFalse();
        assertThat(Http1Codec.keepAlive(Http1Codec.statusLine("HTTP/1.1 200 OK"),
                Headers.of("Connection", "keep-alive, close"))).isFalse();
    }

    @Test
    void bodyFramingComesFromTransferEncodingContentLengthOrTheStatus() throws ProtocolException {
        assertThat(Http1Codec.framing(Headers.of("Transfer-Encoding", "Chunked", "Content-Length", "5"), 200))
                .isEqualTo(new Http1Codec.Framing(true, -1));
        assertThat(Http1Codec.framing(Headers.of("Content-Length", " 42 "), 200))
                .isEqualTo(new Http1Codec.Framing(false, 42));
        assertThat(Http1Codec.framing(Headers.of(), 200)).isEqualTo(new Http1Codec.Framing(false, -1));
        assertThat(Http1Codec.framing(Headers.of("Content-Length", "9"), 204))
                .isEqualTo(new Http1Codec.Framing(false, 0));
        assertThat(Http1Codec.framing(Headers.of(), 304)).isEqualTo(new Http1Codec.Framing(false, 0));
        assertThatThrownBy(() -> Http1Codec.framing(Headers.of("Content-Length", "ten"), 200))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("invalid Content-Length");
    }

    @Test
    void chunkSizeLinesAreHexWithOptionalExtensionsAndSpaces() {
        assertThat(chunkSize("1a")).isEqualTo(26);
        assertThat(chunkSize("1A;name=value")).isEqualTo(26);
        assertThat(chunkSize("0")).isZero();
        assertThat(chunkSize("10  ")).isEqualTo(16);
        assertThat(chunkSize("7fffffffffffffff")).isEqualTo(Long.MAX_VALUE);
        assertThat(chunkSize("")).isEqualTo(-1);
        assertThat(chunkSize(";ext")).isEqualTo(-1);
        assertThat(chunkSize("1 a")).isEqualTo(-1);
        assertThat(chunkSize("zz")).isEqualTo(-1);
        assertThat(chunkSize("10000000000000000")).isEqualTo(-1); // beyond 63 bits
    }

    @Test
    void aRedirectSaysItWasNotFollowedAndWhere() {
        assertThat(Http1Codec.reason(307, "Temporary Redirect", Headers.of("Location", "http://b/v1")))
                .isEqualTo("Temporary Redirect (redirect to http://b/v1 not followed: use that URL as the"
                        + " endpoint's baseUrl)");
        assertThat(Http1Codec.reason(301, "", Headers.of("Location", "/x")))
                .isEqualTo("(redirect to /x not followed: use that URL as the endpoint's baseUrl)");
        assertThat(Http1Codec.reason(304, "Not Modified", Headers.of())).isEqualTo("Not Modified");
        assertThat(Http1Codec.reason(200, "OK", Headers.of("Location", "/x"))).isEqualTo("OK");
    }

    @Test
    void mediaTypesAreParsedOnceAndCached() {
        MediaType a = Http1Codec.mediaType("text/event-stream; charset=utf-8");
        assertThat(a.type()).isEqualTo("text");
        assertThat(a.subtype()).isEqualTo("event-stream");
        assertThat(Http1Codec.mediaType("text/event-stream; charset=utf-8")).isSameAs(a);
        assertThat(Http1Codec.mediaType("not a type")).isNull();
    }
}
