package dev.kiln.serving;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Prediction;
import dev.kiln.serving.grpc.GrpcInference.InferBatchStatistics;
import dev.kiln.serving.grpc.GrpcInference.InferStatistics;
import dev.kiln.serving.grpc.GrpcInference.InferTensorContents;
import dev.kiln.serving.grpc.GrpcInference.ModelInferRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelInferResponse;
import dev.kiln.serving.grpc.GrpcInference.ModelMetadataRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelMetadataResponse;
import dev.kiln.serving.grpc.GrpcInference.ModelReadyRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelReadyResponse;
import dev.kiln.serving.grpc.GrpcInference.ModelStatistics;
import dev.kiln.serving.grpc.GrpcInference.ModelStatisticsRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelStatisticsResponse;
import dev.kiln.serving.grpc.GrpcInference.RepositoryIndexRequest;
import dev.kiln.serving.grpc.GrpcInference.RepositoryIndexResponse;
import dev.kiln.serving.grpc.GrpcInference.RepositoryModelLoadRequest;
import dev.kiln.serving.grpc.GrpcInference.RepositoryModelLoadResponse;
import dev.kiln.serving.grpc.GrpcInference.RepositoryModelUnloadRequest;
import dev.kiln.serving.grpc.GrpcInference.RepositoryModelUnloadResponse;
import dev.kiln.serving.grpc.GrpcInference.ServerLiveRequest;
import dev.kiln.serving.grpc.GrpcInference.ServerLiveResponse;
import dev.kiln.serving.grpc.GrpcInference.ServerMetadataRequest;
import dev.kiln.serving.grpc.GrpcInference.ServerMetadataResponse;
import dev.kiln.serving.grpc.GrpcInference.ServerReadyRequest;
import dev.kiln.serving.grpc.GrpcInference.ServerReadyResponse;
import dev.kiln.serving.grpc.GrpcInference.StatisticDuration;
import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The Open Inference Protocol's gRPC service, {@code inference.GRPCInferenceService}: {@code
 * ServerLive}, {@code ServerReady}, {@code ModelReady}, {@code ServerMetadata}, {@code
 * ModelMetadata} and {@code ModelInfer}, with the statistics extension's {@code ModelStatistics}
 * and the repository extension's {@code RepositoryIndex}, {@code RepositoryModelLoad} and {@code
 * RepositoryModelUnload}, over the same models, batchers, replicas and metrics as the HTTP routes
 * of the {@link InferenceServer} it belongs to.
 *
 * <p>The service is bound with grpc-java's own API ({@link MethodDescriptor}, {@link
 * ServerServiceDefinition}) over the messages protoc compiled from {@code grpc_inference.proto};
 * the tests call it through grpc-java's generated stub of the same file. Requests arrive as bytes
 * and are parsed here, so that a message that is not one answers {@code INVALID_ARGUMENT} naming
 * the message, rather than grpc-java's generic error.
 *
 * <p>Status codes: {@code INVALID_ARGUMENT} naming the field at fault and what was expected and
 * given; {@code NOT_FOUND} for another model or version; {@code FAILED_PRECONDITION} for a load or
 * unload the model control mode refuses; {@code RESOURCE_EXHAUSTED} when the queue is full (or a
 * message is over the size limit); {@code UNAVAILABLE} while the server drains; {@code INTERNAL} if
 * the model fails.
 *
 * <p>Threads: a call is parsed and checked on the gRPC server's executor, queued, and answered by
 * the thread the batcher hands the outputs to; nothing here blocks.
 */
final class GrpcService {
  /** The service's full name, the protocol's. */
  static final String SERVICE = "inference.GRPCInferenceService";

  private final InferenceServer server;

  GrpcService(InferenceServer server) {
    this.server = server;
  }

  /** The service, bound to this server. */
  ServerServiceDefinition definition() {
    ServerServiceDefinition.Builder b = ServerServiceDefinition.builder(SERVICE);
    add(
        b,
        "ServerLive",
        ServerLiveRequest.parser(),
        ServerLiveResponse.getDefaultInstance(),
        (q, o) -> answer(o, ServerLiveResponse.newBuilder().setLive(true).build()));
    add(
        b,
        "ServerReady",
        ServerReadyRequest.parser(),
        ServerReadyResponse.getDefaultInstance(),
        (q, o) -> answer(o, ServerReadyResponse.newBuilder().setReady(server.isReady()).build()));
    add(
        b,
        "ModelReady",
        ModelReadyRequest.parser(),
        ModelReadyResponse.getDefaultInstance(),
        (q, o) -> {
          server.table().find(q.getName(), q.getVersion());
          answer(o, ModelReadyResponse.newBuilder().setReady(server.isReady()).build());
        });
    add(
        b,
        "ServerMetadata",
        ServerMetadataRequest.parser(),
        ServerMetadataResponse.getDefaultInstance(),
        (q, o) ->
            answer(
                o,
                ServerMetadataResponse.newBuilder()
                    .setName("kiln")
                    .setVersion(InferenceServer.version())
                    .addAllExtensions(InferenceServer.EXTENSIONS)
                    .build()));
    add(
        b,
        "ModelMetadata",
        ModelMetadataRequest.parser(),
        ModelMetadataResponse.getDefaultInstance(),
        (q, o) -> {
          ServedModel served = server.table().find(q.getName(), q.getVersion());
          ModelMetadataResponse.Builder m =
              ModelMetadataResponse.newBuilder()
                  .setName(served.name())
                  .addAllVersions(
                      q.getVersion().isEmpty()
                          ? server.table().versionsOf(served.name())
                          : List.of(served.version()))
                  .setPlatform("kiln_mxnet");
          Signature sig = served.signature();
          for (int k = 0; k < sig.inputs().size(); k++) {
            m.addInputs(tensor(sig.inputs().get(k), sig.datatypes().get(k)));
          }
          for (Port p : sig.outputs()) {
            m.addOutputs(tensor(p, Protocol.FP32));
          }
          answer(o, m.build());
        });
    add(
        b,
        "ModelInfer",
        ModelInferRequest.parser(),
        ModelInferResponse.getDefaultInstance(),
        this::infer);
    add(
        b,
        "ModelStatistics",
        ModelStatisticsRequest.parser(),
        ModelStatisticsResponse.getDefaultInstance(),
        (q, o) -> answer(o, statistics(q)));
    add(
        b,
        "RepositoryIndex",
        RepositoryIndexRequest.parser(),
        RepositoryIndexResponse.getDefaultInstance(),
        (q, o) -> {
          RepositoryIndexResponse.Builder r = RepositoryIndexResponse.newBuilder();
          for (Repository.Entry e : server.index()) {
            if (!q.getReady() || e.state().equals("READY")) {
              r.addModels(
                  RepositoryIndexResponse.ModelIndex.newBuilder()
                      .setName(e.name())
                      .setVersion(e.version())
                      .setState(e.state())
                      .setReason(e.reason()));
            }
          }
          answer(o, r.build());
        });
    add(
        b,
        "RepositoryModelLoad",
        RepositoryModelLoadRequest.parser(),
        RepositoryModelLoadResponse.getDefaultInstance(),
        (q, o) -> {
          repository(() -> server.load(q.getModelName()));
          answer(o, RepositoryModelLoadResponse.getDefaultInstance());
        });
    add(
        b,
        "RepositoryModelUnload",
        RepositoryModelUnloadRequest.parser(),
        RepositoryModelUnloadResponse.getDefaultInstance(),
        (q, o) -> {
          repository(() -> server.unload(q.getModelName()));
          answer(o, RepositoryModelUnloadResponse.getDefaultInstance());
        });
    return b.build();
  }

  /** Runs a load or unload; what it refuses is {@code FAILED_PRECONDITION} or the argument's. */
  private static void repository(Runnable action) throws BadRequest {
    try {
      action.run();
    } catch (IllegalStateException e) {
      throw new BadRequest(412, e.getMessage());
    } catch (IllegalArgumentException e) {
      throw BadRequest.of(e.getMessage());
    }
  }

  private ModelStatisticsResponse statistics(ModelStatisticsRequest q) throws BadRequest {
    List<ServedModel> which = new ArrayList<>();
    if (q.getName().isEmpty()) {
      which.addAll(server.table().all());
    } else if (q.getVersion().isEmpty()) {
      server.table().find(q.getName(), ""); // 404 naming what is served
      for (String v : server.table().versionsOf(q.getName())) {
        which.add(server.table().find(q.getName(), v));
      }
    } else {
      which.add(server.table().find(q.getName(), q.getVersion()));
    }
    ModelStatisticsResponse.Builder r = ModelStatisticsResponse.newBuilder();
    for (ServedModel m : which) {
      ModelStats.Snapshot s = m.stats().snapshot();
      ModelStatistics.Builder ms =
          ModelStatistics.newBuilder()
              .setName(m.name())
              .setVersion(m.version())
              .setLastInference(s.lastInferenceMs())
              .setInferenceCount(s.inferenceCount())
              .setExecutionCount(s.executionCount())
              .setInferenceStats(
                  InferStatistics.newBuilder()
                      .setSuccess(duration(s.success()))
                      .setFail(duration(s.fail()))
                      .setQueue(duration(s.queue()))
                      .setComputeInfer(duration(s.computeInfer())));
      s.batches()
          .forEach(
              (size, d) ->
                  ms.addBatchStats(
                      InferBatchStatistics.newBuilder()
                          .setBatchSize(size)
                          .setComputeInfer(duration(d))));
      r.addModelStats(ms);
    }
    return r.build();
  }

  private static StatisticDuration duration(ModelStats.Duration d) {
    return StatisticDuration.newBuilder().setCount(d.count()).setNs(d.ns()).build();
  }

  /** A unary call's work: answers through {@code out}, or throws the refusal. */
  private interface Call<Q, A> {
    void run(Q request, StreamObserver<A> out) throws BadRequest;
  }

  /** Passes a request's bytes through unparsed, for {@link #add} to parse and refuse by name. */
  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw Status.INTERNAL
                .withDescription("reading the request: " + e.getMessage())
                .asRuntimeException();
          }
        }
      };

  private static <Q, A extends Message> void add(
      ServerServiceDefinition.Builder b, String name, Parser<Q> parser, A answer, Call<Q, A> call) {
    MethodDescriptor<byte[], A> method =
        MethodDescriptor.<byte[], A>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, name))
            .setRequestMarshaller(BYTES)
            .setResponseMarshaller(ProtoUtils.marshaller(answer))
            .build();
    b.addMethod(
        method,
        ServerCalls.asyncUnaryCall(
            (bytes, out) -> {
              Q request;
              try {
                request = parser.parseFrom(bytes);
              } catch (InvalidProtocolBufferException e) {
                out.onError(
                    Status.INVALID_ARGUMENT
                        .withDescription(
                            "the request is not a "
                                + name
                                + "Request message ("
                                + bytes.length
                                + " bytes): "
                                + e.getMessage())
                        .asRuntimeException());
                return;
              }
              try {
                call.run(request, out);
              } catch (BadRequest e) {
                out.onError(status(e, false).withDescription(e.getMessage()).asRuntimeException());
              }
            }));
  }

  private static <A> void answer(StreamObserver<A> out, A answer) {
    out.onNext(answer);
    out.onCompleted();
  }

  /**
   * The gRPC status of a refusal: 400 is {@code INVALID_ARGUMENT}, 404 {@code NOT_FOUND}, 503
   * {@code RESOURCE_EXHAUSTED} (a full queue) or {@code UNAVAILABLE} (a drain).
   */
  static Status status(BadRequest e, boolean draining) {
    return switch (e.status) {
      case 400 -> Status.INVALID_ARGUMENT;
      case 404 -> Status.NOT_FOUND;
      case 412 -> Status.FAILED_PRECONDITION;
      case 503 -> draining ? Status.UNAVAILABLE : Status.RESOURCE_EXHAUSTED;
      default -> Status.INTERNAL;
    };
  }

  private static ModelMetadataResponse.TensorMetadata tensor(Port p, String datatype) {
    ModelMetadataResponse.TensorMetadata.Builder t =
        ModelMetadataResponse.TensorMetadata.newBuilder().setName(p.name()).setDatatype(datatype);
    for (int d : p.openDims()) {
      t.addShape(d);
    }
    return t.build();
  }

  private void infer(ModelInferRequest q, StreamObserver<ModelInferResponse> out) {
    long start = System.nanoTime();
    ServerMetrics metrics = server.metrics();
    InferRequest request;
    ServedModel m;
    try {
      m = server.table().find(q.getModelName(), q.getModelVersion());
    } catch (BadRequest e) {
      refuse(out, e, start, false, null);
      return;
    }
    try {
      request = read(q, m.signature());
    } catch (BadRequest e) {
      refuse(out, e, start, false, m);
      return;
    }
    boolean raw = q.getRawInputContentsCount() > 0;
    Batcher.Job job =
        new Batcher.Job(
            request,
            start,
            (outputs, failure) -> {
              server.countCompleted();
              m.stats().answered(failure == null, start);
              try {
                if (failure != null) {
                  boolean draining = failure instanceof IllegalStateException;
                  Status s = draining ? Status.UNAVAILABLE : Status.INTERNAL;
                  metrics.error(
                      m.name(),
                      m.version(),
                      ServerMetrics.GRPC,
                      draining ? "overloaded" : "failed");
                  metrics.answered(
                      m.name(), m.version(), ServerMetrics.GRPC, s.getCode().name(), start);
                  out.onError(
                      s.withDescription("the model failed: " + failure.getMessage())
                          .asRuntimeException());
                } else {
                  ModelInferResponse a = answer(m, q.getId(), request, outputs, raw);
                  metrics.answered(m.name(), m.version(), ServerMetrics.GRPC, "OK", start);
                  answer(out, a);
                }
              } catch (RuntimeException e) {
                // The client cancelled the call (or went away) before its answer: nothing to send.
                metrics.error(m.name(), m.version(), ServerMetrics.GRPC, "client_gone");
              }
            });
    if (m.offer(job)) {
      server.countAccepted();
    } else if (m.isClosing() && server.isReady()) {
      refuse(
          out,
          new BadRequest(
              404,
              "unknown model '"
                  + m.name()
                  + "': version "
                  + m.version()
                  + " was unloaded while this request was read; this server serves "
                  + server.table().describe()),
          start,
          false,
          m);
    } else {
      refuse(
          out,
          new BadRequest(
              503,
              server.isReady()
                  ? "overloaded: "
                      + server.maxQueue()
                      + " requests are already waiting (--max-queue); retry later"
                  : "the server is draining; it takes no more requests"),
          start,
          !server.isReady(),
          m);
    }
  }

  private void refuse(
      StreamObserver<ModelInferResponse> out,
      BadRequest e,
      long start,
      boolean draining,
      ServedModel m) {
    ServerMetrics metrics = server.metrics();
    Status s = status(e, draining);
    String model = m == null ? "" : m.name();
    String version = m == null ? "" : m.version();
    if (m != null) {
      m.stats().answered(false, start);
    }
    metrics.error(
        model,
        version,
        ServerMetrics.GRPC,
        switch (e.status) {
          case 404 -> "unknown_model";
          case 503 -> "overloaded";
          default -> "bad_request";
        });
    metrics.answered(model, version, ServerMetrics.GRPC, s.getCode().name(), start);
    out.onError(s.withDescription(e.getMessage()).asRuntimeException());
  }

  /**
   * Reads an infer request's tensors, from {@code raw_input_contents} (given for every input or for
   * none) or from each input's typed {@code contents}, and checks them against the model as the
   * HTTP routes do.
   */
  static InferRequest read(ModelInferRequest q, Signature model) throws BadRequest {
    int raws = q.getRawInputContentsCount();
    if (raws > 0 && raws != q.getInputsCount()) {
      throw BadRequest.of(
          "raw_input_contents holds "
              + raws
              + " entries for "
              + q.getInputsCount()
              + " inputs; give every input's data raw, in the inputs' order, or none");
    }
    List<Protocol.Tensor> tensors = new ArrayList<>();
    for (int i = 0; i < q.getInputsCount(); i++) {
      ModelInferRequest.InferInputTensor t = q.getInputs(i);
      String where =
          "inputs[" + i + "]" + (t.getName().isEmpty() ? "" : " ('" + t.getName() + "')");
      if (t.getName().isEmpty()) {
        throw BadRequest.of(where + " has no name");
      }
      if (t.getDatatype().isEmpty()) {
        throw BadRequest.of(where + " has no datatype");
      }
      if (t.getShapeCount() > 32) {
        throw BadRequest.of(where + ".shape has more than 32 dimensions");
      }
      long[] shape = new long[t.getShapeCount()];
      for (int d = 0; d < shape.length; d++) {
        long v = t.getShape(d);
        if (v < 0 || v > Integer.MAX_VALUE) {
          throw BadRequest.of(where + ".shape[" + d + "] is " + v + ", not a size");
        }
        shape[d] = v;
      }
      String datatype = t.getDatatype();
      if (Protocol.width(datatype) == 0) {
        // Checked here, before the data: the datatype says which field holds the values.
        throw BadRequest.of(Protocol.datatypeRule(where, datatype));
      }
      Protocol.Values values;
      if (raws > 0) {
        if (hasContents(t.getContents())) {
          throw BadRequest.of(
              where + " has contents and raw_input_contents[" + i + "]; give its data once");
        }
        ByteString bytes = q.getRawInputContents(i);
        values =
            Protocol.raw(
                bytes.asReadOnlyByteBuffer(),
                datatype,
                "raw_input_contents[" + i + "] for " + where,
                bytes.size() + " bytes");
      } else {
        values = typed(t.getContents(), datatype, where);
      }
      tensors.add(
          new Protocol.Tensor(
              t.getName(), shape, datatype, values.data(), values.bad(), -1, values.inexact()));
    }
    if (tensors.isEmpty()) {
      throw BadRequest.of("the request has no inputs; expected " + Protocol.signature(model));
    }
    List<Protocol.Asked> asked = null;
    if (q.getOutputsCount() > 0) {
      asked = new ArrayList<>();
      for (int k = 0; k < q.getOutputsCount(); k++) {
        String name = q.getOutputs(k).getName();
        if (name.isEmpty()) {
          throw BadRequest.of("outputs[" + k + "] has no name");
        }
        asked.add(new Protocol.Asked(name, raws > 0));
      }
    }
    String id = q.getId().isEmpty() ? null : q.getId();
    return Protocol.check(id, tensors, asked, raws > 0, model);
  }

  /** The values of a tensor of {@code datatype} (FP32, INT64 or INT32) in its typed field. */
  private static Protocol.Values typed(InferTensorContents c, String datatype, String where)
      throws BadRequest {
    String field;
    int count;
    switch (datatype) {
      case Protocol.FP32 -> {
        field = "fp32_contents";
        count = c.getFp32ContentsCount();
      }
      case Signature.INT64 -> {
        field = "int64_contents";
        count = c.getInt64ContentsCount();
      }
      default -> {
        field = "int_contents";
        count = c.getIntContentsCount();
      }
    }
    if (count == 0 && hasContents(c)) {
      throw BadRequest.of(
          where
              + " is "
              + datatype
              + "; its values belong in contents."
              + field
              + ", got "
              + filled(c));
    }
    switch (datatype) {
      case Protocol.FP32 -> {
        float[] data = new float[count];
        for (int k = 0; k < count; k++) {
          data[k] = c.getFp32Contents(k);
        }
        return Protocol.floats(data);
      }
      case Signature.INT64 -> {
        long[] v = new long[count];
        for (int k = 0; k < count; k++) {
          v[k] = c.getInt64Contents(k);
        }
        return Protocol.whole(v);
      }
      default -> {
        long[] v = new long[count];
        for (int k = 0; k < count; k++) {
          v[k] = c.getIntContents(k);
        }
        return Protocol.whole(v);
      }
    }
  }

  private static boolean hasContents(InferTensorContents c) {
    return !filled(c).isEmpty();
  }

  /** The names of the contents' fields that hold values, e.g. {@code int64_contents}. */
  private static String filled(InferTensorContents c) {
    List<String> names = new ArrayList<>();
    if (c.getBoolContentsCount() > 0) {
      names.add("bool_contents");
    }
    if (c.getIntContentsCount() > 0) {
      names.add("int_contents");
    }
    if (c.getInt64ContentsCount() > 0) {
      names.add("int64_contents");
    }
    if (c.getUintContentsCount() > 0) {
      names.add("uint_contents");
    }
    if (c.getUint64ContentsCount() > 0) {
      names.add("uint64_contents");
    }
    if (c.getFp32ContentsCount() > 0) {
      names.add("fp32_contents");
    }
    if (c.getFp64ContentsCount() > 0) {
      names.add("fp64_contents");
    }
    if (c.getBytesContentsCount() > 0) {
      names.add("bytes_contents");
    }
    return String.join(", ", names);
  }

  /**
   * The answer: each output asked for, with its shape (free sizes as the request fixed them), its
   * data in {@code raw_output_contents} (little-endian) when the request gave its inputs raw, in
   * {@code contents} otherwise.
   */
  private static ModelInferResponse answer(
      ServedModel m, String id, InferRequest request, Prediction prediction, boolean raw) {
    float[][] out = prediction.values();
    ModelInferResponse.Builder a =
        ModelInferResponse.newBuilder().setModelName(m.name()).setModelVersion(m.version());
    if (!id.isEmpty()) {
      a.setId(id);
    }
    List<Port> outputs = m.signature().outputs();
    for (int o : request.outputs()) {
      Port p = outputs.get(o);
      ModelInferResponse.InferOutputTensor.Builder t =
          ModelInferResponse.InferOutputTensor.newBuilder()
              .setName(p.name())
              .setDatatype(Protocol.FP32);
      for (int d : prediction.shapes().get(o).dims()) {
        t.addShape(d);
      }
      if (raw) {
        ByteBuffer bytes =
            ByteBuffer.allocate(out[o].length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(out[o]);
        a.addRawOutputContents(ByteString.copyFrom(bytes));
      } else {
        InferTensorContents.Builder c = InferTensorContents.newBuilder();
        for (float v : out[o]) {
          c.addFp32Contents(v);
        }
        t.setContents(c);
      }
      a.addOutputs(t);
    }
    return a.build();
  }
}
