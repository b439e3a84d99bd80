package org.latencylab.engine.client;

import okhttp3.Headers;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okio.Buffer;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pure part of the own HTTP/1.1 path ({@link DirectHttp1}): encoding a request to bytes and parsing the pieces of a
 * response head and of chunked framing, on strings and buffers, without sockets (RFC 9112). Each method is static,
 * allocation-light where it runs per streamed event, and thread-safe.
 */
final class Http1Codec {
    private static final byte[] CRLF = {'\r', '\n'};

    private Http1Codec() {
    }

    /**
     * A response's status line.
     *
     * @param http11  whether the version is HTTP/1.1 (else HTTP/1.0: no reuse, RFC 9112 §9.3)
     * @param code    the three-digit status code
     * @param message the reason phrase, possibly empty
     */
    record StatusLine(boolean http11, int code, String message) {
    }

    /**
     * How a response body is framed (RFC 9112 §6).
     *
     * @param chunked whether the {@code chunked} transfer coding frames it
     * @param length  its {@code Content-Length} (0 for 204 and 304), or -1 when not given (chunked, or until close)
     */
    record Framing(boolean chunked, long length) {
    }

    /**
     * Encodes a request as HTTP/1.1 bytes: request line, {@code Host}, the request's header fields,
     * {@code Content-Type}/{@code Content-Length} of its body, then the body.
     *
     * @param request an OkHttp request (POST with a body, or a bodiless GET)
     * @return the bytes to write
     * @throws IOException when the body cannot be written out
     */
    static byte[] encode(Request request) throws IOException {
        Buffer out = new Buffer();
        HttpUrl url = request.url();
        String target = url.encodedPath() + (url.encodedQuery() == null ? "" : "?" + url.encodedQuery());
        out.writeUtf8(request.method()).writeByte(' ').writeUtf8(target).writeUtf8(" HTTP/1.1\r\n");
        String host = url.host().contains(":") ? "[" + url.host() + "]" : url.host();
        out.writeUtf8("Host: ").writeUtf8(host);
        if (url.port() != HttpUrl.defaultPort(url.scheme())) {
            out.writeByte(':').writeUtf8(Integer.toString(url.port()));
        }
        out.write(CRLF);
        Headers headers = request.headers();
        for (int i = 0; i < headers.size(); i++) {
            out.writeUtf8(headers.name(i)).writeUtf8(": ").writeUtf8(headers.value(i)).write(CRLF);
        }
        if (request.header("Accept-Encoding") == null) {
            out.writeUtf8("Accept-Encoding: identity\r\n");
        }
        if (request.header("User-Agent") == null) {
            out.writeUtf8("User-Agent: latencylab\r\n");
        }
        okhttp3.RequestBody body = request.body();
        Buffer content = new Buffer();
        if (body != null) {
            body.writeTo(content);
            MediaType type = body.contentType();
            if (type != null && request.header("Content-Type") == null) {
                out.writeUtf8("Content-Type: ").writeUtf8(type.toString()).write(CRLF);
            }
            out.writeUtf8("Content-Length: ").writeUtf8(Long.toString(content.size())).write(CRLF);
        }
        out.write(CRLF);
        out.writeAll(content);
        return out.readByteArray();
    }

    /**
     * @param status a status line without its line end, e.g. {@code HTTP/1.1 200 OK}
     * @return its version, code and reason phrase
     * @throws ProtocolException when it is not an HTTP/1.x status line with a three-digit code
     */
    static StatusLine statusLine(String status) throws ProtocolException {
        // "HTTP/1.1 200 OK": version, a three-digit code, an optional reason phrase (RFC 9112 §4)
        if (status.length() < 12 || !status.startsWith("HTTP/1.") || status.charAt(8) != ' ') {
            throw new ProtocolException("unexpected status line: " + ProtocolAdapter.excerpt(status));
        }
        int code;
        try {
            code = Integer.parseInt(status.substring(9, 12));
        } catch (NumberFormatException e) {
            throw new ProtocolException("unexpected status line: " + ProtocolAdapter.excerpt(status));
        }
        String message = status.length() > 13 ? status.substring(13) : "";
        return new StatusLine(status.startsWith("HTTP/1.1"), code, message);
    }

    /**
     * Adds one header field line ({@code Name: value}, surrounding spaces trimmed) to {@code headers}.
     *
     * @throws ProtocolException when the line has no name before a colon
     */
    static void headerLine(String line, Headers.Builder headers) throws ProtocolException {
        int colon = line.indexOf(':');
        if (colon <= 0) {
            throw new ProtocolException("malformed header field: " + ProtocolAdapter.excerpt(line));
        }
        headers.addUnsafeNonAscii(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
    }

    /** @return true for an interim response (1xx but 101: 100 Continue, 103 Early Hints): the final one follows */
    static boolean interim(int code) {
        return code >= 100 && code < 200 && code != 101;
    }

    /**
     * @return whether the connection may carry another request after this response: HTTP/1.0 and
     *         {@code Connection: close} end the connection with the response (RFC 9112 §9.3)
     */
    static boolean keepAlive(StatusLine status, Headers headers) {
        return status.http11() && !closes(headers.get("Connection"));
    }

    /** @param connection a {@code Connection} field value, or null @return true when it holds the token {@code close} */
    static boolean closes(String connection) {
        if (connection == null) {
            return false;
        }
        for (String token : connection.split(",")) {
            if (token.trim().equalsIgnoreCase("close")) {
                return true;
            }
        }
        return false;
    }

    /** Parsed content types (OkHttp parses with a regular expression); a handful per endpoint in practice. */
    private static final ConcurrentHashMap<String, MediaType> MEDIA_TYPES = new ConcurrentHashMap<>();

    static MediaType mediaType(String value) {
        MediaType known = MEDIA_TYPES.get(value);
        if (known != null || MEDIA_TYPES.size() > 256) {
            return known != null ? known : MediaType.parse(value);
        }
        MediaType parsed = MediaType.parse(value);
        if (parsed != null) {
            MEDIA_TYPES.put(value, parsed);
        }
        return parsed;
    }

    /**
     * @return the body framing from {@code Transfer-Encoding} and {@code Content-Length}; 204 and 304 have none
     * @throws ProtocolException when {@code Content-Length} is not a number
     */
    static Framing framing(Headers headers, int code) throws ProtocolException {
        String te = headers.get("Transfer-Encoding");
        boolean chunked = te != null && te.toLowerCase(Locale.ROOT).contains("chunked");
        String cl = headers.get("Content-Length");
        long length = -1;
        if (code == 204 || code == 304) {
            length = 0;
        } else if (!chunked && cl != null) {
            try {
                length = Long.parseLong(cl.trim());
            } catch (NumberFormatException e) {
                throw new ProtocolException("invalid Content-Length: " + ProtocolAdapter.excerpt(cl));
            }
        }
        return new Framing(chunked, length);
    }

    /**
     * @return the reason phrase to report: for a 3xx with a {@code Location}, the phrase plus that redirects are not
     *         followed and where it pointed
     */
    static String reason(int code, String message, Headers headers) {
        if (code >= 300 && code < 400 && headers.get("Location") != null) {
            return (message.isEmpty() ? "" : message + " ") + "(redirect to " + headers.get("Location")
                    + " not followed: use that URL as the endpoint's baseUrl)";
        }
        return message;
    }

    /**
     * Parses a chunk-size line (RFC 9112 §7.1: hex digits, optional {@code ;extensions}, optional spaces) in
     * {@code buf} between {@code from} and {@code end} (the line end excluded) with absolute reads, without
     * allocating: it runs once per streamed event.
     *
     * @return the size, or -1 when the line is not a valid chunk size
     */
    static long chunkSize(ByteBuffer buf, int from, int end) {
        long size = 0;
        boolean digits = false;
        boolean valid = true;
        boolean trailingSpace = false;
        for (int i = from; i < end; i++) {
            int c = buf.get(i);
            if (c == ';') {
                break; // chunk extensions are ignored
            }
            int d = Character.digit(c, 16);
            if (c == ' ' || c == '\t') {
                trailingSpace = digits;
            } else if (d < 0 || trailingSpace || size >>> 59 != 0) {
                valid = false; // a space inside the digits, a non-hex byte, or a size beyond 63 bits
                break;
            } else {
                size = size << 4 | d;
                digits = true;
            }
        }
        return valid && digits ? size : -1;
    }
}
