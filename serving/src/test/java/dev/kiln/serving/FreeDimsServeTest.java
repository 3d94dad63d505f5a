package dev.kiln.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.runtime.Init;
import dev.kiln.serving.grpc.GRPCInferenceServiceGrpc;
import dev.kiln.serving.grpc.GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub;
import dev.kiln.serving.grpc.GrpcInference.InferTensorContents;
import dev.kiln.serving.grpc.GrpcInference.ModelInferRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelInferResponse;
import dev.kiln.serving.grpc.GrpcInference.ModelMetadataRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelMetadataResponse;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A model with free dimensions ({@link FcnNet}: free H and W of at least 8) served on loopback over
 * HTTP and gRPC: metadata shows -1 for each free size; requests of two image sizes at once are each
 * answered with their own output shape and the model's own forward at that size, and only requests
 * of one size share a batch; a size the model cannot take is refused (400, INVALID_ARGUMENT) naming
 * the dimension and the rule.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FreeDimsServeTest {
  private static FcnNetModel model;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Two image sizes, {H, W}: square and not. */
  private static final int[][] SIZES = {{16, 16}, {11, 20}};

  @BeforeAll
  static void makeModel() {
    model = FcnNetModel.create(Init.xavier(), 17);
  }

  @AfterAll
  static void freeModel() {
    model.close();
  }

  private static InferenceServer start(int maxBatch, int maxDelayMs) throws IOException {
    return InferenceServer.builder()
        .model("fcn", model.predictor())
        .replicas(1)
        .batching(maxBatch, maxDelayMs)
        .limits(64, 1 << 22)
        .grpcPort(0)
        .build()
        .start();
  }

  private static float[] images(Random rng, int n, int h, int w) {
    float[] x = new float[n * 2 * h * w];
    for (int i = 0; i < x.length; i++) {
      x[i] = rng.nextFloat() * 2 - 1;
    }
    return x;
  }

  /** The model's own forward in process. */
  private static float[] forward(float[] x, int n, int h, int w) {
    synchronized (model) {
      try (NDManager nd = NDManager.newBaseManager()) {
        return model
            .forward(nd.create(x, new ai.djl.ndarray.types.Shape(n, 2, h, w)))
            .toFloatArray();
      }
    }
  }

  /** The compiler's shape of the scores: {@code [BATCH, 3, (H - 2) / 2, (W - 2) / 2]}. */
  private static List<Long> scoresShape(int n, int h, int w) {
    return List.of((long) n, 3L, (long) (h - 2) / 2, (long) (w - 2) / 2);
  }

  private static String body(float[] x, int n, int h, int w) {
    StringBuilder b = new StringBuilder(x.length * 12);
    b.append("{\"inputs\":[{\"name\":\"image\",\"shape\":[");
    b.append(n).append(",2,").append(h).append(',').append(w);
    b.append("],\"datatype\":\"FP32\",\"data\":[");
    for (int i = 0; i < x.length; i++) {
      b.append(i > 0 ? "," : "").append(x[i]);
    }
    return b.append("]}]}").toString();
  }

  private static HttpRequest post(URI base, String body) {
    return HttpRequest.newBuilder(base.resolve("v2/models/fcn/infer"))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
  }

  private static JsonObject get(URI base, String path) throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    return JsonParser.parseString(r.body()).getAsJsonObject();
  }

  private static List<Long> longs(JsonArray a) {
    List<Long> out = new ArrayList<>();
    a.forEach(e -> out.add(e.getAsLong()));
    return out;
  }

  /** Checks an HTTP answer: the output's shape for this size, and the model's own forward. */
  private static void checkAnswer(HttpResponse<String> r, float[] x, int n, int h, int w) {
    assertEquals(200, r.statusCode(), r.body());
    JsonObject out =
        JsonParser.parseString(r.body())
            .getAsJsonObject()
            .getAsJsonArray("outputs")
            .get(0)
            .getAsJsonObject();
    assertEquals("scores", out.get("name").getAsString());
    assertEquals(scoresShape(n, h, w), longs(out.getAsJsonArray("shape")));
    JsonArray data = out.getAsJsonArray("data");
    float[] got = new float[data.size()];
    for (int i = 0; i < got.length; i++) {
      got[i] = data.get(i).getAsFloat();
    }
    assertClose(forward(x, n, h, w), got, h + "x" + w);
  }

  private static void assertClose(float[] want, float[] got, String what) {
    assertEquals(want.length, got.length, what);
    for (int i = 0; i < want.length; i++) {
      assertTrue(
          Math.abs(want[i] - got[i]) <= 1e-4 * Math.max(1e-2, Math.abs(want[i])),
          what + " at " + i + ": expected " + want[i] + ", got " + got[i]);
    }
  }

  private static ModelInferRequest grpcRequest(float[] x, int n, int h, int w) {
    InferTensorContents.Builder c = InferTensorContents.newBuilder();
    for (float v : x) {
      c.addFp32Contents(v);
    }
    return ModelInferRequest.newBuilder()
        .setModelName("fcn")
        .addInputs(
            ModelInferRequest.InferInputTensor.newBuilder()
                .setName("image")
                .setDatatype("FP32")
                .addShape(n)
                .addShape(2)
                .addShape(h)
                .addShape(w)
                .setContents(c))
        .build();
  }

  private static GRPCInferenceServiceBlockingStub stub(ManagedChannel channel) {
    return GRPCInferenceServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  @Test
  void metadataShowsMinusOneForEachFreeSizeOverHttpAndGrpc() throws Exception {
    try (InferenceServer server = start(8, 2)) {
      JsonObject meta = get(URI.create(server.uri() + "/"), "v2/models/fcn");
      JsonObject in = meta.getAsJsonArray("inputs").get(0).getAsJsonObject();
      assertEquals("image", in.get("name").getAsString());
      assertEquals(List.of(-1L, 2L, -1L, -1L), longs(in.getAsJsonArray("shape")));
      JsonObject out = meta.getAsJsonArray("outputs").get(0).getAsJsonObject();
      assertEquals("scores", out.get("name").getAsString());
      assertEquals(List.of(-1L, 3L, -1L, -1L), longs(out.getAsJsonArray("shape")));
      ManagedChannel channel =
          ManagedChannelBuilder.forAddress("127.0.0.1", server.grpcPort()).usePlaintext().build();
      try {
        ModelMetadataResponse m =
            stub(channel).modelMetadata(ModelMetadataRequest.newBuilder().setName("fcn").build());
        assertEquals(List.of(-1L, 2L, -1L, -1L), m.getInputs(0).getShapeList());
        assertEquals(List.of(-1L, 3L, -1L, -1L), m.getOutputs(0).getShapeList());
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * Six requests sent at once, three of each size, within a batching delay of two seconds: the one
   * replica runs exactly two batches (one per size), and each request gets its own rows and shape.
   */
  @Test
  void requestsOfTwoSizesAtOnceAreBatchedBySizeAndAnsweredWithTheirShapes() throws Exception {
    try (InferenceServer server = start(8, 2000)) {
      URI base = URI.create(server.uri() + "/");
      Random rng = new Random(3);
      List<float[]> xs = new ArrayList<>();
      List<int[]> sizes = new ArrayList<>();
      List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
      for (int k = 0; k < 6; k++) {
        int[] hw = SIZES[k % 2];
        float[] x = images(rng, 1, hw[0], hw[1]);
        xs.add(x);
        sizes.add(hw);
        answers.add(
            HTTP.sendAsync(
                post(base, body(x, 1, hw[0], hw[1])), HttpResponse.BodyHandlers.ofString()));
      }
      for (int k = 0; k < 6; k++) {
        checkAnswer(
            answers.get(k).get(60, TimeUnit.SECONDS),
            xs.get(k),
            1,
            sizes.get(k)[0],
            sizes.get(k)[1]);
      }
      JsonObject stats =
          get(base, "v2/models/fcn/stats").getAsJsonArray("model_stats").get(0).getAsJsonObject();
      assertEquals(6, stats.get("inference_count").getAsLong(), stats.toString());
      assertEquals(2, stats.get("execution_count").getAsLong(), stats.toString());
    }
  }

  /** Four clients, HTTP and gRPC, each sending requests of both sizes and several batch sizes. */
  @Test
  void concurrentClientsAtTwoSizesGetTheModelsForwardOverHttpAndGrpc() throws Exception {
    try (InferenceServer server = start(8, 5)) {
      URI base = URI.create(server.uri() + "/");
      ManagedChannel channel =
          ManagedChannelBuilder.forAddress("127.0.0.1", server.grpcPort()).usePlaintext().build();
      ExecutorService clients = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
          int client = c;
          done.add(
              clients.submit(
                  () -> {
                    Random rng = new Random(100 + client);
                    for (int k = 0; k < 6; k++) {
                      int[] hw = SIZES[(client + k) % 2];
                      int n = 1 + (k % 3);
                      float[] x = images(rng, n, hw[0], hw[1]);
                      if (client % 2 == 0) {
                        checkAnswer(
                            HTTP.send(
                                post(base, body(x, n, hw[0], hw[1])),
                                HttpResponse.BodyHandlers.ofString()),
                            x,
                            n,
                            hw[0],
                            hw[1]);
                      } else {
                        ModelInferResponse a =
                            stub(channel).modelInfer(grpcRequest(x, n, hw[0], hw[1]));
                        ModelInferResponse.InferOutputTensor out = a.getOutputs(0);
                        assertEquals(scoresShape(n, hw[0], hw[1]), out.getShapeList());
                        float[] got = new float[out.getContents().getFp32ContentsCount()];
                        for (int i = 0; i < got.length; i++) {
                          got[i] = out.getContents().getFp32Contents(i);
                        }
                        assertClose(forward(x, n, hw[0], hw[1]), got, "gRPC " + hw[0]);
                      }
                    }
                    return null;
                  }));
        }
        for (Future<?> f : done) {
          f.get(90, TimeUnit.SECONDS);
        }
      } finally {
        clients.shutdownNow();
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void aSizeTheModelCannotTakeIsRefusedNamingTheDimensionAndTheRule() throws Exception {
    try (InferenceServer server = start(8, 2)) {
      URI base = URI.create(server.uri() + "/");
      float[] small = new float[2 * 6 * 9];
      HttpResponse<String> r =
          HTTP.send(post(base, body(small, 1, 6, 9)), HttpResponse.BodyHandlers.ofString());
      assertEquals(400, r.statusCode(), r.body());
      String rule =
          "'image' [1, 2, 6, 9]: H = 6, W = 9 breaks H >= 8, declared by @FreeDim(min = 8) int H"
              + " (at H = 6)";
      assertEquals(
          rule, JsonParser.parseString(r.body()).getAsJsonObject().get("error").getAsString());
      HttpResponse<String> channels =
          HTTP.send(
              post(
                  base,
                  body(new float[3 * 12 * 12], 1, 12, 12).replace("[1,2,12,12]", "[1,3,12,12]")),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(400, channels.statusCode(), channels.body());
      assertTrue(
          channels
              .body()
              .contains(
                  "input 'image' has shape [1, 3, 12, 12]; expected [-1, 2, H, W] (-1: any batch"
                      + " size from 1; H, W: free sizes that the model's requirements allow)"),
          channels.body());
      ManagedChannel channel =
          ManagedChannelBuilder.forAddress("127.0.0.1", server.grpcPort()).usePlaintext().build();
      try {
        StatusRuntimeException e =
            assertThrows(
                StatusRuntimeException.class,
                () -> stub(channel).modelInfer(grpcRequest(small, 1, 6, 9)));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertEquals(rule, e.getStatus().getDescription());
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      // The server answers the sizes it takes after the refusals.
      float[] x = images(new Random(4), 1, 8, 8);
      checkAnswer(
          HTTP.send(post(base, body(x, 1, 8, 8)), HttpResponse.BodyHandlers.ofString()),
          x,
          1,
          8,
          8);
    }
  }
}
