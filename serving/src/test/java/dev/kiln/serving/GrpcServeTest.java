package dev.kiln.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import com.google.protobuf.ByteString;
import dev.kiln.runtime.Init;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.serving.grpc.GRPCInferenceServiceGrpc;
import dev.kiln.serving.grpc.GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub;
import dev.kiln.serving.grpc.GrpcInference.InferTensorContents;
import dev.kiln.serving.grpc.GrpcInference.ModelInferRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelInferResponse;
import dev.kiln.serving.grpc.GrpcInference.ModelMetadataRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelMetadataResponse;
import dev.kiln.serving.grpc.GrpcInference.ModelReadyRequest;
import dev.kiln.serving.grpc.GrpcInference.ServerLiveRequest;
import dev.kiln.serving.grpc.GrpcInference.ServerMetadataRequest;
import dev.kiln.serving.grpc.GrpcInference.ServerMetadataResponse;
import dev.kiln.serving.grpc.GrpcInference.ServerReadyRequest;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The protocol's gRPC service on loopback, called through grpc-java's stub generated from the same
 * {@code grpc_inference.proto} (so the names the server binds by hand are the generator's): every
 * RPC, inference with raw and typed contents checked against the model's forward pass in process,
 * every refusal's status code and reason, bytes that are no message, overload, and a drain of both
 * protocols under load.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class GrpcServeTest {
  private static FashionLeNetModel model;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void makeModel() {
    model = FashionLeNetModel.create(Init.xavier(), 13);
  }

  @AfterAll
  static void freeModel() {
    model.close();
  }

  private static InferenceServer start(int replicas, int maxBatch, int maxQueue)
      throws IOException {
    return InferenceServer.builder()
        .model("lenet", model.predictor())
        .replicas(replicas)
        .batching(maxBatch, 2)
        .limits(maxQueue, 1 << 20)
        .grpcPort(0)
        .build()
        .start();
  }

  private static ManagedChannel channel(InferenceServer server) {
    return ManagedChannelBuilder.forAddress("127.0.0.1", server.grpcPort()).usePlaintext().build();
  }

  private static GRPCInferenceServiceBlockingStub stub(ManagedChannel channel) {
    return GRPCInferenceServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  private static float[] images(Random rng, int n) {
    float[] x = new float[n * 784];
    for (int i = 0; i < x.length; i++) {
      x[i] = rng.nextFloat();
    }
    return x;
  }

  private static float[] forward(float[] x, int n) {
    synchronized (model) {
      try (NDManager nd = NDManager.newBaseManager()) {
        return model.forward(nd.create(x, new Shape(n, 1, 28, 28))).toFloatArray();
      }
    }
  }

  private static ByteString bytes(float[] x) {
    ByteBuffer b = ByteBuffer.allocate(x.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(x);
    return ByteString.copyFrom(b);
  }

  private static float[] floats(ByteString raw) {
    float[] f = new float[raw.size() / 4];
    raw.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(f);
    return f;
  }

  /** An infer request for {@code n} images, raw or in typed contents. */
  private static ModelInferRequest request(float[] x, int n, boolean raw) {
    ModelInferRequest.InferInputTensor.Builder t =
        ModelInferRequest.InferInputTensor.newBuilder()
            .setName("image")
            .setDatatype("FP32")
            .addShape(n)
            .addShape(1)
            .addShape(28)
            .addShape(28);
    ModelInferRequest.Builder q = ModelInferRequest.newBuilder().setModelName("lenet");
    if (raw) {
      q.addRawInputContents(bytes(x));
    } else {
      InferTensorContents.Builder c = InferTensorContents.newBuilder();
      for (float v : x) {
        c.addFp32Contents(v);
      }
      t.setContents(c);
    }
    return q.addInputs(t).build();
  }

  private static void checkAnswer(ModelInferResponse a, float[] x, int n, boolean raw) {
    assertEquals("lenet", a.getModelName());
    assertEquals("1", a.getModelVersion());
    assertEquals(1, a.getOutputsCount());
    ModelInferResponse.InferOutputTensor out = a.getOutputs(0);
    assertEquals("probs", out.getName());
    assertEquals("FP32", out.getDatatype());
    assertEquals(List.of((long) n, 10L), out.getShapeList());
    float[] got;
    if (raw) {
      assertEquals(1, a.getRawOutputContentsCount());
      assertEquals(0, out.getContents().getFp32ContentsCount());
      got = floats(a.getRawOutputContents(0));
    } else {
      assertEquals(0, a.getRawOutputContentsCount());
      got = new float[out.getContents().getFp32ContentsCount()];
      for (int i = 0; i < got.length; i++) {
        got[i] = out.getContents().getFp32Contents(i);
      }
    }
    float[] expected = forward(x, n);
    assertEquals(expected.length, got.length);
    for (int i = 0; i < expected.length; i++) {
      assertTrue(
          Math.abs(got[i] - expected[i]) <= 1e-5 * Math.abs(expected[i]) + 1e-6,
          "output " + i + ": in-process " + expected[i] + ", served " + got[i]);
    }
  }

  private static HttpResponse<String> http(URI base, String path, String body) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30));
    if (body != null) {
      r.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    }
    return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String httpBody(float[] x, int n) {
    StringBuilder b = new StringBuilder("{\"inputs\":[{\"name\":\"image\",\"shape\":[");
    b.append(n).append(",1,28,28],\"datatype\":\"FP32\",\"data\":[");
    for (int i = 0; i < x.length; i++) {
      b.append(i == 0 ? "" : ",").append(x[i]);
    }
    return b.append("]}]}").toString();
  }

  /** The load test's gRPC client (what {@code bench inference} measures): every answer right. */
  @Test
  void theLoadTestOverGrpcGetsEveryAnswerRight() throws Exception {
    float[] images = new float[12 * 784];
    java.util.Random rng = new java.util.Random(4);
    for (int i = 0; i < images.length; i++) {
      images[i] = rng.nextFloat();
    }
    try (InferenceServer server = start(1, 8, 64);
        dev.kiln.runtime.infer.Predictor reference = model.predictor()) {
      for (int per : new int[] {1, 3}) {
        LoadTest.Result r =
            LoadTest.runGrpc(
                "127.0.0.1", server.grpcPort(), "lenet", reference, images, 40, 4, per, () -> {});
        assertEquals(40, r.requests());
        assertEquals(40 * per, r.examples());
        assertEquals(0, r.failed(), r.toString());
        assertEquals(0, r.wrong(), r.toString());
      }
      LoadTest.Result unknown =
          LoadTest.runGrpc(
              "127.0.0.1", server.grpcPort(), "nope", reference, images, 5, 1, 1, () -> {});
      assertEquals(5, unknown.failed(), unknown.toString());
    }
  }

  @Test
  void everyRpcAnswersAndInferenceEqualsTheModelInProcessOverBothProtocols() throws Exception {
    try (InferenceServer server = start(2, 8, 64)) {
      assertTrue(server.grpcPort() > 0);
      assertTrue(server.grpcPort() != server.port());
      ManagedChannel channel = channel(server);
      try {
        GRPCInferenceServiceBlockingStub s = stub(channel);
        assertTrue(s.serverLive(ServerLiveRequest.getDefaultInstance()).getLive());
        assertTrue(s.serverReady(ServerReadyRequest.getDefaultInstance()).getReady());
        assertTrue(
            s.modelReady(ModelReadyRequest.newBuilder().setName("lenet").build()).getReady());
        assertTrue(
            s.modelReady(ModelReadyRequest.newBuilder().setName("lenet").setVersion("1").build())
                .getReady());
        ServerMetadataResponse meta = s.serverMetadata(ServerMetadataRequest.getDefaultInstance());
        assertEquals("kiln", meta.getName());
        assertEquals(InferenceServer.version(), meta.getVersion());
        assertEquals(
            List.of("binary_tensor_data", "model_repository", "statistics"),
            meta.getExtensionsList());
        ModelMetadataResponse m =
            s.modelMetadata(ModelMetadataRequest.newBuilder().setName("lenet").build());
        assertEquals("lenet", m.getName());
        assertEquals(List.of("1"), m.getVersionsList());
        assertEquals("image", m.getInputs(0).getName());
        assertEquals("FP32", m.getInputs(0).getDatatype());
        assertEquals(List.of(-1L, 1L, 28L, 28L), m.getInputs(0).getShapeList());
        assertEquals("probs", m.getOutputs(0).getName());
        assertEquals(List.of(-1L, 10L), m.getOutputs(0).getShapeList());

        // Raw and typed contents, one and several images, an id echoed, an output by name; and
        // HTTP requests between them, through the same batcher.
        Random rng = new Random(5);
        URI base = URI.create(server.uri() + "/");
        for (int k = 0; k < 6; k++) {
          int n = 1 + k % 3;
          float[] x = images(rng, n);
          boolean raw = k % 2 == 0;
          ModelInferRequest q = request(x, n, raw);
          if (k == 3) {
            q =
                q.toBuilder()
                    .setId("req-3")
                    .setModelVersion("1")
                    .addOutputs(
                        ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName("probs"))
                    .build();
          }
          ModelInferResponse a = s.modelInfer(q);
          checkAnswer(a, x, n, raw);
          assertEquals(k == 3 ? "req-3" : "", a.getId());
          HttpResponse<String> h = http(base, "v2/models/lenet/infer", httpBody(x, n));
          assertEquals(200, h.statusCode(), h.body());
        }
        assertEquals(12, server.completed());
        String metrics = http(base, "metrics", null).body();
        assertTrue(
            metrics.contains(
                "kiln_requests_total{code=\"OK\",model=\"lenet\",protocol=\"grpc\",version=\"1\"} 6"),
            metrics);
        assertTrue(
            metrics.contains(
                "kiln_requests_total{code=\"200\",model=\"lenet\",protocol=\"http\",version=\"1\"} 6"),
            metrics);
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  /** One malformed request: how it is spoiled, the status it gets and a phrase of its reason. */
  private record Bad(UnaryOperator<ModelInferRequest> spoil, Status.Code code, String phrase) {}

  private static ModelInferRequest.Builder withInput(
      ModelInferRequest q, UnaryOperator<ModelInferRequest.InferInputTensor.Builder> change) {
    return q.toBuilder().setInputs(0, change.apply(q.getInputs(0).toBuilder()));
  }

  @Test
  void everyMistakeGetsItsStatusCodeAndAReasonNamingTheField() throws Exception {
    float[] x = images(new Random(9), 1);
    ModelInferRequest typed = request(x, 1, false);
    ModelInferRequest raw = request(x, 1, true);
    List<Bad> bad =
        List.of(
            new Bad(
                q -> q.toBuilder().setModelName("resnet").build(),
                Status.Code.NOT_FOUND,
                "unknown model 'resnet'; this server serves 'lenet' (version 1)"),
            new Bad(
                q -> q.toBuilder().setModelVersion("2").build(),
                Status.Code.NOT_FOUND,
                "model 'lenet' has no version '2'; it has version 1"),
            new Bad(
                q -> withInput(q, t -> t.setName("pixels")).build(),
                Status.Code.INVALID_ARGUMENT,
                "unknown input 'pixels'; the model takes 'image' FP32 [-1, 1, 28, 28]"),
            new Bad(
                q ->
                    withInput(q, t -> t.clearShape().addShape(1).addShape(28).addShape(28)).build(),
                Status.Code.INVALID_ARGUMENT,
                "has shape [1, 28, 28]; expected [-1, 1, 28, 28]"),
            new Bad(
                q -> withInput(q, t -> t.setShape(0, 2)).build(),
                Status.Code.INVALID_ARGUMENT,
                "takes 1568 values; its data holds 784"),
            new Bad(
                q -> withInput(q, t -> t.setShape(0, -3)).build(),
                Status.Code.INVALID_ARGUMENT,
                "inputs[0] ('image').shape[0] is -3, not a size"),
            new Bad(
                q -> withInput(q, t -> t.setDatatype("FP16")).build(),
                Status.Code.INVALID_ARGUMENT,
                "inputs[0] ('image') has datatype FP16; this server takes FP32"),
            new Bad(
                q -> withInput(q, t -> t.clearDatatype()).build(),
                Status.Code.INVALID_ARGUMENT,
                "inputs[0] ('image') has no datatype"),
            new Bad(
                q ->
                    withInput(
                            q,
                            t ->
                                t.setContents(
                                    t.getContents().toBuilder().setFp32Contents(3, Float.NaN)))
                        .build(),
                Status.Code.INVALID_ARGUMENT,
                "holds NaN at flat index 3; every value must be finite"),
            new Bad(
                q ->
                    withInput(
                            q,
                            t ->
                                t.setContents(InferTensorContents.newBuilder().addInt64Contents(1)))
                        .build(),
                Status.Code.INVALID_ARGUMENT,
                "is FP32; its values belong in contents.fp32_contents, got int64_contents"),
            new Bad(
                q -> q.toBuilder().clearInputs().build(),
                Status.Code.INVALID_ARGUMENT,
                "the request has no inputs; expected 'image' FP32"),
            new Bad(
                q -> q.toBuilder().addInputs(q.getInputs(0)).build(),
                Status.Code.INVALID_ARGUMENT,
                "input 'image' is given twice"),
            new Bad(
                q ->
                    q.toBuilder()
                        .addOutputs(
                            ModelInferRequest.InferRequestedOutputTensor.newBuilder()
                                .setName("logits"))
                        .build(),
                Status.Code.INVALID_ARGUMENT,
                "unknown output 'logits'; the model has 'probs'"));
    List<Bad> badRaw =
        List.of(
            new Bad(
                q -> q.toBuilder().addRawInputContents(ByteString.copyFrom(new byte[4])).build(),
                Status.Code.INVALID_ARGUMENT,
                "raw_input_contents holds 2 entries for 1 inputs"),
            new Bad(
                q ->
                    q.toBuilder()
                        .setRawInputContents(0, q.getRawInputContents(0).substring(0, 3134))
                        .build(),
                Status.Code.INVALID_ARGUMENT,
                "raw_input_contents[0] for inputs[0] ('image') has 3134 bytes, not a whole"
                    + " number of FP32 values"),
            new Bad(
                q -> withInput(q, t -> t.setContents(typed.getInputs(0).getContents())).build(),
                Status.Code.INVALID_ARGUMENT,
                "inputs[0] ('image') has contents and raw_input_contents[0]"));
    try (InferenceServer server = start(1, 8, 64)) {
      ManagedChannel channel = channel(server);
      try {
        GRPCInferenceServiceBlockingStub s = stub(channel);
        for (int pass = 0; pass < 2; pass++) {
          ModelInferRequest good = pass == 0 ? typed : raw;
          for (Bad b : pass == 0 ? bad : badRaw) {
            StatusRuntimeException e =
                assertThrows(StatusRuntimeException.class, () -> s.modelInfer(b.spoil.apply(good)));
            assertEquals(b.code, e.getStatus().getCode(), e.getStatus().toString());
            assertTrue(
                e.getStatus().getDescription().contains(b.phrase),
                "expected '" + b.phrase + "' in: " + e.getStatus().getDescription());
          }
          // A good request after the bad ones is still answered right.
          checkAnswer(s.modelInfer(good), x, 1, pass == 1);
        }
        StatusRuntimeException e =
            assertThrows(
                StatusRuntimeException.class,
                () -> s.modelMetadata(ModelMetadataRequest.newBuilder().setName("nope").build()));
        assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
        e =
            assertThrows(
                StatusRuntimeException.class,
                () ->
                    s.modelReady(
                        ModelReadyRequest.newBuilder().setName("lenet").setVersion("7").build()));
        assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());

        // Bytes that are no ModelInferRequest: a length-delimited field cut short.
        e =
            assertThrows(
                StatusRuntimeException.class,
                () -> rawCall(channel, "ModelInfer", new byte[] {0x0a, 0x7f, 'l'}));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertTrue(
            e.getStatus().getDescription().startsWith("the request is not a ModelInferRequest"),
            e.getStatus().getDescription());
        // A message over the size limit (1 MiB here).
        float[] big = images(new Random(1), 400);
        e = assertThrows(StatusRuntimeException.class, () -> s.modelInfer(request(big, 400, true)));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
        // And the server still answers.
        checkAnswer(s.modelInfer(raw), x, 1, true);
        String metrics = http(URI.create(server.uri() + "/"), "metrics", null).body();
        assertTrue(
            metrics.contains(
                "kiln_request_errors_total{model=\"lenet\",protocol=\"grpc\",reason=\"bad_request\",version=\"1\"}"),
            metrics);
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

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
            throw new UncheckedIOException(e);
          }
        }
      };

  private static byte[] rawCall(ManagedChannel channel, String method, byte[] body) {
    MethodDescriptor<byte[], byte[]> m =
        MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(
                MethodDescriptor.generateFullMethodName(
                    GRPCInferenceServiceGrpc.SERVICE_NAME, method))
            .setRequestMarshaller(BYTES)
            .setResponseMarshaller(BYTES)
            .build();
    return ClientCalls.blockingUnaryCall(
        channel, m, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), body);
  }

  @Test
  void aFullQueueAnswersResourceExhaustedAndEveryAcceptedCallIsStillRight() throws Exception {
    try (InferenceServer server = start(1, 1, 1)) {
      ManagedChannel channel = channel(server);
      int clients = 16;
      ExecutorService pool = Executors.newFixedThreadPool(clients);
      AtomicInteger ok = new AtomicInteger();
      AtomicInteger busy = new AtomicInteger();
      try {
        List<Future<?>> runs = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
          int seed = 300 + c;
          runs.add(
              pool.submit(
                  () -> {
                    Random rng = new Random(seed);
                    for (int i = 0; i < 4; i++) {
                      float[] x = images(rng, 16);
                      try {
                        checkAnswer(stub(channel).modelInfer(request(x, 16, true)), x, 16, true);
                        ok.incrementAndGet();
                      } catch (StatusRuntimeException e) {
                        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
                        assertTrue(e.getStatus().getDescription().contains("overloaded"));
                        busy.incrementAndGet();
                      }
                    }
                    return null;
                  }));
        }
        for (Future<?> f : runs) {
          f.get();
        }
      } finally {
        pool.shutdown();
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      System.out.println("gRPC overload: " + ok + " answered, " + busy + " refused");
      assertTrue(busy.get() > 0, "16 clients against a queue of 1: some must be refused");
      assertTrue(ok.get() > 0);
      assertEquals(ok.get(), server.accepted());
    }
  }

  @Test
  void shutdownDrainsBothProtocolsAnsweringEveryAcceptedRequest() throws Exception {
    InferenceServer server = start(2, 8, 256);
    URI base = URI.create(server.uri() + "/");
    ManagedChannel channel = channel(server);
    int clients = 6;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger okGrpc = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    List<Future<?>> runs = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int seed = 400 + c;
      boolean grpc = c % 2 == 0;
      runs.add(
          pool.submit(
              () -> {
                Random rng = new Random(seed);
                for (int i = 0; i < 60; i++) {
                  float[] x = images(rng, 2);
                  if (grpc) {
                    try {
                      checkAnswer(stub(channel).modelInfer(request(x, 2, true)), x, 2, true);
                      ok.incrementAndGet();
                      okGrpc.incrementAndGet();
                    } catch (StatusRuntimeException e) {
                      assertEquals(
                          Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.getStatus() + "");
                      refused.incrementAndGet();
                    }
                  } else {
                    HttpResponse<String> r;
                    try {
                      r = http(base, "v2/models/lenet/infer", httpBody(x, 2));
                    } catch (IOException e) {
                      refused.incrementAndGet();
                      continue;
                    }
                    if (r.statusCode() == 503) {
                      refused.incrementAndGet();
                    } else {
                      assertEquals(200, r.statusCode(), r.body());
                      ok.incrementAndGet();
                    }
                  }
                }
                return null;
              }));
    }
    while (okGrpc.get() < 20 || ok.get() < 40) {
      Thread.sleep(5);
    }
    server.shutdown();
    assertFalse(server.isReady());
    for (Future<?> f : runs) {
      f.get();
    }
    pool.shutdown();
    System.out.println(
        "shutdown of both protocols under load: "
            + ok
            + " answered ("
            + okGrpc
            + " over gRPC), "
            + refused
            + " refused");
    assertEquals(server.accepted(), server.completed(), "every accepted request was answered");
    assertEquals(ok.get(), server.accepted(), "every answer reached its client");
    assertTrue(refused.get() > 0, "requests after the shutdown are refused");
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub(channel).serverLive(ServerLiveRequest.getDefaultInstance()));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
