package org.latencylab.engine.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.grpc.CallOptions;
import io.grpc.ChannelCredentials;
import io.grpc.ClientCall;
import io.grpc.ConnectivityState;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.kserve.InferenceService;
import org.latencylab.engine.kserve.InferParameter;
import org.latencylab.engine.kserve.InferTensorContents;
import org.latencylab.engine.kserve.ModelInferRequest;
import org.latencylab.engine.kserve.ModelInferResponse;
import org.latencylab.engine.kserve.ModelStreamInferResponse;
import org.latencylab.engine.tokens.TokenCounter;

import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import java.net.Socket;
import java.net.ConnectException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * The {@code kserve-grpc} protocol client: one generation request over the KServe v2 / Triton gRPC API, measured
 * into the same {@link RequestRecord} as every HTTP protocol (TTFT, ITL, E2E, first answer, tokens).
 *
 * <h2>Wire</h2>
 * Streaming requests use Triton's {@code ModelStreamInfer}: one {@link ModelInferRequest} with the inputs of
 * Triton's vLLM backend — {@code text_input} (BYTES), {@code stream} (BOOL, true), {@code sampling_parameters}
 * (BYTES, JSON: {@code max_tokens} plus the request's {@code extraBody}) — and the request parameter
 * {@code triton_enable_empty_final_response}; each {@link ModelStreamInferResponse} carries a piece of text in the
 * BYTES output {@code text_output} ({@code raw_output_contents} or {@code contents.bytes_contents}). The end marker is
 * a response with parameter {@code triton_final_response: true}, or the server closing the stream with status OK. A
 * non-empty {@code error_message} is a {@code stream_error}. Non-streaming requests use the unary
 * {@code ModelInfer}. Output tokens are counted with the tokenizer (the backends report none).
 *
 * <h2>Stamps</h2>
 * The request message is built before the send stamp; the send stamp is taken just before the call starts
 * (for a new connection: before the connect, which is then recorded as the connect phase, TCP and TLS together);
 * each response is stamped in the gRPC listener callback, on the transport thread that decoded it, before it is
 * handed to the calling thread for parsing.
 *
 * <h2>Connections</h2>
 * One channel per target (host, port, TLS, verification), reused across requests; {@link #evictConnections()}
 * closes them so the next request opens a new connection inside its measured time.
 *
 * <h2>Errors</h2>
 * gRPC statuses become classified errors: {@code UNIMPLEMENTED} (the server speaks another service), a peer that
 * does not speak HTTP/2 gRPC (an HTTP/1.1 endpoint given as gRPC) and malformed responses are {@code protocol};
 * refused connections and TLS failures {@code connection}; {@code DEADLINE_EXCEEDED} and idle gaps
 * {@code timeout}; {@code RESOURCE_EXHAUSTED} {@code rate_limited}; other statuses after the stream began
 * {@code stream_error}. Retries are not made.
 *
 * <p>Thread-safe: any number of threads may call {@link #execute} at once.
 */
final class KserveGrpcClient implements AutoCloseable {
    /** Name of the output tensor that carries generated text. */
    static final String TEXT_OUTPUT = "text_output";
    private static final long CLOSE_WAIT_MILLIS = 2_000;

    private final ClientOptions options;
    private final TokenCounter counter;
    private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();

    KserveGrpcClient(ClientOptions options, TokenCounter counter) {
        this.options = options;
        this.counter = counter;
    }

    /** One thing that happened on the call, stamped where it happened. */
    private sealed interface Event permits Headers, Message, Closed {
    }

    private record Headers(long nanos) implements Event {
    }

    private record Message(long nanos, Object message) implements Event {
    }

    private record Closed(long nanos, Status status) implements Event {
    }

    /**
     * Sends one request and measures it into {@code b} (send, connect, headers, first byte, events, end, outcome).
     *
     * @param endpoint the target; protocol {@code kserve-grpc}
     * @param request  what to ask for
     * @param apiKey   sent as {@code authorization: Bearer KEY} metadata, or null
     * @param b        the record being built; never left without an outcome
     */
    void execute(Endpoint endpoint, GenerationRequest request, String apiKey, RequestRecord.Builder b) {
        b.attempts = 1;
        URI uri = URI.create(endpoint.baseUrl());
        boolean tls = "https".equals(uri.getScheme());
        int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
        ModelInferRequest message;
        try {
            message = requestMessage(endpoint, request);
        } catch (RuntimeException e) {
            b.error(ErrorKind.PROTOCOL, "request for endpoint '" + endpoint.name() + "' could not be built: "
                    + e.getMessage());
            return;
        }
        Metadata headers = new Metadata();
        if (apiKey != null && !apiKey.isEmpty()) {
            headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + apiKey);
        }
        endpoint.headers().forEach((k, v) ->
                headers.put(Metadata.Key.of(k.toLowerCase(java.util.Locale.ROOT), Metadata.ASCII_STRING_MARSHALLER), v));
        String key = uri.getHost() + ":" + port + (tls ? "/tls" : "/plain") + (endpoint.verifyTls() ? "" : "/insecure");
        ManagedChannel channel = channels.computeIfAbsent(key, k -> channel(uri.getHost(), port, tls,
                endpoint.verifyTls()));
        if (Thread.currentThread().isInterrupted()) {
            cancelled(b, "cancelled before send: the calling thread was interrupted");
            return;
        }
        MethodDescriptor<ModelInferRequest, ?> method = request.stream()
                ? InferenceService.MODEL_STREAM_INFER
                : InferenceService.MODEL_INFER;
        CallOptions callOptions = CallOptions.DEFAULT;
        if (options.totalTimeout().toNanos() > 0) {
            callOptions = callOptions.withDeadlineAfter(options.totalTimeout().toNanos(), TimeUnit.NANOSECONDS);
        }
        LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
        // read before newCall: on a new (idle) channel newCall already starts name resolution and the connect, and a
        // thread preempted right after it found the channel READY, recording no connect phase for a cold request
        boolean ready = channel.getState(false) == ConnectivityState.READY;
        ClientCall<ModelInferRequest, Object> call = newCall(channel, method, callOptions);

        b.sendNanos = System.nanoTime();
        if (!ready) {
            b.connectStartNanos = b.sendNanos;
            if (!awaitReady(channel, b)) {
                return;
            }
            if (channel.getState(false) == ConnectivityState.READY) {
                b.connectEndNanos = System.nanoTime();
            }
        }
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onHeaders(Metadata h) {
                events.add(new Headers(System.nanoTime()));
            }

            @Override
            public void onMessage(Object m) {
                events.add(new Message(System.nanoTime(), m));
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
                events.add(new Closed(System.nanoTime(), status));
            }
        }, headers);
        call.request(Integer.MAX_VALUE);
        call.sendMessage(message);
        call.halfClose();
        b.requestSentNanos = System.nanoTime();
        read(call, events, request.stream(), b);
    }

    @SuppressWarnings("unchecked")
    private static ClientCall<ModelInferRequest, Object> newCall(ManagedChannel channel,
                                                               MethodDescriptor<ModelInferRequest, ?> method,
                                                               CallOptions callOptions) {
        return (ClientCall<ModelInferRequest, Object>) channel.newCall(method, callOptions);
    }

    /** Waits until a new channel is connected; records a connect failure and returns false. */
    private boolean awaitReady(ManagedChannel channel, RequestRecord.Builder b) {
        long deadline = b.sendNanos + options.connectTimeout().toNanos();
        while (true) {
            ConnectivityState state = channel.getState(true);
            if (state == ConnectivityState.READY) {
                return true;
            }
            if (state == ConnectivityState.TRANSIENT_FAILURE) {
                // the call itself will report why; let it run into the failure
                return true;
            }
            long left = deadline - System.nanoTime();
            if (options.connectTimeout().toNanos() > 0 && left <= 0) {
                b.error(ErrorKind.TIMEOUT, "connect timeout: no connection within "
                        + options.connectTimeout().toMillis() + " ms");
                b.endNanos = System.nanoTime();
                return false;
            }
            CountDownLatch changed = new CountDownLatch(1);
            channel.notifyWhenStateChanged(state, changed::countDown);
            try {
                if (options.connectTimeout().toNanos() > 0) {
                    changed.await(left, TimeUnit.NANOSECONDS);
                } else {
                    changed.await();
                }
            } catch (InterruptedException e) {
                cancelled(b, "cancelled while connecting: the calling thread was interrupted");
                b.endNanos = System.nanoTime();
                return false;
            }
        }
    }

    private void read(ClientCall<ModelInferRequest, Object> call, LinkedBlockingQueue<Event> events, boolean stream,
                      RequestRecord.Builder b) {
        ResponseCollector c = new ResponseCollector(counter, stream, null);
        long idle = options.idleTimeout().toNanos();
        while (true) {
            Event e;
            try {
                e = idle > 0 ? events.poll(idle, TimeUnit.NANOSECONDS) : events.take();
            } catch (InterruptedException ie) {
                call.cancel("the calling thread was interrupted", null);
                c.applyTo(b, System.nanoTime(), options.keepText());
                cancelled(b, "cancelled: the calling thread was interrupted");
                return;
            }
            if (e == null) {
                call.cancel("idle timeout", null);
                long now = System.nanoTime();
                c.fail(ErrorKind.TIMEOUT, (b.responseHeadersNanos == UNSET ? "first-byte" : "idle")
                        + " timeout: no gRPC message for " + options.idleTimeout().toMillis() + " ms after "
                        + c.events() + " token-bearing events", now);
                c.applyTo(b, now, options.keepText());
                return;
            }
            switch (e) {
                case Headers h -> {
                    b.responseHeadersNanos = h.nanos();
                    b.httpStatus = 200;
                }
                case Message m -> {
                    if (b.firstByteNanos == UNSET) {
                        b.firstByteNanos = m.nanos();
                    }
                    if (!c.failed() && !c.endMarkerSeen()) {
                        onMessage(m, c);
                    }
                }
                case Closed cl -> {
                    Status s = cl.status();
                    if (s.isOk()) {
                        c.endMarker(cl.nanos()); // a stream the server closed normally is complete
                    } else if (!c.endMarkerSeen()) {
                        classify(s, c, cl.nanos(), b);
                    }
                    c.applyTo(b, cl.nanos(), options.keepText());
                    return;
                }
            }
        }
    }

    private void onMessage(Message m, ResponseCollector c) {
        ModelInferResponse r;
        if (m.message() instanceof ModelStreamInferResponse s) {
            if (!s.getErrorMessage().isEmpty()) {
                c.fail(ErrorKind.STREAM_ERROR, "error in stream: " + ProtocolAdapter.excerpt(s.getErrorMessage()),
                        m.nanos());
                return;
            }
            r = s.getInferResponse();
        } else {
            r = (ModelInferResponse) m.message();
        }
        String text;
        try {
            text = text(r);
        } catch (IllegalArgumentException e) {
            c.fail(ErrorKind.PROTOCOL, e.getMessage(), m.nanos());
            return;
        }
        InferParameter stamp = r.getParametersMap().get("x_sent_ns");
        long serverStamp = stamp != null && stamp.hasInt64Param() ? stamp.getInt64Param() : UNSET;
        c.text(m.nanos(), text, null, null, serverStamp);
        InferParameter fin = r.getParametersMap().get("triton_final_response");
        if (fin != null && fin.hasBoolParam() && fin.getBoolParam()) {
            c.endMarker(m.nanos());
        }
    }

    /**
     * @return the text of the {@code text_output} tensor (empty when the response has none, as Triton's empty final
     *         response)
     * @throws IllegalArgumentException when the tensor's bytes are malformed
     */
    static String text(ModelInferResponse r) {
        for (int i = 0; i < r.getOutputsCount(); i++) {
            ModelInferResponse.InferOutputTensor t = r.getOutputs(i);
            if (!TEXT_OUTPUT.equals(t.getName())) {
                continue;
            }
            if (i < r.getRawOutputContentsCount()) {
                return rawBytesTensor(r.getRawOutputContents(i));
            }
            InferTensorContents contents = t.getContents();
            StringBuilder sb = new StringBuilder();
            for (ByteString s : contents.getBytesContentsList()) {
                sb.append(s.toStringUtf8());
            }
            return sb.toString();
        }
        return "";
    }

    /** Triton's raw BYTES tensor: elements of a 4-byte little-endian length and that many bytes, concatenated. */
    private static String rawBytesTensor(ByteString raw) {
        ByteBuffer buf = raw.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        StringBuilder sb = new StringBuilder();
        while (buf.remaining() > 0) {
            if (buf.remaining() < 4) {
                throw new IllegalArgumentException("malformed raw BYTES tensor '" + TEXT_OUTPUT + "': "
                        + buf.remaining() + " bytes left where a 4-byte length was expected");
            }
            int len = buf.getInt();
            if (len < 0 || len > buf.remaining()) {
                throw new IllegalArgumentException("malformed raw BYTES tensor '" + TEXT_OUTPUT + "': element length "
                        + len + " with " + buf.remaining() + " bytes left");
            }
            byte[] bytes = new byte[len];
            buf.get(bytes);
            sb.append(new String(bytes, StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    private void classify(Status s, ResponseCollector c, long nanos, RequestRecord.Builder b) {
        String detail = s.getCode() + (s.getDescription() == null ? "" : ": " + s.getDescription())
                + (s.getCause() == null ? "" : " (" + IoErrors.describe(s.getCause()) + ")");
        String method = "inference.GRPCInferenceService/" + (b.stream ? "ModelStreamInfer" : "ModelInfer");
        Throwable cause = rootCause(s.getCause());
        String desc = String.valueOf(s.getDescription());
        switch (s.getCode()) {
            case UNIMPLEMENTED -> c.fail(ErrorKind.PROTOCOL, "the server does not implement " + method
                    + ": it is not a KServe v2 / Triton gRPC endpoint, or not this model's (" + detail + ")", nanos);
            case DEADLINE_EXCEEDED -> c.fail(ErrorKind.TIMEOUT, "total timeout: the request took longer than "
                    + options.totalTimeout().toMillis() + " ms (" + detail + ")", nanos);
            case RESOURCE_EXHAUSTED -> c.fail(ErrorKind.RATE_LIMITED, detail, nanos);
            case CANCELLED -> c.fail(ErrorKind.STREAM_ERROR, "call cancelled: " + detail, nanos);
            default -> {
                if (cause instanceof SSLException || desc.contains("SSL") || desc.contains("TLS")) {
                    c.fail(ErrorKind.CONNECTION, "TLS handshake failed: " + detail
                            + " (is the endpoint plaintext? use http:// for plaintext gRPC, https:// for TLS)", nanos);
                } else if (cause instanceof ConnectException) {
                    c.fail(ErrorKind.CONNECTION, "no connection: " + detail, nanos);
                } else if (desc.contains("HTTP status code") || desc.contains("invalid content-type")
                        || desc.contains("HTTP/2") || desc.contains("http2") || desc.contains("Http2")
                        || desc.contains("first received frame") || desc.contains("Network closed for unknown reason")
                        && b.responseHeadersNanos == UNSET) {
                    c.fail(ErrorKind.PROTOCOL, "the server did not answer as a gRPC server (an HTTP/1.1 or plain "
                            + "HTTP endpoint given as kserve-grpc?): " + detail, nanos);
                } else if (b.responseHeadersNanos == UNSET) {
                    c.fail(ErrorKind.CONNECTION, "no response: " + detail, nanos);
                } else {
                    c.fail(ErrorKind.STREAM_ERROR, "stream ended with " + detail, nanos);
                }
            }
        }
    }

    private static Throwable rootCause(Throwable t) {
        Throwable r = t;
        while (r != null && r.getCause() != null && r.getCause() != r) {
            if (r instanceof SSLException || r instanceof ConnectException) {
                return r;
            }
            r = r.getCause();
        }
        return r;
    }

    private ModelInferRequest requestMessage(Endpoint endpoint, GenerationRequest request) {
        ObjectNode sampling = ProtocolAdapter.JSON.createObjectNode();
        sampling.put("max_tokens", request.maxOutputTokens());
        ProtocolAdapter.merge(sampling, request.extraBody());
        ModelInferRequest.Builder m = ModelInferRequest.newBuilder().setModelName(endpoint.model())
                .addInputs(input("text_input", "BYTES", InferTensorContents.newBuilder()
                        .addBytesContents(ByteString.copyFromUtf8(request.prompt()))))
                .addInputs(input("stream", "BOOL", InferTensorContents.newBuilder().addBoolContents(request.stream())))
                .addInputs(input("sampling_parameters", "BYTES", InferTensorContents.newBuilder()
                        .addBytesContents(ByteString.copyFromUtf8(sampling.toString()))))
                .addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName(TEXT_OUTPUT));
        if (request.stream()) {
            m.putParameters("triton_enable_empty_final_response", InferParameter.newBuilder().setBoolParam(true).build());
        }
        return m.build();
    }

    private static ModelInferRequest.InferInputTensor input(String name, String type,
                                                           InferTensorContents.Builder contents) {
        return ModelInferRequest.InferInputTensor.newBuilder().setName(name).setDatatype(type).addShape(1)
                .setContents(contents).build();
    }

    private ManagedChannel channel(String host, int port, boolean tls, boolean verify) {
        ChannelCredentials creds;
        if (!tls) {
            creds = InsecureChannelCredentials.create();
        } else if (verify) {
            creds = TlsChannelCredentials.create();
        } else {
            creds = TlsChannelCredentials.newBuilder().trustManager(new TrustManager[] {TRUST_ALL}).build();
        }
        return Grpc.newChannelBuilderForAddress(host, port, creds)
                .directExecutor() // listener callbacks run on the transport thread: stamps without a hand-off
                .maxInboundMessageSize(64 << 20)
                .build();
    }

    /**
     * Trusts every certificate: used only for endpoints with {@code verifyTls: false}. An extended trust manager,
     * so neither the JDK nor Netty's OpenSSL engine wraps it with host-name checks of its own.
     */
    private static final X509ExtendedTrustManager TRUST_ALL = new X509ExtendedTrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // trusts every certificate: only used for endpoints with verifyTls=false
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // trusts every certificate: only used for endpoints with verifyTls=false
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            // as above
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            // as above
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            // as above
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            // as above
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    };

    private static void cancelled(RequestRecord.Builder b, String message) {
        b.outcome = Outcome.CANCELLED;
        b.errorKind = null;
        b.errorMessage = message;
        Thread.currentThread().interrupt();
    }

    /**
     * Asks a server whether it is a live KServe v2 gRPC server ({@code ServerLive}), on a channel of its own.
     *
     * @param baseUrl {@code http://HOST:PORT} (plaintext) or {@code https://HOST:PORT} (TLS, verified)
     * @param timeout limit for the whole call, &gt; 0
     * @return null when the server answered {@code live}, else what went wrong (status and description)
     */
    static String probeLive(String baseUrl, java.time.Duration timeout) {
        URI uri = URI.create(baseUrl);
        boolean tls = "https".equals(uri.getScheme());
        int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
        ManagedChannel ch = Grpc.newChannelBuilderForAddress(uri.getHost(), port,
                tls ? TlsChannelCredentials.create() : InsecureChannelCredentials.create()).build();
        try {
            org.latencylab.engine.kserve.ServerLiveResponse r = io.grpc.stub.ClientCalls.blockingUnaryCall(ch,
                    InferenceService.SERVER_LIVE, CallOptions.DEFAULT.withDeadlineAfter(timeout.toNanos(),
                            TimeUnit.NANOSECONDS), org.latencylab.engine.kserve.ServerLiveRequest.getDefaultInstance());
            return r.getLive() ? null : "ServerLive answered live=false";
        } catch (io.grpc.StatusRuntimeException e) {
            String status = e.getStatus().getCode() + (e.getStatus().getDescription() == null ? ""
                    : ": " + ProtocolAdapter.excerpt(e.getStatus().getDescription()));
            // INTERNAL (an HTTP/2 failure) is what a plain HTTP/1.1 server gives a gRPC client; UNIMPLEMENTED a gRPC
            // server without the KServe service
            return e.getStatus().getCode() == io.grpc.Status.Code.INTERNAL
                    || e.getStatus().getCode() == io.grpc.Status.Code.UNIMPLEMENTED
                    ? "not a KServe gRPC server (" + status + ")" : status;
        } catch (RuntimeException e) {
            return IoErrors.describe(e);
        } finally {
            ch.shutdownNow();
        }
    }

    /** Closes every channel (their connections) and waits briefly; the next request connects anew. */
    void evictConnections() {
        for (ManagedChannel ch : channels.values()) {
            ch.shutdownNow();
        }
        for (ManagedChannel ch : channels.values()) {
            try {
                ch.awaitTermination(CLOSE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        channels.clear();
    }

    @Override
    public void close() {
        evictConnections();
    }
}
