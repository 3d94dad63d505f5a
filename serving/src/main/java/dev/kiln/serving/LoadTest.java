package dev.kiln.serving;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.serving.grpc.GrpcInference;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded load test of an Open Inference Protocol server, over HTTP or gRPC: {@code clients}
 * threads send {@code requests} infer requests in all (bodies made before the clock starts, from
 * the given examples), then every answer is checked against an in-process predictor of the same
 * model. Reports the latency percentiles and the throughput.
 */
public final class LoadTest {
  /**
   * What one run measured.
   *
   * @param requests requests sent
   * @param examples examples they held
   * @param seconds wall time from the first request to the last answer
   * @param p50Millis median latency
   * @param p99Millis 99th percentile latency
   * @param failed requests not answered with 200 (by status or I/O error)
   * @param wrong answers that differ from the in-process predictor beyond {@code 1e-4} relative
   * @param maxDifference the largest difference of any answered value from in-process
   */
  public record Result(
      int requests,
      int examples,
      double seconds,
      double p50Millis,
      double p99Millis,
      int failed,
      int wrong,
      double maxDifference) {
    /** Answered examples per second. */
    public double examplesPerSecond() {
      return examples / seconds;
    }

    /** Requests per second. */
    public double requestsPerSecond() {
      return requests / seconds;
    }
  }

  private LoadTest() {}

  /**
   * Sends {@code requests} requests of {@code perRequest} examples each to model {@code model} at
   * {@code base}, from {@code clients} threads; example {@code i} of request {@code r} is row
   * {@code (r * perRequest + i) % rows} of {@code examples} ({@code rows} rows of the model's one
   * input). Checks every answer against {@code reference}.
   */
  public static Result run(
      URI base,
      String model,
      Predictor reference,
      float[] examples,
      int requests,
      int clients,
      int perRequest) {
    return run(base, model, reference, examples, requests, clients, perRequest, false, () -> {});
  }

  /**
   * {@link #run(URI, String, Predictor, float[], int, int, int)}, with the tensors' data as JSON
   * numbers or ({@code binary}) in binary both ways (the protocol's binary tensor data extension),
   * calling {@code clock} when the clock starts (the bodies made) and when it stops (before the
   * answers are checked), e.g. to read the CPU time spent in between.
   */
  public static Result run(
      URI base,
      String model,
      Predictor reference,
      float[] examples,
      int requests,
      int clients,
      int perRequest,
      boolean binary,
      Runnable clock) {
    Port in = reference.inputs().get(0);
    float[][] inputs = requestInputs(in, examples, requests, perRequest);
    int distinct = inputs.length;
    byte[][] bodies = new byte[distinct][];
    String[] headers = new String[distinct];
    for (int r = 0; r < distinct; r++) {
      float[] x = inputs[r];
      if (binary) {
        byte[] json = binaryHeader(in, perRequest).getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(json.length + x.length * Float.BYTES);
        b.put(json).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(x);
        bodies[r] = b.array();
        headers[r] = String.valueOf(json.length);
      } else {
        bodies[r] = body(in, perRequest, x).getBytes(StandardCharsets.UTF_8);
      }
    }
    HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    URI infer = base.resolve("/v2/models/" + model + "/infer");
    long[] latency = new long[requests];
    byte[][] answers = new byte[requests][];
    String[] answerHeaders = new String[requests];
    int[] status = new int[requests];
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    clock.run();
    long t0 = System.nanoTime();
    List<Future<?>> runs = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      runs.add(
          pool.submit(
              () -> {
                for (int r; (r = next.getAndIncrement()) < requests; ) {
                  long s = System.nanoTime();
                  try {
                    HttpRequest.Builder q =
                        HttpRequest.newBuilder(infer)
                            .timeout(Duration.ofSeconds(60))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(bodies[r % distinct]));
                    if (binary) {
                      q.header("Content-Type", "application/octet-stream")
                          .header(InferenceServer.INFERENCE_HEADER, headers[r % distinct]);
                    } else {
                      q.header("Content-Type", "application/json");
                    }
                    HttpResponse<byte[]> resp =
                        http.send(q.build(), HttpResponse.BodyHandlers.ofByteArray());
                    status[r] = resp.statusCode();
                    answers[r] = resp.body();
                    answerHeaders[r] =
                        resp.headers().firstValue(InferenceServer.INFERENCE_HEADER).orElse(null);
                  } catch (java.io.IOException e) {
                    status[r] = -1;
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                  }
                  latency[r] = System.nanoTime() - s;
                }
              }));
    }
    try {
      for (Future<?> f : runs) {
        f.get();
      }
    } catch (Exception e) {
      throw new IllegalStateException("load test client failed: " + e, e);
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    clock.run();
    float[][] got = new float[requests][];
    for (int r = 0; r < requests; r++) {
      if (status[r] == 200) {
        got[r] = outputData(answers[r], answerHeaders[r]);
      }
    }
    return checked(reference, perRequest, inputs, got, latency, seconds);
  }

  /**
   * As {@link #run(URI, String, Predictor, float[], int, int, int, boolean, Runnable)}, over the
   * protocol's gRPC service at {@code host}:{@code port} ({@code ModelInfer} with the inputs in
   * {@code raw_input_contents}, as a client sends tensors it has as arrays).
   */
  public static Result runGrpc(
      String host,
      int port,
      String model,
      Predictor reference,
      float[] examples,
      int requests,
      int clients,
      int perRequest,
      Runnable clock) {
    Port in = reference.inputs().get(0);
    float[][] inputs = requestInputs(in, examples, requests, perRequest);
    int distinct = inputs.length;
    GrpcInference.ModelInferRequest[] bodies = new GrpcInference.ModelInferRequest[distinct];
    for (int r = 0; r < distinct; r++) {
      float[] x = inputs[r];
      ByteBuffer raw = ByteBuffer.allocate(x.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
      raw.asFloatBuffer().put(x);
      GrpcInference.ModelInferRequest.InferInputTensor.Builder t =
          GrpcInference.ModelInferRequest.InferInputTensor.newBuilder()
              .setName(in.name())
              .setDatatype(Protocol.FP32);
      for (int d : in.forBatch(perRequest).dims()) {
        t.addShape(d);
      }
      bodies[r] =
          GrpcInference.ModelInferRequest.newBuilder()
              .setModelName(model)
              .addInputs(t)
              .addRawInputContents(com.google.protobuf.ByteString.copyFrom(raw.array()))
              .build();
    }
    io.grpc.MethodDescriptor<GrpcInference.ModelInferRequest, GrpcInference.ModelInferResponse>
        infer =
            io.grpc.MethodDescriptor
                .<GrpcInference.ModelInferRequest, GrpcInference.ModelInferResponse>newBuilder()
                .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(
                    io.grpc.MethodDescriptor.generateFullMethodName(
                        GrpcService.SERVICE, "ModelInfer"))
                .setRequestMarshaller(
                    io.grpc.protobuf.ProtoUtils.marshaller(
                        GrpcInference.ModelInferRequest.getDefaultInstance()))
                .setResponseMarshaller(
                    io.grpc.protobuf.ProtoUtils.marshaller(
                        GrpcInference.ModelInferResponse.getDefaultInstance()))
                .build();
    io.grpc.ManagedChannel channel =
        io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder.forAddress(host, port)
            .usePlaintext()
            .maxInboundMessageSize(64 << 20)
            .build();
    long[] latency = new long[requests];
    float[][] got = new float[requests][];
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      clock.run();
      long t0 = System.nanoTime();
      List<Future<?>> runs = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        runs.add(
            pool.submit(
                () -> {
                  for (int r; (r = next.getAndIncrement()) < requests; ) {
                    long s = System.nanoTime();
                    try {
                      GrpcInference.ModelInferResponse a =
                          io.grpc.stub.ClientCalls.blockingUnaryCall(
                              channel,
                              infer,
                              io.grpc.CallOptions.DEFAULT.withDeadlineAfter(
                                  60, java.util.concurrent.TimeUnit.SECONDS),
                              bodies[r % distinct]);
                      ByteBuffer b =
                          a.getRawOutputContents(0)
                              .asReadOnlyByteBuffer()
                              .order(ByteOrder.LITTLE_ENDIAN);
                      float[] out = new float[b.remaining() / Float.BYTES];
                      b.asFloatBuffer().get(out);
                      got[r] = out;
                    } catch (io.grpc.StatusRuntimeException | IndexOutOfBoundsException e) {
                      got[r] = null;
                    }
                    latency[r] = System.nanoTime() - s;
                  }
                }));
      }
      for (Future<?> f : runs) {
        f.get();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      clock.run();
      return checked(reference, perRequest, inputs, got, latency, seconds);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("gRPC load test interrupted", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("gRPC load test client failed: " + e, e);
    } finally {
      pool.shutdownNow();
      channel.shutdownNow();
    }
  }

  /**
   * The distinct inputs of {@code requests} requests of {@code perRequest} examples each, cycling
   * over the rows of {@code examples} (rows of input {@code in}): request {@code r} sends those at
   * {@code index r % inputs.length}, and example {@code i} of input {@code k} is row {@code (k *
   * perRequest + i) % rows}.
   */
  private static float[][] requestInputs(Port in, float[] examples, int requests, int perRequest) {
    int size = in.exampleSize();
    int rows = examples.length / size;
    int distinct = Math.min(requests, Math.max(1, rows / perRequest));
    float[][] inputs = new float[distinct][];
    for (int r = 0; r < distinct; r++) {
      float[] x = new float[perRequest * size];
      for (int i = 0; i < perRequest; i++) {
        System.arraycopy(examples, ((r * perRequest + i) % rows) * size, x, i * size, size);
      }
      inputs[r] = x;
    }
    return inputs;
  }

  /**
   * The result of answers {@code got} (null: failed) to requests cycling over {@code inputs}, each
   * answer checked against {@code reference} within 1e-4 relative plus 1e-5.
   */
  private static Result checked(
      Predictor reference,
      int perRequest,
      float[][] inputs,
      float[][] got,
      long[] latency,
      double seconds) {
    int requests = got.length;
    int distinct = inputs.length;
    int failed = 0;
    int wrong = 0;
    double maxDiff = 0;
    float[][] expected = new float[distinct][];
    for (int r = 0; r < requests; r++) {
      if (got[r] == null) {
        failed++;
        continue;
      }
      int k = r % distinct;
      if (expected[k] == null) {
        expected[k] = reference.predict(perRequest, inputs[k])[0];
      }
      boolean ok = got[r].length == expected[k].length;
      for (int i = 0; ok && i < expected[k].length; i++) {
        double d = Math.abs(got[r][i] - expected[k][i]);
        maxDiff = Math.max(maxDiff, d);
        ok = d <= 1e-4 * Math.abs(expected[k][i]) + 1e-5;
      }
      wrong += ok ? 0 : 1;
    }
    long[] sorted = Arrays.copyOf(latency, requests);
    Arrays.sort(sorted);
    return new Result(
        requests,
        requests * perRequest,
        seconds,
        percentile(sorted, 0.50) / 1e6,
        percentile(sorted, 0.99) / 1e6,
        failed,
        wrong,
        maxDiff);
  }

  /**
   * The CPU the server's whole process has used, in seconds: its {@code /metrics}'s {@code
   * process_cpu_seconds_total}; NaN when the server does not report it (or cannot be reached).
   */
  public static double serverCpuSeconds(URI base) {
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(base.resolve("/metrics"))
                      .timeout(Duration.ofSeconds(10))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? metric(r.body(), "process_cpu_seconds_total") : Double.NaN;
    } catch (java.io.IOException e) {
      return Double.NaN;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Double.NaN;
    }
  }

  /**
   * This process's CPU time in nanoseconds, every thread (MXNet's included); 0 if the JVM cannot
   * say. What {@code loadtest} and the benchmarks read around an in-process run.
   */
  public static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : 0;
  }

  /** The value of the unlabelled sample {@code name} in Prometheus text, or NaN. */
  static double metric(String text, String name) {
    for (String line : text.split("\n")) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1).trim().split(" ")[0]);
      }
    }
    return Double.NaN;
  }

  /** The first output's data of an answer: JSON numbers, or binary after a JSON header. */
  static float[] outputData(byte[] answer, String headerLength) {
    int json = headerLength == null ? answer.length : Integer.parseInt(headerLength);
    JsonObject out =
        JsonParser.parseString(new String(answer, 0, json, StandardCharsets.UTF_8))
            .getAsJsonObject()
            .getAsJsonArray("outputs")
            .get(0)
            .getAsJsonObject();
    if (headerLength != null) {
      int size = out.getAsJsonObject("parameters").get("binary_data_size").getAsInt();
      float[] v = new float[size / Float.BYTES];
      ByteBuffer.wrap(answer, json, size).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
      return v;
    }
    JsonArray data = out.getAsJsonArray("data");
    float[] v = new float[data.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = data.get(i).getAsFloat();
    }
    return v;
  }

  /**
   * The JSON header of a binary infer request of {@code n} examples for input {@code in}: the data
   * follows it, and the answer's is asked for in binary too.
   */
  static String binaryHeader(Port in, int n) {
    StringBuilder b = new StringBuilder(200);
    b.append("{\"inputs\":[{\"name\":\"").append(in.name()).append("\",\"shape\":[");
    int[] dims = in.forBatch(n).dims();
    for (int d = 0; d < dims.length; d++) {
      b.append(d == 0 ? "" : ",").append(dims[d]);
    }
    b.append("],\"datatype\":\"FP32\",\"parameters\":{\"binary_data_size\":");
    b.append((long) n * in.exampleSize() * Float.BYTES);
    return b.append("}}],\"parameters\":{\"binary_data_output\":true}}").toString();
  }

  private static double percentile(long[] sorted, double q) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
  }

  /** An infer request of {@code n} examples {@code x} for input {@code in}. */
  static String body(Port in, int n, float[] x) {
    StringBuilder b = new StringBuilder(x.length * 10 + 100);
    b.append("{\"inputs\":[{\"name\":\"").append(in.name()).append("\",\"shape\":[");
    int[] dims = in.forBatch(n).dims();
    for (int d = 0; d < dims.length; d++) {
      b.append(d == 0 ? "" : ",").append(dims[d]);
    }
    b.append("],\"datatype\":\"FP32\",\"data\":[");
    for (int i = 0; i < x.length; i++) {
      b.append(i == 0 ? "" : ",").append(x[i]);
    }
    return b.append("]}]}").toString();
  }

  /**
   * In-process throughput for comparison: {@code threads} threads, each with its own copy of {@code
   * p}, run batches of {@code batch} examples for about {@code seconds}; examples per second.
   */
  public static double inProcess(
      Predictor p, float[] examples, int batch, int threads, double seconds)
      throws InterruptedException {
    return inProcess(p, examples, batch, threads, seconds, () -> {});
  }

  /**
   * {@link #inProcess(Predictor, float[], int, int, double)}, calling {@code clock} when the clock
   * starts (the copies made and warmed up) and when it stops.
   */
  public static double inProcess(
      Predictor p, float[] examples, int batch, int threads, double seconds, Runnable clock)
      throws InterruptedException {
    int size = p.inputs().get(0).exampleSize();
    float[] x = new float[batch * size];
    for (int i = 0; i < batch; i++) {
      System.arraycopy(examples, (i % (examples.length / size)) * size, x, i * size, size);
    }
    List<Predictor> copies = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      copies.add(p.copy());
    }
    try {
      for (Predictor c : copies) {
        c.predict(batch, x);
      }
      AtomicInteger done = new AtomicInteger();
      clock.run();
      long end = System.nanoTime() + (long) (seconds * 1e9);
      List<Thread> ts = new ArrayList<>();
      long t0 = System.nanoTime();
      for (Predictor c : copies) {
        Thread t =
            new Thread(
                () -> {
                  while (System.nanoTime() < end) {
                    c.predict(batch, x);
                    done.incrementAndGet();
                  }
                });
        ts.add(t);
        t.start();
      }
      for (Thread t : ts) {
        t.join();
      }
      clock.run();
      return (double) done.get() * batch / ((System.nanoTime() - t0) / 1e9);
    } finally {
      copies.forEach(Predictor::close);
    }
  }
}
