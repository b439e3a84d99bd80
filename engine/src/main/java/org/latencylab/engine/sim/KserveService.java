package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import org.latencylab.engine.kserve.InferenceService;
import org.latencylab.engine.kserve.InferParameter;
import org.latencylab.engine.kserve.InferTensorContents;
import org.latencylab.engine.kserve.ModelInferRequest;
import org.latencylab.engine.kserve.ModelInferResponse;
import org.latencylab.engine.kserve.ModelMetadataRequest;
import org.latencylab.engine.kserve.ModelMetadataResponse;
import org.latencylab.engine.kserve.ModelReadyRequest;
import org.latencylab.engine.kserve.ModelReadyResponse;
import org.latencylab.engine.kserve.ModelStreamInferResponse;
import org.latencylab.engine.kserve.ServerLiveRequest;
import org.latencylab.engine.kserve.ServerLiveResponse;
import org.latencylab.engine.kserve.ServerReadyRequest;
import org.latencylab.engine.kserve.ServerReadyResponse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The simulator's KServe v2 / Triton gRPC service ({@code inference.GRPCInferenceService}), speaking the text
 * conventions of Triton's vLLM backend: inputs {@code text_input} (BYTES), {@code stream} (BOOL),
 * {@code sampling_parameters} (BYTES, JSON with {@code max_tokens}), or TensorRT-LLM's {@code max_tokens} (INT32);
 * output {@code text_output} (BYTES) in {@code raw_output_contents} as Triton sends it (4-byte little-endian length,
 * then the bytes). {@code ModelStreamInfer} sends one response per token, each with the response parameter
 * {@code triton_final_response} (true on the last); errors in the stream travel in {@code error_message}, as
 * Triton sends them. With stamping on, each response carries the parameter {@code x_sent_ns} (the server's
 * {@link System#nanoTime()} just before the send).
 *
 * <p>The latency model is the HTTP routes' ({@link SimHandler#generate}). Blocking per call: the server runs the
 * service on virtual threads. Thread-safe.
 */
final class KserveService implements InferenceService.Implementation {
    /** Name of the text output tensor (Triton's vLLM and TensorRT-LLM backends). */
    static final String TEXT_OUTPUT = "text_output";

    private final SimHandler handler;
    private final SimProfile profile;

    KserveService(SimHandler handler, SimProfile profile) {
        this.handler = handler;
        this.profile = profile;
    }

    @Override
    public void serverLive(ServerLiveRequest request, StreamObserver<ServerLiveResponse> out) {
        out.onNext(ServerLiveResponse.newBuilder().setLive(true).build());
        out.onCompleted();
    }

    @Override
    public void serverReady(ServerReadyRequest request, StreamObserver<ServerReadyResponse> out) {
        out.onNext(ServerReadyResponse.newBuilder().setReady(true).build());
        out.onCompleted();
    }

    @Override
    public void modelReady(ModelReadyRequest request, StreamObserver<ModelReadyResponse> out) {
        out.onNext(ModelReadyResponse.newBuilder().setReady(request.getName().equals(profile.model())).build());
        out.onCompleted();
    }

    @Override
    public void modelMetadata(ModelMetadataRequest request, StreamObserver<ModelMetadataResponse> out) {
        if (!request.getName().equals(profile.model())) {
            out.onError(Status.NOT_FOUND.withDescription("unknown model '" + request.getName() + "'; this simulator "
                    + "serves '" + profile.model() + "'").asRuntimeException());
            return;
        }
        out.onNext(ModelMetadataResponse.newBuilder().setName(profile.model()).addVersions("1")
                .setPlatform("latencylab-sim")
                .addInputs(tensor("text_input", "BYTES"))
                .addInputs(tensor("stream", "BOOL"))
                .addInputs(tensor("sampling_parameters", "BYTES"))
                .addOutputs(tensor(TEXT_OUTPUT, "BYTES")).build());
        out.onCompleted();
    }

    private static ModelMetadataResponse.TensorMetadata tensor(String name, String type) {
        return ModelMetadataResponse.TensorMetadata.newBuilder().setName(name).setDatatype(type).addShape(1).build();
    }

    @Override
    public void modelInfer(ModelInferRequest request, StreamObserver<ModelInferResponse> out) {
        Parsed p;
        try {
            p = parse(request);
        } catch (IllegalArgumentException e) {
            out.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        try {
            Turn t = handler.generate(p.prompt, p.maxTokens, "kserve-", (piece, reasoning, i, last) -> System.nanoTime());
            ModelInferResponse.Builder r = response(request, t.answer.toString());
            if (handler.options().stamping()) {
                r.putParameters("x_sent_ns", InferParameter.newBuilder().setInt64Param(System.nanoTime()).build());
            }
            out.onNext(r.build());
            out.onCompleted();
        } catch (IOException | InterruptedException e) {
            out.onError(Status.UNAVAILABLE.withDescription("server closing").asRuntimeException());
        }
    }

    @Override
    public StreamObserver<ModelInferRequest> modelStreamInfer(StreamObserver<ModelStreamInferResponse> out) {
        ServerCallStreamObserver<ModelStreamInferResponse> call = (ServerCallStreamObserver<ModelStreamInferResponse>) out;
        return new StreamObserver<>() {
            @Override
            public void onNext(ModelInferRequest request) {
                Parsed p;
                try {
                    p = parse(request);
                } catch (IllegalArgumentException e) {
                    out.onNext(ModelStreamInferResponse.newBuilder().setErrorMessage(e.getMessage()).build());
                    return;
                }
                try {
                    handler.generate(p.prompt, p.maxTokens, "kserve-", (piece, reasoning, i, last) -> {
                        if (call.isCancelled()) {
                            throw new IOException("client cancelled the call");
                        }
                        ModelInferResponse.Builder r = response(request, piece.text());
                        r.putParameters("triton_final_response", InferParameter.newBuilder().setBoolParam(last).build());
                        long now = System.nanoTime();
                        if (handler.options().stamping()) {
                            r.putParameters("x_sent_ns", InferParameter.newBuilder().setInt64Param(now).build());
                        }
                        try {
                            out.onNext(ModelStreamInferResponse.newBuilder().setInferResponse(r).build());
                        } catch (StatusRuntimeException e) {
                            throw new IOException("client went away: " + e.getStatus(), e);
                        }
                        return now;
                    });
                } catch (IOException e) {
                    // the client cancelled or went away: nothing more to send
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    out.onError(Status.UNAVAILABLE.withDescription("server closing").asRuntimeException());
                }
            }

            @Override
            public void onError(Throwable t) {
                // the client cancelled; generation stops at its next token
            }

            @Override
            public void onCompleted() {
                if (!call.isCancelled()) {
                    out.onCompleted();
                }
            }
        };
    }

    private ModelInferResponse.Builder response(ModelInferRequest request, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteBuffer raw = ByteBuffer.allocate(4 + bytes.length).order(ByteOrder.LITTLE_ENDIAN);
        raw.putInt(bytes.length).put(bytes);
        return ModelInferResponse.newBuilder().setModelName(profile.model()).setModelVersion("1")
                .setId(request.getId())
                .addOutputs(ModelInferResponse.InferOutputTensor.newBuilder().setName(TEXT_OUTPUT)
                        .setDatatype("BYTES").addShape(1))
                .addRawOutputContents(ByteString.copyFrom(raw.array()));
    }

    /** What a generation request asks for. */
    private record Parsed(String prompt, int maxTokens) {
    }

    /**
     * @throws IllegalArgumentException naming the tensor at fault, in Triton's words where it has them
     */
    private static Parsed parse(ModelInferRequest request) {
        String prompt = null;
        int maxTokens = SimRequest.DEFAULT_MAX_TOKENS;
        for (int i = 0; i < request.getInputsCount(); i++) {
            ModelInferRequest.InferInputTensor in = request.getInputs(i);
            ByteString raw = i < request.getRawInputContentsCount() ? request.getRawInputContents(i) : null;
            switch (in.getName()) {
                case "text_input" -> prompt = bytesTensor(in, raw);
                case "sampling_parameters" -> maxTokens = maxTokens(bytesTensor(in, raw), maxTokens);
                case "max_tokens" -> {
                    if (in.hasContents() && in.getContents().getIntContentsCount() > 0) {
                        maxTokens = checkTokens(in.getContents().getIntContents(0));
                    } else if (raw != null && raw.size() >= 4) {
                        maxTokens = checkTokens(raw.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN).getInt());
                    } else {
                        throw new IllegalArgumentException("input 'max_tokens' has no INT32 value");
                    }
                }
                default -> {
                    // stream, exclude_input_in_output, return_* flags and others do not change the simulation
                }
            }
        }
        if (prompt == null) {
            throw new IllegalArgumentException("expected input 'text_input' (BYTES, shape [1]) with the prompt");
        }
        return new Parsed(prompt, maxTokens);
    }

    private static String bytesTensor(ModelInferRequest.InferInputTensor in, ByteString raw) {
        InferTensorContents c = in.getContents();
        if (in.hasContents() && c.getBytesContentsCount() > 0) {
            return c.getBytesContents(0).toStringUtf8();
        }
        if (raw != null && raw.size() >= 4) {
            ByteBuffer b = raw.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            int len = b.getInt();
            if (len < 0 || len > b.remaining()) {
                throw new IllegalArgumentException("input '" + in.getName() + "': raw BYTES length " + len
                        + " exceeds the " + b.remaining() + " bytes given");
            }
            return raw.substring(4, 4 + len).toStringUtf8();
        }
        throw new IllegalArgumentException("input '" + in.getName() + "' has no BYTES value");
    }

    private static int maxTokens(String json, int dflt) {
        JsonNode node;
        try {
            node = EventWriter.JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("input 'sampling_parameters' is not JSON: " + e.getMessage());
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("input 'sampling_parameters' must be a JSON object, was " + json);
        }
        JsonNode mt = node.get("max_tokens");
        if (mt == null || mt.isNull()) {
            return dflt;
        }
        if (!mt.isIntegralNumber()) {
            throw new IllegalArgumentException("sampling_parameters.max_tokens must be an integer, was " + mt);
        }
        return checkTokens(mt.asLong());
    }

    private static int checkTokens(long n) {
        if (n < 1 || n > SimRequest.MAX_OUTPUT_TOKENS) {
            throw new IllegalArgumentException("max_tokens must be in [1, " + SimRequest.MAX_OUTPUT_TOKENS
                    + "], was " + n);
        }
        return (int) n;
    }
}
