package dev.kiln.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import com.google.gson.JsonArray;
import com.google.gson.JsonParser;
import dev.kiln.runtime.Init;
import dev.kiln.sample.models.FashionMlpModel;
import dev.kiln.serving.grpc.GrpcInference.InferTensorContents;
import dev.kiln.serving.grpc.GrpcInference.ModelInferRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelInferResponse;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kiln serve} as a process: it serves a model's checkpoint (its input's shape given with
 * {@code --input}) over HTTP and gRPC ({@code --grpc-port}), and SIGTERM under load on both
 * protocols drains (every request it accepted is answered, right) and exits with 0.
 */
class ServeCommandTest {
  private static String body(int n, float[] x) {
    StringBuilder b = new StringBuilder("{\"inputs\":[{\"name\":\"pixels\",\"shape\":[");
    b.append(n).append(",784],\"datatype\":\"FP32\",\"data\":[");
    for (int i = 0; i < x.length; i++) {
      b.append(i == 0 ? "" : ",").append(x[i]);
    }
    return b.append("]}]}").toString();
  }

  /** Checks a served answer against the model's forward pass in process. */
  private static void check(FashionMlpModel m, int n, float[] x, float[] got) {
    float[] expected;
    synchronized (m) {
      try (NDManager nd = NDManager.newBaseManager()) {
        expected = m.forward(nd.create(x, new Shape(n, 784))).toFloatArray();
      }
    }
    assertEquals(expected.length, got.length);
    for (int i = 0; i < expected.length; i++) {
      assertTrue(
          Math.abs(got[i] - expected[i]) <= 1e-5 * Math.abs(expected[i]) + 1e-6,
          "output " + i + ": in process " + expected[i] + ", served " + got[i]);
    }
  }

  private static final MethodDescriptor<ModelInferRequest, ModelInferResponse> INFER =
      MethodDescriptor.<ModelInferRequest, ModelInferResponse>newBuilder()
          .setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName("inference.GRPCInferenceService/ModelInfer")
          .setRequestMarshaller(ProtoUtils.marshaller(ModelInferRequest.getDefaultInstance()))
          .setResponseMarshaller(ProtoUtils.marshaller(ModelInferResponse.getDefaultInstance()))
          .build();

  /** One ModelInfer call over gRPC with typed contents: the output's values. */
  private static float[] grpcInfer(ManagedChannel channel, int n, float[] x) {
    InferTensorContents.Builder c = InferTensorContents.newBuilder();
    for (float v : x) {
      c.addFp32Contents(v);
    }
    ModelInferRequest q =
        ModelInferRequest.newBuilder()
            .setModelName("mlp")
            .addInputs(
                ModelInferRequest.InferInputTensor.newBuilder()
                    .setName("pixels")
                    .setDatatype("FP32")
                    .addShape(n)
                    .addShape(784)
                    .setContents(c))
            .build();
    ModelInferResponse a =
        ClientCalls.blockingUnaryCall(
            channel, INFER, CallOptions.DEFAULT.withDeadlineAfter(20, TimeUnit.SECONDS), q);
    List<Float> values = a.getOutputs(0).getContents().getFp32ContentsList();
    float[] got = new float[values.size()];
    for (int i = 0; i < got.length; i++) {
      got[i] = values.get(i);
    }
    return got;
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void sigtermDrainsAndExitsWithZero(@TempDir Path dir) throws Exception {
    FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 4);
    m.save(dir.resolve("mlp"));
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-Dai.djl.offline=true",
                "-cp",
                System.getProperty("java.class.path"),
                Kiln.class.getName(),
                "serve",
                "--checkpoint",
                dir.resolve("mlp").toString(),
                "--input",
                "pixels=BATCH,784",
                "--port",
                "0",
                "--replicas",
                "2",
                "--max-batch",
                "8",
                "--max-delay-ms",
                "1",
                "--grpc-port",
                "0")
            .redirectErrorStream(true)
            .start();
    List<String> lines = new ArrayList<>();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      URI base = null;
      int grpcPort = -1;
      Pattern at =
          Pattern.compile(
              "serving mlp \\(fused, 2 replicas, batches of up to 8 or 1 ms\\) at"
                  + " (http://127\\.0\\.0\\.1:\\d+)/v2/models/mlp, gRPC at 127\\.0\\.0\\.1:(\\d+)");
      for (String line; base == null && (line = out.readLine()) != null; ) {
        lines.add(line);
        Matcher matcher = at.matcher(line);
        if (matcher.find()) {
          base = URI.create(matcher.group(1) + "/");
          grpcPort = Integer.parseInt(matcher.group(2));
        }
      }
      assertTrue(base != null, "no serving line in " + lines);
      // The OpenMP threads MXNet uses, reported before the serving line (the test JVMs' 1).
      assertTrue(
          lines.contains(
              "MXNet: 1 OpenMP thread per MXNet kernel (OMP_NUM_THREADS from the environment)"),
          lines.toString());
      ManagedChannel channel =
          ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort).usePlaintext().build();
      HttpClient http = HttpClient.newHttpClient();
      URI infer = base.resolve("v2/models/mlp/infer");
      // SIGTERM under load: 4 clients (2 over HTTP, 2 over gRPC) send requests until the server
      // stops answering; every answer is checked against the model's forward pass in process,
      // and the server's own count of the requests it accepted must equal the answers the
      // clients received.
      int clients = 4;
      AtomicInteger answered = new AtomicInteger();
      AtomicInteger answeredGrpc = new AtomicInteger();
      AtomicInteger refused = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(clients);
      List<Future<?>> runs = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int seed = c;
        runs.add(
            pool.submit(
                () -> {
                  Random rng = new Random(seed);
                  while (true) {
                    int n = 1 + rng.nextInt(4);
                    float[] x = new float[n * 784];
                    for (int i = 0; i < x.length; i++) {
                      x[i] = rng.nextFloat();
                    }
                    if (seed >= 2) {
                      float[] got;
                      try {
                        got = grpcInfer(channel, n, x);
                      } catch (StatusRuntimeException e) {
                        // Draining (UNAVAILABLE), or the process is gone (UNAVAILABLE too).
                        assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), "" + e);
                        refused.incrementAndGet();
                        return null;
                      }
                      check(m, n, x, got);
                      answered.incrementAndGet();
                      answeredGrpc.incrementAndGet();
                      continue;
                    }
                    HttpResponse<String> r;
                    try {
                      r =
                          http.send(
                              HttpRequest.newBuilder(infer)
                                  .timeout(Duration.ofSeconds(20))
                                  .POST(HttpRequest.BodyPublishers.ofString(body(n, x)))
                                  .build(),
                              HttpResponse.BodyHandlers.ofString());
                    } catch (IOException e) {
                      refused.incrementAndGet(); // the port is closed: refused, never accepted
                      return null;
                    }
                    if (r.statusCode() == 503) {
                      refused.incrementAndGet();
                      continue;
                    }
                    assertEquals(200, r.statusCode(), r.body());
                    JsonArray data =
                        JsonParser.parseString(r.body())
                            .getAsJsonObject()
                            .getAsJsonArray("outputs")
                            .get(0)
                            .getAsJsonObject()
                            .getAsJsonArray("data");
                    float[] got = new float[data.size()];
                    for (int i = 0; i < got.length; i++) {
                      got[i] = data.get(i).getAsFloat();
                    }
                    check(m, n, x, got);
                    answered.incrementAndGet();
                  }
                }));
      }
      while (answered.get() < 30 || answeredGrpc.get() < 10) {
        Thread.sleep(5);
      }
      p.toHandle().destroy(); // SIGTERM; Process.destroy would also close our end of its output
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "serve did not stop 30 s after SIGTERM");
      for (Future<?> f : runs) {
        f.get(30, TimeUnit.SECONDS);
      }
      pool.shutdown();
      channel.shutdownNow();
      for (String line; (line = out.readLine()) != null; ) {
        lines.add(line);
      }
      String log = String.join("\n", lines);
      assertEquals(0, p.exitValue(), log);
      Matcher stopped =
          Pattern.compile("stopped: (\\d+) infer requests accepted, (\\d+) answered").matcher(log);
      assertTrue(stopped.find(), log);
      assertEquals(stopped.group(1), stopped.group(2), "every accepted request answered: " + log);
      assertEquals(
          answered.get(),
          Integer.parseInt(stopped.group(1)),
          "every accepted request's answer reached its client: " + log);
      assertTrue(refused.get() >= clients, "requests after SIGTERM are refused");
      System.out.println(
          "SIGTERM under load: "
              + answered
              + " answered and checked ("
              + answeredGrpc
              + " over gRPC), "
              + refused
              + " refused");
    } finally {
      p.destroyForcibly();
      m.close();
    }
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aRepositoryUnderExplicitControlLoadsAndUnloadsAndDrainsOnSigterm(@TempDir Path dir)
      throws Exception {
    float[] x = new float[784];
    for (int i = 0; i < x.length; i++) {
      x[i] = (i % 17) / 17f;
    }
    float[][] expected = new float[2][];
    for (int v = 1; v <= 2; v++) {
      try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 10 + v);
          dev.kiln.runtime.infer.Predictor p = m.predictor()) {
        p.save(dir.resolve("repo/mlp/" + v + "/mlp"));
        expected[v - 1] = p.predict(1, x)[0];
      }
    }
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-Dai.djl.offline=true",
                "-cp",
                System.getProperty("java.class.path"),
                Kiln.class.getName(),
                "serve",
                "--repository",
                dir.resolve("repo").toString(),
                "--model-control",
                "explicit",
                "--port",
                "0")
            .redirectErrorStream(true)
            .start();
    List<String> lines = new ArrayList<>();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      URI base = null;
      Pattern at =
          Pattern.compile(
              "serving repository .*repo \\(explicit\\) \\(0 models, .* at"
                  + " (http://127\\.0\\.0\\.1:\\d+)/v2/models/");
      for (String line; base == null && (line = out.readLine()) != null; ) {
        lines.add(line);
        Matcher matcher = at.matcher(line);
        if (matcher.find()) {
          base = URI.create(matcher.group(1) + "/");
        }
      }
      assertTrue(base != null, "no serving line in " + lines);
      HttpClient http = HttpClient.newHttpClient();
      URI root = base;
      java.util.function.BiFunction<String, String, HttpResponse<String>> post =
          (path, body) -> {
            try {
              return http.send(
                  HttpRequest.newBuilder(root.resolve(path))
                      .timeout(Duration.ofSeconds(30))
                      .POST(HttpRequest.BodyPublishers.ofString(body))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
            } catch (IOException | InterruptedException e) {
              throw new AssertionError(e);
            }
          };
      assertEquals(404, post.apply("v2/models/mlp/infer", body(1, x)).statusCode());
      HttpResponse<String> load = post.apply("v2/repository/models/mlp/load", "");
      assertEquals(200, load.statusCode(), load.body());
      for (String path : List.of("v2/models/mlp/infer", "v2/models/mlp/versions/1/infer")) {
        HttpResponse<String> r = post.apply(path, body(1, x));
        assertEquals(200, r.statusCode(), r.body());
        JsonArray data =
            JsonParser.parseString(r.body())
                .getAsJsonObject()
                .getAsJsonArray("outputs")
                .get(0)
                .getAsJsonObject()
                .getAsJsonArray("data");
        float[] want = path.contains("versions/1") ? expected[0] : expected[1];
        for (int i = 0; i < want.length; i++) {
          assertEquals(want[i], data.get(i).getAsFloat(), 1e-5f * Math.abs(want[i]) + 1e-6f);
        }
      }
      assertEquals(200, post.apply("v2/repository/models/mlp/unload", "").statusCode());
      assertEquals(404, post.apply("v2/models/mlp/infer", body(1, x)).statusCode());
      p.toHandle().destroy();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "serve did not stop 30 s after SIGTERM");
      for (String line; (line = out.readLine()) != null; ) {
        lines.add(line);
      }
      assertEquals(0, p.exitValue(), String.join("\n", lines));
      assertTrue(
          String.join("\n", lines).contains("stopped: 2 infer requests accepted, 2 answered"),
          String.join("\n", lines));
    } finally {
      p.destroyForcibly();
    }
  }
}
