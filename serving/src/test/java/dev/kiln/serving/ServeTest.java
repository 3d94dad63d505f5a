package dev.kiln.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.sample.models.FashionLeNetModel;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Open Inference Protocol server on loopback, with real clients: every answer checked against
 * the model's forward pass in process, malformed requests between good ones, clients that die
 * mid-request (closed sockets and killed processes), overload, shutdown under load, and a bounded
 * load test. Each test sends a fixed number of requests.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ServeTest {
  private static FashionLeNetModel model;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void makeModel() {
    model = FashionLeNetModel.create(Init.xavier(), 11);
  }

  @AfterAll
  static void freeModel() {
    model.close();
  }

  private static InferenceServer start(int replicas, int maxBatch, int maxQueue)
      throws IOException {
    InferenceServer.Config c =
        new InferenceServer.Config(
            "127.0.0.1", 0, replicas, maxBatch, 2, maxQueue, 1 << 20, 20_000);
    return InferenceServer.start("lenet", model.predictor(), c);
  }

  static float[] images(Random rng, int n) {
    float[] x = new float[n * 784];
    for (int i = 0; i < x.length; i++) {
      x[i] = rng.nextFloat();
    }
    return x;
  }

  static String inferBody(String name, int n, float[] x, String datatype) {
    StringBuilder b = new StringBuilder(x.length * 12);
    b.append("{\"id\":\"r").append(n).append("\",\"inputs\":[{\"name\":\"").append(name);
    b.append("\",\"shape\":[").append(n).append(",1,28,28],\"datatype\":\"").append(datatype);
    b.append("\",\"data\":[");
    for (int i = 0; i < x.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(x[i]);
    }
    return b.append("]}]}").toString();
  }

  static HttpResponse<String> post(URI base, String path, String body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> get(URI base, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The model's own inference-mode forward pass on {@code n} images {@code x}, in process. */
  static float[] forward(float[] x, int n) {
    synchronized (model) {
      try (NDManager nd = NDManager.newBaseManager()) {
        return model.forward(nd.create(x, new Shape(n, 1, 28, 28))).toFloatArray();
      }
    }
  }

  /** Checks a 200 answer against the model's forward pass in process. */
  static void checkAnswer(HttpResponse<String> r, float[] x, int n) {
    assertEquals(200, r.statusCode(), r.body());
    JsonObject o = JsonParser.parseString(r.body()).getAsJsonObject();
    assertEquals("lenet", o.get("model_name").getAsString());
    JsonObject out = o.getAsJsonArray("outputs").get(0).getAsJsonObject();
    assertEquals("probs", out.get("name").getAsString());
    assertEquals("FP32", out.get("datatype").getAsString());
    assertEquals("[" + n + ",10]", out.get("shape").toString());
    JsonArray data = out.getAsJsonArray("data");
    float[] expected = forward(x, n);
    assertEquals(expected.length, data.size());
    for (int i = 0; i < expected.length; i++) {
      float got = data.get(i).getAsFloat();
      assertTrue(
          Math.abs(got - expected[i]) <= 1e-5 * Math.abs(expected[i]) + 1e-6,
          "output " + i + ": in-process " + expected[i] + ", served " + got);
    }
  }

  /** One malformed request of kind {@code k}: the status and a phrase its error must hold. */
  record Bad(String path, String body, int status, String phrase) {}

  static Bad bad(int k, Random rng) {
    float[] one = images(rng, 1);
    return switch (k % 9) {
      case 0 -> new Bad("v2/models/lenet/infer", "{\"inputs\": [", 400, "not JSON");
      case 1 ->
          new Bad(
              "v2/models/lenet/infer",
              inferBody("pixels", 1, one, "FP32"),
              400,
              "unknown input 'pixels'; the model takes 'image' FP32 [-1, 1, 28, 28]");
      case 2 ->
          new Bad(
              "v2/models/lenet/infer",
              inferBody("image", 1, one, "FP32").replace("[1,1,28,28]", "[1,28,28]"),
              400,
              "has shape [1, 28, 28]; expected [-1, 1, 28, 28]");
      case 3 ->
          new Bad(
              "v2/models/lenet/infer",
              inferBody("image", 1, one, "INT64"),
              400,
              "datatype INT64; expected FP32");
      case 4 ->
          new Bad(
              "v2/models/lenet/infer",
              inferBody("image", 1, one, "FP32")
                  .replaceFirst("\"data\":\\[[^,]*,", "\"data\":[0.5,NaN,")
                  .replaceFirst(",[^,\\]]*]}]}$", "]}]}"),
              400,
              "NaN at flat index 1");
      case 5 ->
          new Bad(
              "v2/models/lenet/infer",
              "x".repeat((1 << 20) + 10),
              400,
              "this server reads at most 1048576");
      case 6 ->
          new Bad(
              "v2/models/resnet/infer",
              inferBody("image", 1, one, "FP32"),
              404,
              "unknown model 'resnet'; this server serves 'lenet'");
      case 7 ->
          new Bad(
              "v2/models/lenet/infer",
              inferBody("image", 1, one, "FP32").replace("[1,1,28,28]", "[2,1,28,28]"),
              400,
              "takes 1568 values; its data holds 784");
      default -> new Bad("v2/models/lenet/infer", "[1, 2, 3]", 400, "must be a JSON object");
    };
  }

  @Test
  void concurrentClientsGetTheInProcessAnswersAndMalformedRequestsBetweenThemGetReasons()
      throws Exception {
    try (InferenceServer server = start(2, 16, 256)) {
      URI base = URI.create(server.uri() + "/");
      assertEquals(200, get(base, "v2/health/live").statusCode());
      assertEquals(200, get(base, "v2/health/ready").statusCode());
      JsonObject meta =
          JsonParser.parseString(get(base, "v2/models/lenet").body()).getAsJsonObject();
      assertEquals(
          "[{\"name\":\"image\",\"datatype\":\"FP32\",\"shape\":[-1,1,28,28]}]",
          meta.get("inputs").toString());
      assertEquals(
          "[{\"name\":\"probs\",\"datatype\":\"FP32\",\"shape\":[-1,10]}]",
          meta.get("outputs").toString());
      assertEquals(404, get(base, "v2/models/other").statusCode());

      int clients = 8;
      int perClient = 24;
      AtomicInteger good = new AtomicInteger();
      AtomicInteger refused = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(clients);
      List<Future<?>> runs = new ArrayList<>();
      long t0 = System.nanoTime();
      for (int c = 0; c < clients; c++) {
        int seed = c;
        runs.add(
            pool.submit(
                () -> {
                  Random rng = new Random(seed);
                  for (int i = 0; i < perClient; i++) {
                    if (i % 4 == 3) {
                      Bad b = bad(seed * perClient + i, rng);
                      HttpResponse<String> r = post(base, b.path(), b.body());
                      assertEquals(b.status(), r.statusCode(), r.body());
                      String error =
                          JsonParser.parseString(r.body())
                              .getAsJsonObject()
                              .get("error")
                              .getAsString();
                      assertTrue(error.contains(b.phrase()), error);
                      refused.incrementAndGet();
                    } else {
                      int n = 1 + rng.nextInt(3);
                      float[] x = images(rng, n);
                      checkAnswer(
                          post(base, "v2/models/lenet/infer", inferBody("image", n, x, "FP32")),
                          x,
                          n);
                      good.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : runs) {
        f.get();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      pool.shutdown();
      System.out.printf(
          Locale.ROOT,
          "serve: %d good and %d malformed requests from %d clients in %.2f s%n",
          good.get(),
          refused.get(),
          clients,
          seconds);
      assertEquals(clients * perClient * 3 / 4, good.get());
      String metrics = get(base, "metrics").body();
      assertTrue(
          metrics.contains(
              "kiln_requests_total{code=\"200\",model=\"lenet\",protocol=\"http\",version=\"1\"} "
                  + good.get()),
          metrics);
      assertTrue(metrics.contains("kiln_batch_size_bucket"), metrics);
      assertTrue(metrics.contains("kiln_request_duration_seconds_bucket"), metrics);
      assertTrue(
          metrics.contains(
              "kiln_request_errors_total{model=\"lenet\",protocol=\"http\",reason=\"bad_request\",version=\"1\"}"),
          metrics);
      // The process's CPU, which loadtest reads around its run: this JVM's, so at least what this
      // thread alone has used by now.
      double cpu = LoadTest.serverCpuSeconds(base);
      double mine =
          java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e9;
      assertTrue(
          cpu >= mine && cpu < 1e6, "process_cpu_seconds_total " + cpu + ", this thread " + mine);
      assertEquals(server.accepted(), server.completed());
    }
  }

  @Test
  void clientsThatDieMidRequestLeaveTheServerHealthy() throws Exception {
    try (InferenceServer server = start(1, 8, 64)) {
      URI base = URI.create(server.uri() + "/");
      Random rng = new Random(5);
      float[] x = images(rng, 2);
      String body = inferBody("image", 2, x, "FP32");
      for (int round = 0; round < 3; round++) {
        // Half a body, then gone.
        try (Socket s = new Socket("127.0.0.1", server.port())) {
          OutputStream out = s.getOutputStream();
          out.write(
              ("POST /v2/models/lenet/infer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                      + "\r\nContent-Length: "
                      + body.length()
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
          out.write(body.substring(0, body.length() / 2).getBytes(StandardCharsets.US_ASCII));
          out.flush();
        }
        // A whole request, gone before the answer.
        try (Socket s = new Socket("127.0.0.1", server.port())) {
          OutputStream out = s.getOutputStream();
          out.write(
              ("POST /v2/models/lenet/infer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                      + "\r\nContent-Length: "
                      + body.length()
                      + "\r\n\r\n"
                      + body)
                  .getBytes(StandardCharsets.US_ASCII));
          out.flush();
          s.setSoLinger(true, 0);
        }
        checkAnswer(post(base, "v2/models/lenet/infer", body), x, 2);
      }
      // A raw request read to the end: plain HTTP/1.1 from a socket gets the same answer.
      try (Socket s = new Socket("127.0.0.1", server.port())) {
        s.getOutputStream()
            .write(
                ("GET /v2/health/ready HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        InputStream in = s.getInputStream();
        String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
      }
      assertEquals(200, get(base, "v2/health/ready").statusCode());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (server.completed() < server.accepted() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(server.accepted(), server.completed());
    }
  }

  @Test
  void aFullQueueAnswers503AndEveryAcceptedRequestIsStillRight() throws Exception {
    try (InferenceServer server = start(1, 1, 1)) {
      URI base = URI.create(server.uri() + "/");
      int clients = 16;
      ExecutorService pool = Executors.newFixedThreadPool(clients);
      AtomicInteger ok = new AtomicInteger();
      AtomicInteger busy = new AtomicInteger();
      List<Future<?>> runs = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int seed = 100 + c;
        runs.add(
            pool.submit(
                () -> {
                  Random rng = new Random(seed);
                  for (int i = 0; i < 4; i++) {
                    float[] x = images(rng, 16);
                    HttpResponse<String> r =
                        post(base, "v2/models/lenet/infer", inferBody("image", 16, x, "FP32"));
                    if (r.statusCode() == 503) {
                      assertTrue(r.body().contains("overloaded"), r.body());
                      assertEquals("1", r.headers().firstValue("Retry-After").orElse(""));
                      busy.incrementAndGet();
                    } else {
                      checkAnswer(r, x, 16);
                      ok.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : runs) {
        f.get();
      }
      pool.shutdown();
      System.out.println("overload: " + ok + " answered, " + busy + " refused with 503");
      assertTrue(busy.get() > 0, "16 clients against a queue of 1: some must be refused");
      assertTrue(ok.get() > 0);
      assertEquals(ok.get(), server.accepted());
    }
  }

  @Test
  void shutdownUnderLoadAnswersEveryRequestItAcceptedAndRefusesTheRest() throws Exception {
    InferenceServer server = start(2, 8, 256);
    URI base = URI.create(server.uri() + "/");
    int clients = 6;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    List<Future<?>> runs = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int seed = 200 + c;
      runs.add(
          pool.submit(
              () -> {
                Random rng = new Random(seed);
                for (int i = 0; i < 60; i++) {
                  float[] x = images(rng, 2);
                  HttpResponse<String> r;
                  try {
                    r = post(base, "v2/models/lenet/infer", inferBody("image", 2, x, "FP32"));
                  } catch (IOException e) {
                    // The connector is closed: refused, not lost.
                    refused.incrementAndGet();
                    continue;
                  }
                  if (r.statusCode() == 503) {
                    refused.incrementAndGet();
                  } else {
                    checkAnswer(r, x, 2);
                    ok.incrementAndGet();
                  }
                }
                return null;
              }));
    }
    while (ok.get() < 40) {
      Thread.sleep(5);
    }
    server.shutdown();
    for (Future<?> f : runs) {
      f.get();
    }
    pool.shutdown();
    System.out.println("shutdown under load: " + ok + " answered, " + refused + " refused");
    assertEquals(server.accepted(), server.completed(), "every accepted request was answered");
    assertEquals(ok.get(), server.accepted(), "every answer reached its client");
    assertTrue(refused.get() > 0, "requests after the shutdown are refused");
    try {
      get(base, "v2/health/live");
      fail("the server still answers after shutdown");
    } catch (IOException expected) {
      // closed
    }
  }

  @Test
  void aBoundedLoadTestReportsLatencyAndThroughputAndEveryAnswerIsRight() throws Exception {
    // The load test of kiln loadtest, bounded: 400 requests of one image and 100 of four
    // from 8 clients; its reference is the unfused predictor, the graph the model's forward runs.
    try (InferenceServer server = start(1, 16, 256);
        Predictor unfused = model.predictor(InferenceOptions.unfused())) {
      float[] examples = images(new Random(17), 64);
      for (int per : new int[] {1, 4}) {
        LoadTest.Result r =
            LoadTest.run(server.uri(), "lenet", unfused, examples, 400 / per, 8, per);
        System.out.printf(
            Locale.ROOT,
            "load test: %d requests of %d from 8 clients: p50 %.1f ms, p99 %.1f ms, %.0f"
                + " examples/s; failed %d, wrong %d, largest difference %.2g%n",
            r.requests(),
            per,
            r.p50Millis(),
            r.p99Millis(),
            r.examplesPerSecond(),
            r.failed(),
            r.wrong(),
            r.maxDifference());
        assertEquals(0, r.failed(), "requests not answered with 200");
        assertEquals(0, r.wrong(), "answers unlike the model's in process");
        assertEquals(400, r.examples());
        assertTrue(r.p50Millis() > 0 && r.p50Millis() <= r.p99Millis(), r.toString());
      }
      assertEquals(server.accepted(), server.completed());
      assertEquals(200, get(URI.create(server.uri() + "/"), "v2/health/ready").statusCode());
    }
  }

  @Test
  void clientProcessesKilledMidRequestLeaveTheServerHealthy() throws Exception {
    try (InferenceServer server = start(1, 8, 64)) {
      URI base = URI.create(server.uri() + "/");
      for (String mode : new String[] {"half", "whole", "half", "whole"}) {
        Process client =
            new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    KilledClient.class.getName(),
                    String.valueOf(server.port()),
                    mode)
                .redirectErrorStream(true)
                .start();
        try {
          BufferedReader out =
              new BufferedReader(
                  new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
          assertEquals("sent", out.readLine(), "the client process did not send");
        } finally {
          client.destroyForcibly(); // SIGKILL: the kernel closes its socket
          assertTrue(client.waitFor(10, TimeUnit.SECONDS));
        }
        Random rng = new Random(mode.length());
        float[] x = images(rng, 3);
        checkAnswer(post(base, "v2/models/lenet/infer", inferBody("image", 3, x, "FP32")), x, 3);
      }
      assertEquals(200, get(base, "v2/health/ready").statusCode());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (server.completed() < server.accepted() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(server.accepted(), server.completed());
      String metrics = get(base, "metrics").body();
      assertTrue(
          metrics.contains(
              "kiln_request_errors_total{model=\"lenet\",protocol=\"http\",reason=\"client_gone\",version=\"1\"}"),
          metrics);
    }
  }

  @Test
  void hugeBodiesAreRefusedWithAReason() throws Exception {
    try (InferenceServer server = start(1, 8, 64)) {
      URI base = URI.create(server.uri() + "/");
      byte[] huge = "[0.5,".repeat(300_000).getBytes(StandardCharsets.US_ASCII);
      // ofInputStream has no length: the body goes chunked.
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(base.resolve("v2/models/lenet/infer"))
                  .timeout(Duration.ofSeconds(30))
                  .POST(
                      HttpRequest.BodyPublishers.ofInputStream(
                          () -> new ByteArrayInputStream(huge)))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(400, r.statusCode(), r.body());
      assertTrue(
          r.body().contains("the body is more than 1048576 bytes; this server reads at most"),
          r.body());
      // Far over the limit with Expect: 100-continue (as curl sends for a large body): refused
      // before the client sends it (a raw socket: JDK 17's HttpClient waits for a 100 forever).
      try (Socket sock = new Socket("127.0.0.1", server.port())) {
        sock.setSoTimeout(20_000);
        sock.getOutputStream()
            .write(
                ("POST /v2/models/lenet/infer HTTP/1.1\r\nHost: x\r\nContent-Type:"
                        + " application/json\r\nContent-Length: 8388608\r\nExpect:"
                        + " 100-continue\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        String answer = new String(sock.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
        assertTrue(
            answer.contains("the body is 8388608 bytes; this server reads at most 1048576"),
            answer);
      }
      float[] x = images(new Random(3), 1);
      checkAnswer(post(base, "v2/models/lenet/infer", inferBody("image", 1, x, "FP32")), x, 1);
    }
  }

  /** A request of a JSON header and then {@code data} as little-endian FP32. */
  static HttpResponse<byte[]> postBinary(URI base, String json, float[] data, String header)
      throws Exception {
    byte[] head = json.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(head.length + data.length * 4);
    b.put(head).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(data);
    HttpRequest.Builder q =
        HttpRequest.newBuilder(base.resolve("v2/models/lenet/infer"))
            .timeout(Duration.ofSeconds(30))
            .header("Content-Type", "application/octet-stream")
            .POST(HttpRequest.BodyPublishers.ofByteArray(b.array()));
    if (header != null) {
      q.header("Inference-Header-Content-Length", header.isEmpty() ? "" + head.length : header);
    }
    return HTTP.send(q.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  static String binaryJson(int n, long bytes, boolean binaryOut) {
    return "{\"inputs\":[{\"name\":\"image\",\"shape\":["
        + n
        + ",1,28,28],\"datatype\":\"FP32\",\"parameters\":{\"binary_data_size\":"
        + bytes
        + "}}]"
        + (binaryOut
            ? ",\"outputs\":[{\"name\":\"probs\",\"parameters\":{\"binary_data\":true}}]"
            : "")
        + "}";
  }

  @Test
  void binaryTensorDataGetsTheInProcessAnswerAndItsMistakesGetReasons() throws Exception {
    try (InferenceServer server = start(1, 8, 64)) {
      URI base = URI.create(server.uri() + "/");
      assertTrue(get(base, "v2").body().contains("binary_tensor_data"));
      Random rng = new Random(21);
      float[] x = images(rng, 3);
      // Binary both ways: the answer is a JSON header, then 3 x 10 floats.
      HttpResponse<byte[]> r = postBinary(base, binaryJson(3, 3 * 784 * 4, true), x, "");
      assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
      String header = r.headers().firstValue("Inference-Header-Content-Length").orElseThrow();
      float[] got = LoadTest.outputData(r.body(), header);
      float[] expected = forward(x, 3);
      assertEquals(expected.length, got.length);
      for (int i = 0; i < got.length; i++) {
        assertEquals(expected[i], got[i], 1e-5 * Math.abs(expected[i]) + 1e-6, "output " + i);
      }
      assertEquals(r.body().length, Integer.parseInt(header) + 30 * 4);
      // Binary in, JSON out.
      r = postBinary(base, binaryJson(3, 3 * 784 * 4, false), x, "");
      assertTrue(r.headers().firstValue("Inference-Header-Content-Length").isEmpty());
      float[] json = LoadTest.outputData(r.body(), null);
      for (int i = 0; i < json.length; i++) {
        assertEquals(expected[i], json[i], 1e-5 * Math.abs(expected[i]) + 1e-6, "output " + i);
      }
      float[] nan = images(rng, 1);
      nan[5] = Float.NaN;
      Object[][] bad = {
        {binaryJson(1, 784 * 4, false), x, null, "no Inference-Header-Content-Length header"},
        {binaryJson(1, 784 * 4, false), images(rng, 1), "abc", "is 'abc'; expected the JSON"},
        {
          binaryJson(2, 784 * 4, false), images(rng, 1), "", "takes 1568 values; its data holds 784"
        },
        {binaryJson(1, 784 * 4, false), images(rng, 2), "", "binary_data_size add up to 3136"},
        {binaryJson(1, 2 * 784 * 4, false), images(rng, 1), "", "the body holds 3136 more bytes"},
        {binaryJson(1, 784 * 4, false), nan, "", "holds NaN at flat index 5"},
      };
      for (Object[] b : bad) {
        r = postBinary(base, (String) b[0], (float[]) b[1], (String) b[2]);
        String body = new String(r.body(), StandardCharsets.UTF_8);
        assertEquals(400, r.statusCode(), body);
        assertTrue(body.contains((String) b[3]), body);
      }
      checkAnswer(post(base, "v2/models/lenet/infer", inferBody("image", 3, x, "FP32")), x, 3);
    }
  }
}
