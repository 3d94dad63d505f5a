package dev.kiln.bench;

import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.translate.NoopTranslator;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.data.FashionMnist;
import dev.kiln.runtime.infer.FusedNode;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.QuantizeOptions;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.serving.InferenceServer;
import dev.kiln.serving.LoadTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench inference}: inference speed in one JVM, implementations interleaved round by round:
 * Kiln's fused predictor against Kiln unfused and DJL's {@code Predictor} (MXNet's CachedOp on the
 * checkpoint Kiln saved) and ONNX Runtime (on the file Kiln exported) at batch 1 and 64 on the
 * LeNet and a residual CNN; Kiln's int8 predictor against its float32 one at batch 64; the HTTP
 * server's throughput at saturation against the same predictor in process. Ratios are taken round
 * by round; medians (min–max).
 */
@Command(
    name = "inference",
    mixinStandardHelpOptions = true,
    description =
        "Inference speed: fused, unfused, DJL, ONNX Runtime, int8, and the server (one JVM).")
public final class InferenceBench implements Callable<Integer> {
  @Option(names = "--quick", description = "A smoke run: short rounds, two of them.")
  boolean quick;

  @Option(names = "--rounds", defaultValue = "5", description = "Rounds (default: 5).")
  int rounds;

  @Option(
      names = "--data",
      defaultValue = "/usr/share/datasets/fashion-mnist",
      description =
          "Fashion-MNIST, for calibration and the server's requests (random images"
              + " when it is not there).")
  Path data;

  /** One implementation: runs one batch from float[] to float[]. */
  private interface Impl extends AutoCloseable {
    void run();

    @Override
    void close();
  }

  @Override
  public Integer call() throws Exception {
    int n = quick ? 2 : rounds;
    double seconds = quick ? 0.05 : 0.4;
    float[] images = images();
    StringBuilder out = new StringBuilder();
    out.append("### Inference\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%d rounds, each implementation about %.2f s a round, in a rotating order; one JVM,"
                + " OMP_NUM_THREADS=%s; /proc/loadavg at the start: %s%n%n",
            n,
            seconds,
            System.getenv("OMP_NUM_THREADS"),
            Bench.loadavg()));
    out.append(
        "Batches per second, median (min–max) over rounds, and ratios taken round by"
            + " round:\n\n");
    out.append(
        "| model | batch | kiln fused | kiln unfused | djl | onnxruntime | int8 | fused/djl |"
            + " fused/onnxruntime | fused/unfused | int8/fused |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    Path dir = Files.createTempDirectory("kiln-inference-bench");
    List<String> fusion = new ArrayList<>();
    StringBuilder arithmetic = new StringBuilder();
    try {
      for (String name : List.of("lenet", "residual")) {
        try (KilnModel m = model(name)) {
          Path prefix = dir.resolve(name);
          m.save(prefix);
          Path onnx = dir.resolve(name + ".onnx");
          m.exportOnnx(onnx);
          try (dev.kiln.runtime.infer.Predictor fp = m.predictor()) {
            fp.padding().forEach(c -> fusion.add(name + " fp32: padded " + c));
            for (FusedNode f : fp.fusion()) {
              fusion.add(name + " fp32: " + f);
            }
          }
          for (int batch : new int[] {1, 64}) {
            Map<String, Supplier<Impl>> impls = new LinkedHashMap<>();
            float[] x = slice(images, batch);
            impls.put("fused", () -> kiln(m, InferenceOptions.DEFAULT, batch, x));
            impls.put("unfused", () -> kiln(m, InferenceOptions.unfused(), batch, x));
            impls.put("djl", () -> djl(prefix, batch, x));
            impls.put("ort", () -> onnxRuntime(onnx, batch, x));
            if (batch == 64) {
              impls.put("int8", () -> int8(m, images, batch, x, fusion, name));
              impls.put("probe", InferenceBench::probe);
            }
            Map<String, double[]> rate = measure(impls, n, seconds);
            out.append(
                String.format(
                    Locale.ROOT,
                    "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    name,
                    batch,
                    cell(rate.get("fused")),
                    cell(rate.get("unfused")),
                    cell(rate.get("djl")),
                    cell(rate.get("ort")),
                    rate.containsKey("int8") ? cell(rate.get("int8")) : "–",
                    ratio(rate.get("fused"), rate.get("djl")),
                    ratio(rate.get("fused"), rate.get("ort")),
                    ratio(rate.get("fused"), rate.get("unfused")),
                    rate.containsKey("int8") ? ratio(rate.get("int8"), rate.get("fused")) : "–"));
            if (batch == 64) {
              arithmetic.append(arithmeticRow(name, m, batch, rate));
            }
            System.err.println("inference: " + name + " batch " + batch + " done");
          }
        }
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%nArithmetic rate at batch 64, against a %d x %d fully connected layer at batch %d"
                  + " (one oneDNN inner product, a large GEMM) measured in the same rounds:"
                  + " forward FLOPs an example from the model's layer table times examples a"
                  + " second, median (min–max) over rounds; a fraction near 1 leaves no room for"
                  + " any float32 implementation on this core to run much faster:%n%n",
              PROBE_WIDTH,
              PROBE_WIDTH,
              PROBE_BATCH));
      out.append(
          "| model | MFLOPs an example | kiln fused GFLOP/s | djl GFLOP/s | probe GFLOP/s |"
              + " fused/probe | djl/probe |\n|---|---:|---:|---:|---:|---:|---:|\n");
      out.append(arithmetic);
      out.append(
          "\nWhat Kiln padded, what oneDNN's pass fused and what quantisation made int8:\n\n");
      for (String f : fusion) {
        out.append("- ").append(f).append('\n');
      }
      out.append('\n').append(server(images)).append('\n');
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    out.append(String.format(Locale.ROOT, "/proc/loadavg at the end: %s%n", Bench.loadavg()));
    System.out.print(out);
    return 0;
  }

  private float[] images() {
    try {
      return FashionMnist.load(data).test().first(2048).features();
    } catch (Exception e) {
      Random rng = new Random(1);
      float[] x = new float[2048 * 784];
      for (int i = 0; i < x.length; i++) {
        x[i] = rng.nextFloat();
      }
      return x;
    }
  }

  private static float[] slice(float[] images, int batch) {
    float[] x = new float[batch * 784];
    System.arraycopy(images, 0, x, 0, x.length);
    return x;
  }

  /** The probe's width and batch ({@link DenseProbe}). */
  private static final int PROBE_WIDTH = 2048;

  private static final int PROBE_BATCH = 256;

  /** {@link DenseProbe}'s fused predictor at batch {@link #PROBE_BATCH}. */
  private static Impl probe() {
    KilnModel m = DenseProbeModel.create(Init.xavier(), 1);
    dev.kiln.runtime.infer.Predictor p = m.predictor();
    float[] x = new float[PROBE_BATCH * PROBE_WIDTH];
    Random random = new Random(7);
    for (int i = 0; i < x.length; i++) {
      x[i] = random.nextFloat();
    }
    return predicting(p, PROBE_BATCH, x, m);
  }

  /** A row of the arithmetic-rate table: rates in batches a second, per round. */
  private static String arithmeticRow(
      String name, KilnModel m, int batch, Map<String, double[]> rate) {
    double flops = forwardFlops(m.summary());
    double probeFlops = forwardFlops(DenseProbeModel.SUMMARY);
    double[] probe = scale(rate.get("probe"), PROBE_BATCH * probeFlops / 1e9);
    double[] fused = scale(rate.get("fused"), batch * flops / 1e9);
    double[] djl = scale(rate.get("djl"), batch * flops / 1e9);
    return String.format(
        Locale.ROOT,
        "| %s | %.1f | %s | %s | %s | %s | %s |%n",
        name,
        flops / 1e6,
        cell(fused),
        cell(djl),
        cell(probe),
        ratio(fused, probe),
        ratio(djl, probe));
  }

  private static double[] scale(double[] v, double by) {
    return java.util.Arrays.stream(v).map(x -> x * by).toArray();
  }

  /**
   * Forward FLOPs an example: the total of the layer table's {@code flops/ex} column (for example
   * {@code 95.3 M}), which the processor computed from the model's shapes.
   */
  static double forwardFlops(String summary) {
    java.util.regex.Matcher t =
        java.util.regex.Pattern.compile(
                "(?m)^\\s*total\\s+\\d+\\s+(?:>= )?([0-9.]+)(?: ([KM]))?\\s")
            .matcher(summary);
    if (!t.find()) {
      throw new IllegalStateException("no total FLOPs in the layer table:\n" + summary);
    }
    double v = Double.parseDouble(t.group(1));
    String unit = t.group(2);
    return unit == null ? v : v * (unit.equals("K") ? 1e3 : 1e6);
  }

  private static KilnModel model(String name) {
    return name.equals("lenet")
        ? FashionLeNetModel.create(Init.xavier(), 1)
        : ResidualCnnModel.create(Init.xavier(), 1);
  }

  private static Impl kiln(KilnModel m, InferenceOptions o, int batch, float[] x) {
    return predicting(m.predictor(o), batch, x);
  }

  /** Kiln's predictor {@code p} on {@code x}; closing it closes {@code p}, then {@code also}. */
  private static Impl predicting(
      dev.kiln.runtime.infer.Predictor p, int batch, float[] x, AutoCloseable... also) {
    return new Impl() {
      @Override
      public void run() {
        p.predict(batch, x);
      }

      @Override
      public void close() {
        p.close();
        for (AutoCloseable a : also) {
          try {
            a.close();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }
      }
    };
  }

  private static Impl int8(
      KilnModel m, float[] images, int batch, float[] x, List<String> fusion, String name) {
    Dataset calib = new Dataset(images, new int[images.length / 784], 784, 10);
    dev.kiln.runtime.infer.Predictor p =
        m.quantized(calib, QuantizeOptions.defaults().withBatches(8));
    if (fusion.stream().noneMatch(f -> f.startsWith(name + " int8"))) {
      for (FusedNode f : p.fusion()) {
        fusion.add(name + " int8: " + f);
      }
    }
    return predicting(p, batch, x);
  }

  /**
   * ONNX Runtime 1.20 (CPU) on the file {@code KilnModel.exportOnnx} wrote, with as many intra-op
   * threads as MXNet's OpenMP has ({@code OMP_NUM_THREADS}, 1 if unset), all graph optimisations.
   */
  private static Impl onnxRuntime(Path file, int batch, float[] x) {
    ai.onnxruntime.OrtEnvironment env = ai.onnxruntime.OrtEnvironment.getEnvironment();
    String omp = System.getenv("OMP_NUM_THREADS");
    try {
      ai.onnxruntime.OrtSession.SessionOptions options =
          new ai.onnxruntime.OrtSession.SessionOptions();
      options.setIntraOpNumThreads(omp == null ? 1 : Integer.parseInt(omp.trim()));
      options.setInterOpNumThreads(1);
      options.setOptimizationLevel(ai.onnxruntime.OrtSession.SessionOptions.OptLevel.ALL_OPT);
      ai.onnxruntime.OrtSession session = env.createSession(file.toString(), options);
      String input = session.getInputNames().iterator().next();
      long[] shape = {batch, 1, 28, 28};
      return new Impl() {
        @Override
        public void run() {
          try (ai.onnxruntime.OnnxTensor t =
                  ai.onnxruntime.OnnxTensor.createTensor(env, java.nio.FloatBuffer.wrap(x), shape);
              ai.onnxruntime.OrtSession.Result r = session.run(Map.of(input, t))) {
            ((ai.onnxruntime.OnnxTensor) r.get(0)).getFloatBuffer();
          } catch (ai.onnxruntime.OrtException e) {
            throw new IllegalStateException(e);
          }
        }

        @Override
        public void close() {
          try {
            session.close();
            options.close();
          } catch (ai.onnxruntime.OrtException e) {
            throw new IllegalStateException(e);
          }
        }
      };
    } catch (ai.onnxruntime.OrtException e) {
      throw new IllegalStateException("ONNX Runtime cannot load " + file + ": " + e, e);
    }
  }

  private static Impl djl(Path prefix, int batch, float[] x) {
    Model model = Model.newInstance(prefix.getFileName().toString(), "MXNet");
    try {
      model.load(prefix.getParent(), prefix.getFileName().toString());
    } catch (Exception e) {
      model.close();
      throw new IllegalStateException("DJL cannot load " + prefix + ": " + e, e);
    }
    Predictor<NDList, NDList> p = model.newPredictor(new NoopTranslator());
    NDManager nd = NDManager.newBaseManager();
    ai.djl.ndarray.types.Shape shape = new ai.djl.ndarray.types.Shape(batch, 1, 28, 28);
    return new Impl() {
      @Override
      public void run() {
        try (NDManager sub = nd.newSubManager()) {
          NDList out = p.predict(new NDList(sub.create(x, shape)));
          out.get(0).toFloatArray();
          out.close();
        } catch (ai.djl.translate.TranslateException e) {
          throw new IllegalStateException(e);
        }
      }

      @Override
      public void close() {
        p.close();
        nd.close();
        model.close();
      }
    };
  }

  /** Batches per second of each implementation per round, the order rotating each round. */
  private static Map<String, double[]> measure(
      Map<String, Supplier<Impl>> makers, int rounds, double seconds) {
    List<String> names = new ArrayList<>(makers.keySet());
    Map<String, Impl> impls = new LinkedHashMap<>();
    Map<String, double[]> rates = new LinkedHashMap<>();
    try {
      for (String name : names) {
        Impl impl = makers.get(name).get();
        impls.put(name, impl);
        for (int w = 0; w < 5; w++) {
          impl.run();
        }
        rates.put(name, new double[rounds]);
      }
      for (int r = 0; r < rounds; r++) {
        for (int j = 0; j < names.size(); j++) {
          String name = names.get((j + r) % names.size());
          Impl impl = impls.get(name);
          long t0 = System.nanoTime();
          long end = t0 + (long) (seconds * 1e9);
          int runs = 0;
          do {
            impl.run();
            runs++;
          } while (System.nanoTime() < end);
          rates.get(name)[r] = runs / ((System.nanoTime() - t0) / 1e9);
        }
      }
    } finally {
      impls.values().forEach(Impl::close);
    }
    return rates;
  }

  private static String cell(double[] v) {
    double[] s = v.clone();
    java.util.Arrays.sort(s);
    return String.format(
        Locale.ROOT,
        "%.0f (%.0f–%.0f)",
        Stats.median(java.util.Arrays.stream(s).boxed().toList()),
        s[0],
        s[s.length - 1]);
  }

  private static String ratio(double[] a, double[] b) {
    double[] r = new double[a.length];
    for (int i = 0; i < r.length; i++) {
      r[i] = a[i] / b[i];
    }
    java.util.Arrays.sort(r);
    return String.format(
        Locale.ROOT,
        "%.2f (%.2f–%.2f)",
        Stats.median(java.util.Arrays.stream(r).boxed().toList()),
        r[0],
        r[r.length - 1]);
  }

  /**
   * The server at saturation against the same predictor in process, with the CPU each side spent
   * per example, by kind of thread ({@link ThreadCpu}).
   */
  private String server(float[] images) throws Exception {
    int clients = 16;
    int maxBatch = 16;
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "The server at saturation (LeNet, fused, 1 replica, batches of up to %d or 2 ms, %d"
                + " client threads in this JVM on loopback, every answer checked), against the"
                + " predictor in process at batch %d on one thread; CPU in ms per example, by"
                + " thread (server: Jetty, JSON, batching; model: MXNet's engine; clients: the"
                + " JDK's HttpClient or gRPC's and the senders; JVM: JIT and GC); the tensors as"
                + " JSON numbers, binary both ways (the protocol's binary tensor data extension),"
                + " or over gRPC in raw_input_contents and raw_output_contents (gRPC's Netty I/O"
                + " threads, which client and server share in one JVM, count as clients):%n%n",
            maxBatch,
            clients,
            maxBatch));
    b.append(
        "| data | images a request | server ex/s | in process ex/s | server/in process | CPU server |"
            + " CPU model | CPU clients | CPU JVM | CPU in process | in process/(server +"
            + " model) CPU | p50 ms | p99 ms | failed | wrong |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    try (KilnModel m = model("lenet");
        dev.kiln.runtime.infer.Predictor reference = m.predictor()) {
      ThreadCpu[] c = new ThreadCpu[2];
      int[] mark = {0};
      double local =
          LoadTest.inProcess(
              reference,
              images,
              maxBatch,
              1,
              quick ? 0.3 : 3,
              () -> c[mark[0]++] = ThreadCpu.now());
      ThreadCpu c0 = c[0];
      ThreadCpu c1 = c[1];
      int localExamples = (int) Math.max(1, local * (quick ? 0.3 : 3));
      double localCpu =
          c1.millisPer(c0, ThreadCpu.Kind.MODEL, localExamples)
              + c1.millisPer(c0, ThreadCpu.Kind.CLIENT, localExamples);
      InferenceServer s =
          InferenceServer.start(
              "lenet",
              reference.copy(),
              new InferenceServer.Config(
                  "127.0.0.1", 0, 1, maxBatch, 2, 4096, 16L << 20, 10_000, 0));
      try {
        // HTTP with JSON, HTTP binary, gRPC with raw contents; one image a request, then eight.
        for (int run = 0; run < 6; run++) {
          int per = run % 2 == 0 ? 1 : 8;
          String data = run < 2 ? "JSON" : run < 4 ? "binary" : "gRPC, raw";
          int requests = (quick ? 200 : 2000) / per;
          java.util.function.Function<Runnable, LoadTest.Result> load =
              clock ->
                  data.startsWith("gRPC")
                      ? LoadTest.runGrpc(
                          "127.0.0.1",
                          s.grpcPort(),
                          "lenet",
                          reference,
                          images,
                          requests,
                          clients,
                          per,
                          clock)
                      : LoadTest.run(
                          s.uri(),
                          "lenet",
                          reference,
                          images,
                          requests,
                          clients,
                          per,
                          data.equals("binary"),
                          clock);
          // The JIT compiles for seconds: warm up on as many requests as are measured.
          load.apply(() -> {});
          ThreadCpu[] cpu = new ThreadCpu[2];
          int[] marks = {0};
          LoadTest.Result r = load.apply(() -> cpu[marks[0]++] = ThreadCpu.now());
          ThreadCpu before = cpu[0];
          ThreadCpu after = cpu[1];
          int n = r.examples();
          double server = after.millisPer(before, ThreadCpu.Kind.SERVER, n);
          double model = after.millisPer(before, ThreadCpu.Kind.MODEL, n);
          b.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %d | %.0f | %.0f | %.2f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.1f |"
                      + " %.1f | %d | %d |%n",
                  data,
                  per,
                  r.examplesPerSecond(),
                  local,
                  r.examplesPerSecond() / local,
                  server,
                  model,
                  after.millisPer(before, ThreadCpu.Kind.CLIENT, n),
                  after.millisPer(before, ThreadCpu.Kind.JVM, n),
                  localCpu,
                  localCpu / (server + model),
                  r.p50Millis(),
                  r.p99Millis(),
                  r.failed(),
                  r.wrong()));
        }
      } finally {
        s.shutdown();
      }
    }
    return b.toString();
  }
}
