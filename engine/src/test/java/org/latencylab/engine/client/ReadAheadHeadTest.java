package org.latencylab.engine.client;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the reader thread reads from a response head to decide when its request thread may be woken
 * ({@link ReadAhead.Mode#HEAD}): only framings it is sure of; anything else wakes the thread at the head's end.
 */
class ReadAheadHeadTest {

    private static long body(String head) {
        byte[] b = ("xx" + head).getBytes(StandardCharsets.ISO_8859_1); // the head need not start at index 0
        return ReadAheadInbox.bodyOf(b, 2, b.length);
    }

    @Test
    void chunkedAndContentLengthHeadsGiveTheirFramingWhateverTheFieldNamesCase() {
        assertThat(body("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"))
                .isEqualTo(ReadAheadInbox.BODY_CHUNKED);
        assertThat(body("HTTP/1.1 200 OK\r\ntransfer-encoding:  gzip, Chunked \r\n\r\n"))
                .isEqualTo(ReadAheadInbox.BODY_CHUNKED);
        assertThat(body("HTTP/1.1 429 Too Many Requests\r\ncontent-length: 57\r\nRetry-After: 1\r\n\r\n"))
                .isEqualTo(57L);
        assertThat(body("HTTP/1.1 200 OK\nContent-Length:0\n\n")).as("bare line feeds").isZero();
        assertThat(body("HTTP/1.1 200 OK\r\nContent-Length: 12\r\nTransfer-Encoding: chunked\r\n\r\n"))
                .as("chunked wins over a length (RFC 9112 6.3)").isEqualTo(ReadAheadInbox.BODY_CHUNKED);
        assertThat(body("HTTP/1.1 204 No Content\r\nContent-Length: 99\r\n\r\n")).as("204 has no body").isZero();
        assertThat(body("HTTP/1.1 304 Not Modified\r\n\r\n")).isZero();
    }

    @Test
    void headsTheReaderIsNotSureOfWakeTheRequestThreadAtTheirEnd() {
        long unknown = ReadAheadInbox.BODY_UNKNOWN;
        assertThat(body("HTTP/1.1 100 Continue\r\n\r\n")).as("an interim head: another follows").isEqualTo(unknown);
        assertThat(body("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")).as("framed by the close")
                .isEqualTo(unknown);
        assertThat(body("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n")).as("chunked not last")
                .isEqualTo(unknown);
        assertThat(body("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n")).as("two lengths")
                .isEqualTo(unknown);
        assertThat(body("HTTP/1.1 200 OK\r\nContent-Length: 5x\r\n\r\n")).isEqualTo(unknown);
        assertThat(body("HTTP/1.1 200 OK\r\nX-Transfer-Encoding: chunked\r\n\r\n")).as("another field's name")
                .isEqualTo(unknown);
        assertThat(body("garbage\r\n\r\n")).isEqualTo(unknown);
    }

    private static boolean ends(String waiting) {
        byte[] b = ("yy" + waiting).getBytes(StandardCharsets.ISO_8859_1);
        return ReadAheadInbox.endsWithLastChunk(b, 2, b.length);
    }

    @Test
    void aChunkedBodyEndsAtItsLastChunkWithOrWithoutTrailerFields() {
        assertThat(ends("0\r\n\r\n")).isTrue();
        assertThat(ends("5\r\nhello\r\n0\r\n\r\n")).isTrue();
        assertThat(ends("5\r\nhello\r\n0\r\nX-Trailer: 1\r\n\r\n")).as("one trailer field").isTrue();
        assertThat(ends("5\r\nhello\r\n0\r\nA: 1\r\nB:2\r\n\r\n")).as("two").isTrue();
        assertThat(ends("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")).as("after a head")
                .isTrue();
    }

    @Test
    void theEndOfAnEventInsideAChunkIsNotTheEndOfTheBody() {
        assertThat(ends("5\r\nhello\r\n")).isFalse();
        assertThat(ends("10\r\ndata: {\"a\":1}\n\n\r\n")).as("an SSE event with line feeds").isFalse();
        assertThat(ends("12\r\ndata: {\"a\":1}\r\n\r\n\r\n")).as("an SSE event with CRLF").isFalse();
        assertThat(ends("5\r\nhello\r\n0\r\nX-Trailer: 1\r\n")).as("trailers not yet ended").isFalse();
        assertThat(ends("5\r\nhello\r\n10\r\n\r\n")).as("a size line that is not 0").isFalse();
        assertThat(ends("0;ext=1\r\n\r\n")).as("an extension: left to the quiet fallback").isFalse();
    }
}
