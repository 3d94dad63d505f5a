package dev.kiln.cli;

import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.serving.InferenceServer;
import dev.kiln.serving.LoadTest;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code loadtest}: a bounded load test of {@code serve} on loopback, every answer checked against
 * the model in process; prints p50/p99 latency and throughput beside the in-process throughput.
 */
@Command(
    name = "loadtest",
    mixinStandardHelpOptions = true,
    description =
        "Load-test the Open Inference Protocol server on loopback: --clients threads send"
            + " --requests requests of Fashion-MNIST test images, every answer is checked against"
            + " the model in process; prints p50/p99 latency, throughput, and the in-process"
            + " throughput of as many replicas. Without --url it starts the server itself.")
final class LoadTestCommand implements Callable<Integer> {
  @Mixin FashionData data;

  /** The checkpoint served, and the reference for every answer. */
  @Mixin CheckpointOptions checkpoint;

  @Spec CommandSpec spec;

  @Option(
      names = "--url",
      description = "A running server, e.g. http://127.0.0.1:8000 (default: start one here).")
  URI url;

  @Option(
      names = "--model",
      paramLabel = "NAME",
      description = "The model's name on the server (default: the checkpoint prefix's file name).")
  String model;

  @Option(
      names = "--requests",
      defaultValue = "2000",
      description = "Requests in all (default: " + "${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--clients",
      defaultValue = "8",
      description = "Client threads (default: " + "${DEFAULT-VALUE}).")
  int clients;

  @Option(
      names = "--per-request",
      defaultValue = "1",
      description = "Examples per request " + "(default: ${DEFAULT-VALUE}).")
  int perRequest;

  @Option(
      names = "--replicas",
      defaultValue = "1",
      description =
          "Replicas of the server it "
              + "starts, and in-process threads compared with (default: ${DEFAULT-VALUE}).")
  int replicas;

  @Option(
      names = "--max-batch",
      defaultValue = "32",
      description =
          "The server's --max-batch, " + "and the in-process batch (default: ${DEFAULT-VALUE}).")
  int maxBatch;

  @Option(
      names = "--max-delay-ms",
      defaultValue = "2",
      description = "The server's " + "--max-delay-ms (default: ${DEFAULT-VALUE}).")
  int maxDelayMs;

  @Option(
      names = "--binary",
      description =
          "Send the images and ask for the answers in binary (the protocol's binary tensor data"
              + " extension) instead of as JSON numbers.")
  boolean binary;

  @Override
  public Integer call() throws Exception {
    Values.atLeast(spec, "--requests", requests, 1);
    Values.atLeast(spec, "--clients", clients, 1);
    Values.atLeast(spec, "--per-request", perRequest, 1);
    Values.atLeast(spec, "--replicas", replicas, 1);
    Values.atLeast(spec, "--max-batch", maxBatch, 1);
    Values.atLeast(spec, "--max-delay-ms", maxDelayMs, 0);
    String name = model != null ? model : checkpoint.defaultName();
    float[] images = data.load().test().features();
    try (Predictor reference = checkpoint.load(spec.commandLine(), InferenceOptions.DEFAULT)) {
      InferenceServer server = null;
      URI base = url;
      if (base == null) {
        server =
            InferenceServer.start(
                name,
                reference.copy(),
                new InferenceServer.Config(
                    "127.0.0.1", 0, replicas, maxBatch, maxDelayMs, 4096, 64L << 20, 30_000));
        base = server.uri();
      }
      try {
        String load0 = loadavg();
        // A warm-up as long as the run, untimed: connections, executors, and the JIT, which
        // compiles
        // for seconds.
        LoadTest.run(
            base, name, reference, images, requests, clients, perRequest, binary, () -> {});
        // The server's CPU over the measured run, where it runs in a process of its own.
        double[] serverCpu = new double[2];
        int[] at = {0};
        URI measured = base;
        boolean apart = server == null;
        LoadTest.Result r =
            LoadTest.run(
                base,
                name,
                reference,
                images,
                requests,
                clients,
                perRequest,
                binary,
                () ->
                    serverCpu[at[0]++] = apart ? LoadTest.serverCpuSeconds(measured) : Double.NaN);
        // This process's CPU over the in-process run (nothing else runs in it then).
        long[] localCpu = new long[2];
        int[] mark = {0};
        double local =
            LoadTest.inProcess(
                reference,
                images,
                maxBatch,
                replicas,
                3,
                () -> localCpu[mark[0]++] = LoadTest.processCpuNanos());
        System.out.printf(
            Locale.ROOT,
            "%d %s requests of %d example(s) from %d clients in %.2f s: p50 %.2f ms, p99 %.2f ms,"
                + " %.0f requests/s, %.0f examples/s; failed %d, wrong %d (largest difference"
                + " from in-process %.2g)%n",
            r.requests(),
            binary ? "binary" : "JSON",
            perRequest,
            clients,
            r.seconds(),
            r.p50Millis(),
            r.p99Millis(),
            r.requestsPerSecond(),
            r.examplesPerSecond(),
            r.failed(),
            r.wrong(),
            r.maxDifference());
        System.out.printf(
            Locale.ROOT,
            "in process, %d thread(s) at batch %d: %.0f examples/s; server/in-process %.2f%n",
            replicas,
            maxBatch,
            local,
            r.examplesPerSecond() / local);
        double serverPerExample = (serverCpu[1] - serverCpu[0]) * 1e3 / r.examples();
        double localPerExample = (localCpu[1] - localCpu[0]) / 1e6 / (local * 3);
        if (!Double.isNaN(serverPerExample)) {
          System.out.printf(
              Locale.ROOT,
              "CPU per example: server %.3f ms (its process_cpu_seconds_total over the run, %.3f ms"
                  + " a request), in process %.3f ms; in process/server %.2f%n",
              serverPerExample,
              serverPerExample * perRequest,
              localPerExample,
              localPerExample / serverPerExample);
        }
        System.out.println("load average before: " + load0 + "; after: " + loadavg());
        return r.failed() == 0 && r.wrong() == 0 ? 0 : 1;
      } finally {
        if (server != null) {
          server.shutdown();
        }
      }
    }
  }

  static String loadavg() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }
}
