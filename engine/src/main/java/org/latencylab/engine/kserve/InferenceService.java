package org.latencylab.engine.kserve;

import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;

/**
 * The gRPC methods of {@code inference.GRPCInferenceService} (KServe v2 with Triton's {@code ModelStreamInfer}) as
 * grpc-java {@link MethodDescriptor}s over the protobuf messages generated from {@code kserve/inference.proto}, and
 * the binding of a server implementation. What {@code protoc-gen-grpc-java} would generate, written with grpc-java's
 * public API ({@link ProtoUtils#marshaller}, {@link ServerCalls}). Immutable and thread-safe.
 */
public final class InferenceService {
    /** Fully qualified service name, as in the specification. */
    public static final String SERVICE_NAME = "inference.GRPCInferenceService";

    /** {@code ServerLive}: unary. */
    public static final MethodDescriptor<ServerLiveRequest, ServerLiveResponse> SERVER_LIVE =
            method("ServerLive", MethodDescriptor.MethodType.UNARY, ServerLiveRequest.getDefaultInstance(),
                    ServerLiveResponse.getDefaultInstance());
    /** {@code ServerReady}: unary. */
    public static final MethodDescriptor<ServerReadyRequest, ServerReadyResponse> SERVER_READY =
            method("ServerReady", MethodDescriptor.MethodType.UNARY, ServerReadyRequest.getDefaultInstance(),
                    ServerReadyResponse.getDefaultInstance());
    /** {@code ModelReady}: unary. */
    public static final MethodDescriptor<ModelReadyRequest, ModelReadyResponse> MODEL_READY =
            method("ModelReady", MethodDescriptor.MethodType.UNARY, ModelReadyRequest.getDefaultInstance(),
                    ModelReadyResponse.getDefaultInstance());
    /** {@code ModelMetadata}: unary. */
    public static final MethodDescriptor<ModelMetadataRequest, ModelMetadataResponse> MODEL_METADATA =
            method("ModelMetadata", MethodDescriptor.MethodType.UNARY, ModelMetadataRequest.getDefaultInstance(),
                    ModelMetadataResponse.getDefaultInstance());
    /** {@code ModelInfer}: unary inference. */
    public static final MethodDescriptor<ModelInferRequest, ModelInferResponse> MODEL_INFER =
            method("ModelInfer", MethodDescriptor.MethodType.UNARY, ModelInferRequest.getDefaultInstance(),
                    ModelInferResponse.getDefaultInstance());
    /** {@code ModelStreamInfer}: bidirectional streaming inference (Triton). */
    public static final MethodDescriptor<ModelInferRequest, ModelStreamInferResponse> MODEL_STREAM_INFER =
            method("ModelStreamInfer", MethodDescriptor.MethodType.BIDI_STREAMING,
                    ModelInferRequest.getDefaultInstance(), ModelStreamInferResponse.getDefaultInstance());

    private InferenceService() {
    }

    private static <Q extends Message, R extends Message> MethodDescriptor<Q, R> method(
            String name, MethodDescriptor.MethodType type, Q request, R response) {
        return MethodDescriptor.<Q, R>newBuilder()
                .setType(type)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE_NAME, name))
                .setRequestMarshaller(ProtoUtils.marshaller(request))
                .setResponseMarshaller(ProtoUtils.marshaller(response))
                .build();
    }

    /**
     * A server implementation. Every method answers {@code UNIMPLEMENTED} unless overridden; implementations must
     * be thread-safe (grpc-java calls them from its executor).
     */
    public interface Implementation {
        /** @param request the request @param out where the answer goes */
        default void serverLive(ServerLiveRequest request, StreamObserver<ServerLiveResponse> out) {
            unimplemented(SERVER_LIVE, out);
        }

        /** @param request the request @param out where the answer goes */
        default void serverReady(ServerReadyRequest request, StreamObserver<ServerReadyResponse> out) {
            unimplemented(SERVER_READY, out);
        }

        /** @param request the request @param out where the answer goes */
        default void modelReady(ModelReadyRequest request, StreamObserver<ModelReadyResponse> out) {
            unimplemented(MODEL_READY, out);
        }

        /** @param request the request @param out where the answer goes */
        default void modelMetadata(ModelMetadataRequest request, StreamObserver<ModelMetadataResponse> out) {
            unimplemented(MODEL_METADATA, out);
        }

        /** @param request the request @param out where the answer goes */
        default void modelInfer(ModelInferRequest request, StreamObserver<ModelInferResponse> out) {
            unimplemented(MODEL_INFER, out);
        }

        /**
         * @param out where responses go
         * @return the observer that receives the client's requests
         */
        default StreamObserver<ModelInferRequest> modelStreamInfer(StreamObserver<ModelStreamInferResponse> out) {
            unimplemented(MODEL_STREAM_INFER, out);
            return new StreamObserver<>() {
                @Override
                public void onNext(ModelInferRequest value) {
                }

                @Override
                public void onError(Throwable t) {
                }

                @Override
                public void onCompleted() {
                }
            };
        }
    }

    private static void unimplemented(MethodDescriptor<?, ?> method, StreamObserver<?> out) {
        out.onError(Status.UNIMPLEMENTED.withDescription("method " + method.getFullMethodName()
                + " is not implemented").asRuntimeException());
    }

    /**
     * @param impl the implementation
     * @return the service definition to add to a gRPC server
     */
    public static ServerServiceDefinition bind(Implementation impl) {
        return ServerServiceDefinition.builder(SERVICE_NAME)
                .addMethod(SERVER_LIVE, ServerCalls.asyncUnaryCall(impl::serverLive))
                .addMethod(SERVER_READY, ServerCalls.asyncUnaryCall(impl::serverReady))
                .addMethod(MODEL_READY, ServerCalls.asyncUnaryCall(impl::modelReady))
                .addMethod(MODEL_METADATA, ServerCalls.asyncUnaryCall(impl::modelMetadata))
                .addMethod(MODEL_INFER, ServerCalls.asyncUnaryCall(impl::modelInfer))
                .addMethod(MODEL_STREAM_INFER, ServerCalls.asyncBidiStreamingCall(impl::modelStreamInfer))
                .build();
    }
}
