package dev.kiln.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.sample.models.FashionMlpModel;
import dev.kiln.serving.InferenceServer.ModelControl;
import dev.kiln.serving.grpc.GRPCInferenceServiceGrpc;
import dev.kiln.serving.grpc.GrpcInference.InferTensorContents;
import dev.kiln.serving.grpc.GrpcInference.ModelInferRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelInferResponse;
import dev.kiln.serving.grpc.GrpcInference.ModelStatisticsRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelStatisticsResponse;
import dev.kiln.serving.grpc.GrpcInference.RepositoryIndexRequest;
import dev.kiln.serving.grpc.GrpcInference.RepositoryIndexResponse;
import dev.kiln.serving.grpc.GrpcInference.RepositoryModelLoadRequest;
import dev.kiln.serving.grpc.GrpcInference.RepositoryModelUnloadRequest;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model repository in Triton's layout, two models of two versions each ({@code mlp}: Fashion MLPs
 * with different weights; {@code tokens}: embedding models), served from a real folder on loopback:
 * loading a new version while the old one serves under load loses no request, unloading under load
 * answers every request it accepted and then 404s, a broken version is reported and never served,
 * the control modes refuse what they must, polling finds new and removed versions, and every answer
 * equals the in-process inference of the version that answered it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RepositoryTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir static Path store;

  /** In-process references: "model/version" → predictor. */
  private static final Map<String, Predictor> REFERENCE = new HashMap<>();

  @BeforeAll
  static void writeCheckpoints() {
    for (int v = 1; v <= 2; v++) {
      try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 100 + v)) {
        Predictor p = m.predictor();
        p.save(store.resolve("mlp/" + v + "/mlp"));
        REFERENCE.put("mlp/" + v, p);
      }
      try (TokenNetModel m = TokenNetModel.create(Init.xavier(), 200 + v)) {
        Predictor p = m.predictor();
        p.save(store.resolve("tokens/" + v + "/tokens"));
        REFERENCE.put("tokens/" + v, p);
      }
    }
  }

  @AfterAll
  static void free() {
    REFERENCE.values().forEach(Predictor::close);
  }

  /** A repository folder with the given "model/version" checkpoints copied in. */
  private static Path repository(Path root, String... versions) throws IOException {
    for (String mv : versions) {
      copy(store.resolve(mv), root.resolve(mv));
    }
    return root;
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> s = Files.list(from)) {
      for (Path f : s.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static HttpResponse<String> http(URI base, String method, String path, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(60))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static float[] images(Random rng, int n) {
    float[] x = new float[n * 784];
    for (int i = 0; i < x.length; i++) {
      x[i] = rng.nextFloat();
    }
    return x;
  }

  private static String mlpBody(float[] x, int n) {
    StringBuilder b = new StringBuilder("{\"inputs\":[{\"name\":\"pixels\",\"shape\":[");
    b.append(n).append(",784],\"datatype\":\"FP32\",\"data\":[");
    for (int i = 0; i < x.length; i++) {
      b.append(i == 0 ? "" : ",").append(x[i]);
    }
    return b.append("]}]}").toString();
  }

  /**
   * Checks a 200 infer answer against the in-process inference of the version it names, and returns
   * that version.
   */
  private static String checkMlp(HttpResponse<String> r, float[] x, int n) {
    assertEquals(200, r.statusCode(), r.body());
    JsonObject o = JsonParser.parseString(r.body()).getAsJsonObject();
    assertEquals("mlp", o.get("model_name").getAsString());
    String version = o.get("model_version").getAsString();
    JsonArray data = o.getAsJsonArray("outputs").get(0).getAsJsonObject().getAsJsonArray("data");
    float[] expected = REFERENCE.get("mlp/" + version).predict(n, x)[0];
    assertEquals(expected.length, data.size());
    for (int i = 0; i < expected.length; i++) {
      float got = data.get(i).getAsFloat();
      assertTrue(
          Math.abs(got - expected[i]) <= 1e-5 * Math.abs(expected[i]) + 1e-6,
          "mlp version " + version + " output " + i + ": " + expected[i] + " vs " + got);
    }
    return version;
  }

  /** Clients sending mlp requests (to {@code path}) until {@code stop}, each answer checked. */
  private static List<Future<?>> clients(
      ExecutorService pool,
      URI base,
      String path,
      int count,
      AtomicBoolean stop,
      Map<String, AtomicInteger> byVersion,
      AtomicInteger notFound) {
    List<Future<?>> runs = new ArrayList<>();
    for (int c = 0; c < count; c++) {
      int seed = c;
      runs.add(
          pool.submit(
              () -> {
                Random rng = new Random(seed);
                for (int i = 0; i < 400 && !stop.get(); i++) {
                  int n = 1 + rng.nextInt(3);
                  float[] x = images(rng, n);
                  HttpResponse<String> r = http(base, "POST", path, mlpBody(x, n));
                  if (r.statusCode() == 404 && notFound != null) {
                    assertTrue(r.body().contains("unknown model 'mlp'"), r.body());
                    notFound.incrementAndGet();
                    continue;
                  }
                  String v = checkMlp(r, x, n);
                  byVersion.computeIfAbsent(v, k -> new AtomicInteger()).incrementAndGet();
                }
                return null;
              }));
    }
    return runs;
  }

  private static void await(List<Future<?>> runs) throws Exception {
    for (Future<?> f : runs) {
      f.get(60, TimeUnit.SECONDS);
    }
  }

  private static void waitFor(Map<String, AtomicInteger> byVersion, String version, int count)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (byVersion.getOrDefault(version, new AtomicInteger()).get() < count) {
      if (System.nanoTime() > deadline) {
        fail("no " + count + " answers of version " + version + " in 30 s: " + byVersion);
      }
      Thread.sleep(5);
    }
  }

  @Test
  void explicitLoadsAndUnloadsUnderLoadLoseNoRequestAndEveryAnswerIsItsVersions(@TempDir Path root)
      throws Exception {
    Path dir = repository(root, "mlp/1");
    InferenceServer server =
        InferenceServer.builder()
            .repository(dir, ModelControl.EXPLICIT)
            .loadAtStart("mlp")
            .replicas(2)
            .batching(8, 1)
            .grpcPort(0)
            .build()
            .start();
    URI base = URI.create(server.uri() + "/");
    ManagedChannel channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", server.grpcPort()).usePlaintext().build();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      assertEquals(List.of("mlp"), server.models());
      assertEquals(List.of("1"), server.versions("mlp"));

      // Version 2 appears on disk and is loaded while 4 clients (2 on the unversioned path, 2 on
      // version 1's) keep the server busy: no request fails, and once loaded, unversioned requests
      // go to version 2.
      AtomicBoolean stop = new AtomicBoolean();
      Map<String, AtomicInteger> latest = new java.util.concurrent.ConcurrentHashMap<>();
      Map<String, AtomicInteger> pinned = new java.util.concurrent.ConcurrentHashMap<>();
      List<Future<?>> runs = new ArrayList<>();
      runs.addAll(clients(pool, base, "v2/models/mlp/infer", 2, stop, latest, null));
      runs.addAll(clients(pool, base, "v2/models/mlp/versions/1/infer", 2, stop, pinned, null));
      waitFor(latest, "1", 10);
      copy(store.resolve("mlp/2"), dir.resolve("mlp/2"));
      HttpResponse<String> load = http(base, "POST", "v2/repository/models/mlp/load", "{}");
      assertEquals(200, load.statusCode(), load.body());
      assertEquals(List.of("1", "2"), server.versions("mlp"));
      waitFor(latest, "2", 10);
      stop.set(true);
      await(runs);
      System.out.println(
          "load under load: unversioned answers by version " + latest + ", version 1's " + pinned);
      assertEquals(null, pinned.get("2"), "requests for version 1 stay on version 1");
      JsonObject meta =
          JsonParser.parseString(http(base, "GET", "v2/models/mlp", null).body()).getAsJsonObject();
      assertEquals("[\"1\",\"2\"]", meta.get("versions").toString());

      // The second model, both versions, over gRPC (token ids), each against its own reference.
      copy(store.resolve("tokens/1"), dir.resolve("tokens/1"));
      copy(store.resolve("tokens/2"), dir.resolve("tokens/2"));
      assertEquals(200, http(base, "POST", "v2/repository/models/tokens/load", "").statusCode());
      long[] ids = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8};
      float[] idsAsFloats = new float[ids.length];
      InferTensorContents.Builder c = InferTensorContents.newBuilder();
      for (int i = 0; i < ids.length; i++) {
        c.addInt64Contents(ids[i]);
        idsAsFloats[i] = ids[i];
      }
      for (String v : List.of("1", "2", "")) {
        ModelInferResponse a =
            GRPCInferenceServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .modelInfer(
                    ModelInferRequest.newBuilder()
                        .setModelName("tokens")
                        .setModelVersion(v)
                        .addInputs(
                            ModelInferRequest.InferInputTensor.newBuilder()
                                .setName("tokens")
                                .setDatatype("INT64")
                                .addShape(2)
                                .addShape(6)
                                .setContents(c))
                        .build());
        assertEquals(v.isEmpty() ? "2" : v, a.getModelVersion());
        float[] expected =
            REFERENCE.get("tokens/" + a.getModelVersion()).predict(2, idsAsFloats)[0];
        List<Float> got = a.getOutputs(0).getContents().getFp32ContentsList();
        assertEquals(expected.length, got.size());
        for (int i = 0; i < expected.length; i++) {
          assertEquals(expected[i], got.get(i), 1e-5f * Math.abs(expected[i]) + 1e-6f);
        }
      }
      JsonArray index =
          JsonParser.parseString(http(base, "POST", "v2/repository/index", "{}").body())
              .getAsJsonArray();
      assertEquals(4, index.size(), index.toString());
      for (JsonElement e : index) {
        assertEquals("READY", e.getAsJsonObject().get("state").getAsString(), index.toString());
      }

      // A broken version: reported by the load and the index, never served; the rest serve on.
      Files.createDirectories(dir.resolve("broken/1"));
      Files.writeString(dir.resolve("broken/1/broken-symbol.json"), "{\"nodes\": [");
      Files.write(dir.resolve("broken/1/broken-0000.params"), new byte[] {1, 2, 3});
      HttpResponse<String> bad = http(base, "POST", "v2/repository/models/broken/load", "");
      assertEquals(400, bad.statusCode(), bad.body());
      assertTrue(bad.body().contains("model 'broken' failed to load: version 1:"), bad.body());
      assertEquals(404, http(base, "GET", "v2/models/broken", null).statusCode());
      String indexText = http(base, "POST", "v2/repository/index", "").body();
      assertTrue(
          indexText.contains("\"name\":\"broken\",\"version\":\"1\",\"state\":\"UNAVAILABLE\""),
          indexText);
      HttpResponse<String> none = http(base, "POST", "v2/repository/models/nothing/load", "");
      assertEquals(400, none.statusCode());
      assertTrue(none.body().contains("has no model 'nothing'"), none.body());

      // Statistics, Triton's shape, and metrics by version.
      JsonObject stats =
          JsonParser.parseString(http(base, "GET", "v2/models/mlp/versions/2/stats", null).body())
              .getAsJsonObject()
              .getAsJsonArray("model_stats")
              .get(0)
              .getAsJsonObject();
      assertEquals("mlp", stats.get("name").getAsString());
      assertEquals("2", stats.get("version").getAsString());
      long success =
          stats
              .getAsJsonObject("inference_stats")
              .getAsJsonObject("success")
              .get("count")
              .getAsLong();
      assertEquals(latest.get("2").get(), success, stats.toString());
      assertTrue(stats.get("inference_count").getAsLong() >= success, stats.toString());
      assertTrue(stats.get("execution_count").getAsLong() >= 1, stats.toString());
      assertTrue(stats.getAsJsonArray("batch_stats").size() >= 1, stats.toString());
      JsonArray all =
          JsonParser.parseString(http(base, "GET", "v2/models/stats", null).body())
              .getAsJsonObject()
              .getAsJsonArray("model_stats");
      assertEquals(4, all.size());
      assertEquals(
          2,
          JsonParser.parseString(http(base, "GET", "v2/models/tokens/stats", null).body())
              .getAsJsonObject()
              .getAsJsonArray("model_stats")
              .size());
      // The same statistics and index over gRPC.
      ModelStatisticsResponse grpcStats =
          GRPCInferenceServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(30, TimeUnit.SECONDS)
              .modelStatistics(
                  ModelStatisticsRequest.newBuilder().setName("mlp").setVersion("2").build());
      assertEquals(1, grpcStats.getModelStatsCount());
      assertEquals(success, grpcStats.getModelStats(0).getInferenceStats().getSuccess().getCount());
      assertEquals(
          stats.get("execution_count").getAsLong(), grpcStats.getModelStats(0).getExecutionCount());
      RepositoryIndexResponse grpcIndex =
          GRPCInferenceServiceGrpc.newBlockingStub(channel)
              .withDeadlineAfter(30, TimeUnit.SECONDS)
              .repositoryIndex(RepositoryIndexRequest.newBuilder().setReady(true).build());
      assertEquals(4, grpcIndex.getModelsCount(), grpcIndex.toString());
      io.grpc.StatusRuntimeException noModel =
          org.junit.jupiter.api.Assertions.assertThrows(
              io.grpc.StatusRuntimeException.class,
              () ->
                  GRPCInferenceServiceGrpc.newBlockingStub(channel)
                      .withDeadlineAfter(30, TimeUnit.SECONDS)
                      .repositoryModelLoad(
                          RepositoryModelLoadRequest.newBuilder().setModelName("nothing").build()));
      assertEquals(io.grpc.Status.Code.INVALID_ARGUMENT, noModel.getStatus().getCode());
      assertTrue(noModel.getStatus().getDescription().contains("has no model 'nothing'"));
      String metrics = http(base, "GET", "metrics", null).body();
      assertTrue(
          metrics.contains(
              "kiln_requests_total{code=\"200\",model=\"mlp\",protocol=\"http\",version=\"2\"} "
                  + latest.get("2").get()),
          metrics);
      assertTrue(
          metrics.contains("kiln_batch_size_count{model=\"tokens\",version=\"1\"}"), metrics);

      // Unload under load: every request either answered right (accepted before) or 404.
      stop.set(false);
      Map<String, AtomicInteger> during = new java.util.concurrent.ConcurrentHashMap<>();
      AtomicInteger notFound = new AtomicInteger();
      runs = clients(pool, base, "v2/models/mlp/infer", 4, stop, during, notFound);
      waitFor(during, "2", 10);
      HttpResponse<String> unload = http(base, "POST", "v2/repository/models/mlp/unload", "");
      assertEquals(200, unload.statusCode(), unload.body());
      while (notFound.get() < 4) {
        Thread.sleep(5);
      }
      stop.set(true);
      await(runs);
      System.out.println("unload under load: " + during + " answered, " + notFound + " got 404");
      assertEquals(server.accepted(), server.completed(), "every accepted request was answered");
      assertEquals(List.of("tokens"), server.models());
      HttpResponse<String> gone =
          http(base, "POST", "v2/models/mlp/infer", mlpBody(images(new Random(1), 1), 1));
      assertEquals(404, gone.statusCode());
      assertTrue(gone.body().contains("this server serves 'tokens' (versions 1, 2)"), gone.body());
      // Unload and load again over gRPC.
      GRPCInferenceServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(30, TimeUnit.SECONDS)
          .repositoryModelUnload(
              RepositoryModelUnloadRequest.newBuilder().setModelName("tokens").build());
      assertEquals(List.of(), server.models());
      GRPCInferenceServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(30, TimeUnit.SECONDS)
          .repositoryModelLoad(RepositoryModelLoadRequest.newBuilder().setModelName("mlp").build());
      assertEquals(List.of("1", "2"), server.versions("mlp"));
      assertEquals(200, http(base, "POST", "v2/repository/models/mlp/unload", "").statusCode());
      HttpResponse<String> again = http(base, "POST", "v2/repository/models/mlp/unload", "");
      assertEquals(400, again.statusCode());
      assertTrue(again.body().contains("model 'mlp' is not loaded"), again.body());
    } finally {
      pool.shutdownNow();
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.shutdown();
    }
  }

  @Test
  void pollFindsNewAndRemovedVersionsAndNoneRefusesTheApi(@TempDir Path root) throws Exception {
    Path dir = repository(root, "tokens/1");
    try (InferenceServer server =
        InferenceServer.builder()
            .repository(dir, ModelControl.POLL)
            .pollSeconds(1)
            .batching(4, 1)
            .build()
            .start()) {
      URI base = URI.create(server.uri() + "/");
      assertEquals(List.of("1"), server.versions("tokens"));
      HttpResponse<String> refused = http(base, "POST", "v2/repository/models/tokens/load", "");
      assertEquals(400, refused.statusCode());
      assertTrue(
          refused
              .body()
              .contains("only under --model-control explicit; this server runs under poll"),
          refused.body());
      copy(store.resolve("tokens/2"), dir.resolve("tokens/2"));
      waitUntil(() -> server.versions("tokens").equals(List.of("1", "2")), "version 2 loaded");
      delete(dir.resolve("tokens/1"));
      waitUntil(() -> server.versions("tokens").equals(List.of("2")), "version 1 unloaded");
      HttpResponse<String> r =
          http(
              base,
              "POST",
              "v2/models/tokens/versions/1/infer",
              "{\"inputs\":[{\"name\":\"tokens\",\"shape\":[1,6],\"datatype\":\"INT64\","
                  + "\"data\":[1,2,3,4,5,6]}]}");
      assertEquals(404, r.statusCode());
      assertTrue(
          r.body().contains("model 'tokens' has no version '1'; it has version 2"), r.body());
    }
    // NONE: every model at start, no loads or unloads.
    Path dir2 = repository(root.resolve("none"), "mlp/1", "mlp/2");
    try (InferenceServer server =
        InferenceServer.builder()
            .repository(dir2, ModelControl.NONE)
            .checkpoints(InferenceOptions.unfused(), List.of())
            .grpcPort(0)
            .build()
            .start()) {
      assertEquals(List.of("1", "2"), server.versions("mlp"));
      ManagedChannel channel =
          ManagedChannelBuilder.forAddress("127.0.0.1", server.grpcPort()).usePlaintext().build();
      try {
        io.grpc.StatusRuntimeException e =
            org.junit.jupiter.api.Assertions.assertThrows(
                io.grpc.StatusRuntimeException.class,
                () ->
                    GRPCInferenceServiceGrpc.newBlockingStub(channel)
                        .withDeadlineAfter(30, TimeUnit.SECONDS)
                        .repositoryModelUnload(
                            RepositoryModelUnloadRequest.newBuilder().setModelName("mlp").build()));
        assertEquals(io.grpc.Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
        assertTrue(e.getStatus().getDescription().contains("this server runs under none"));
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      HttpResponse<String> r =
          http(URI.create(server.uri() + "/"), "POST", "v2/repository/models/mlp/unload", "");
      assertEquals(400, r.statusCode());
      assertTrue(r.body().contains("this server runs under none"), r.body());
      float[] x = images(new Random(4), 2);
      HttpResponse<String> a =
          http(
              URI.create(server.uri() + "/"),
              "POST",
              "v2/models/mlp/versions/1/infer",
              mlpBody(x, 2));
      assertEquals("1", checkMlp(a, x, 2));
    }
  }

  private static void waitUntil(java.util.function.BooleanSupplier done, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail(what + ": not within 20 s");
      }
      Thread.sleep(50);
    }
  }
}
