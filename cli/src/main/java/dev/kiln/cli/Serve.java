package dev.kiln.cli;

import dev.kiln.runtime.infer.FusedNode;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.PaddedConvolution;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.serving.InferenceServer;
import java.io.IOException;
import java.net.BindException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code serve}: a checkpoint behind an Open Inference Protocol (KServe v2) HTTP server, until
 * SIGTERM or SIGINT, which drain the requests in flight and exit with 0. A thin layer over {@link
 * InferenceServer} (module {@code kiln-serving}), which a program of one's own can start itself.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve a checkpoint over HTTP with the Open Inference Protocol (KServe v2): GET"
          + " /v2/health/live, /v2/health/ready, /v2/models/NAME, POST /v2/models/NAME/infer, GET"
          + " /metrics; with --grpc-port, also its gRPC service. SIGTERM or Ctrl-C drains the"
          + " requests in flight (both protocols) and exits with 0.",
      "Example: curl -s localhost:8000/v2/models/lenet"
    })
final class Serve implements Callable<Integer> {
  @Mixin CheckpointOptions checkpoint;

  @Spec CommandSpec spec;

  @Option(
      names = "--model",
      paramLabel = "NAME",
      description = "The model's name in the URLs (default: the checkpoint prefix's file name).")
  String model;

  @Option(
      names = "--host",
      defaultValue = "127.0.0.1",
      description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every one).")
  String host;

  @Option(
      names = "--port",
      defaultValue = "8000",
      description = "Port (default: ${DEFAULT-VALUE}; 0 for any free one).")
  int port;

  @Option(
      names = "--grpc-port",
      paramLabel = "P",
      description =
          "Also serve the protocol's gRPC service (inference.GRPCInferenceService) on this port of"
              + " the same host, over the same replicas and batches (0 for any free one; default:"
              + " no gRPC).")
  Integer grpcPort;

  @Option(
      names = "--replicas",
      defaultValue = "1",
      description = "Model copies serving in parallel, a thread each (default: ${DEFAULT-VALUE}).")
  int replicas;

  @Option(
      names = "--max-batch",
      defaultValue = "32",
      description = "Most examples batched into one model run (default: ${DEFAULT-VALUE}).")
  int maxBatch;

  @Option(
      names = "--max-delay-ms",
      defaultValue = "2",
      description =
          "Longest a request waits for others to batch with (default: ${DEFAULT-VALUE} ms).")
  int maxDelayMs;

  @Option(
      names = "--max-queue",
      defaultValue = "256",
      description =
          "Most requests waiting for a replica; beyond it the server answers 503 (default: "
              + "${DEFAULT-VALUE}).")
  int maxQueue;

  @Option(
      names = "--max-body-mb",
      defaultValue = "16",
      description =
          "Largest request body read, in MiB; a larger one gets 400 (default: "
              + "${DEFAULT-VALUE}).")
  int maxBodyMb;

  @Option(
      names = "--no-fuse",
      description = "Run the graph operator by operator instead of fused by oneDNN's pass.")
  boolean noFuse;

  /** Whether {@code e} or one of its causes is a failure to bind a socket. */
  static boolean bindFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BindException) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code host:port} can be listened on now (port 0 always can). */
  private static boolean portFree(String host, int port) {
    if (port == 0) {
      return true;
    }
    try (java.net.ServerSocket s = new java.net.ServerSocket()) {
      s.bind(new java.net.InetSocketAddress(host, port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage() != null ? root.getMessage() : root.toString();
  }

  @Override
  public Integer call() throws Exception {
    Values.inRange(spec, "--port", port, 0, 65535);
    Values.atLeast(spec, "--replicas", replicas, 1);
    Values.atLeast(spec, "--max-batch", maxBatch, 1);
    Values.atLeast(spec, "--max-delay-ms", maxDelayMs, 0);
    Values.atLeast(spec, "--max-queue", maxQueue, 1);
    Values.atLeast(spec, "--max-body-mb", maxBodyMb, 1);
    if (grpcPort != null) {
      Values.inRange(spec, "--grpc-port", grpcPort, 0, 65535);
    }
    InferenceServer.Config config =
        new InferenceServer.Config(
            host,
            port,
            replicas,
            maxBatch,
            maxDelayMs,
            maxQueue,
            (long) maxBodyMb << 20,
            30_000,
            grpcPort == null ? -1 : grpcPort);
    String name = model != null ? model : checkpoint.defaultName();
    if (!name.matches("[A-Za-z0-9_.-]+")) {
      throw Values.usage(
          spec, "--model " + name + ": a model name takes letters, digits, '_', '.' and '-' only");
    }
    Predictor predictor =
        checkpoint.load(
            spec.commandLine(), noFuse ? InferenceOptions.unfused() : InferenceOptions.DEFAULT);
    for (PaddedConvolution c : predictor.padding()) {
      System.out.println("padded " + c);
    }
    for (FusedNode f : predictor.fusion()) {
      System.out.println("fused " + f);
    }
    if (predictor.fusionRefusal() != null) {
      System.out.println(
          "running unfused: MXNet cannot run the fused graph: " + predictor.fusionRefusal());
    }
    InferenceServer server;
    try {
      server = InferenceServer.builder().model(name, predictor).config(config).build().start();
    } catch (IOException e) {
      if (!bindFailure(e)) {
        throw e;
      }
      // One line, no stack trace: the port is taken (or not ours to open), which --port fixes.
      // With both ports asked for, the one that is still taken now (the server freed its own) is
      // the one at fault.
      boolean grpcBusy = grpcPort != null && portFree(host, port);
      String which = grpcBusy ? "--grpc-port" : "--port";
      int busy = grpcBusy ? grpcPort : port;
      spec.commandLine()
          .getErr()
          .println(
              which
                  + " "
                  + busy
                  + ": cannot listen on "
                  + host
                  + ":"
                  + busy
                  + " ("
                  + rootMessage(e)
                  + "; another server may hold it); give another "
                  + which
                  + ", or "
                  + which
                  + " 0 for any free one");
      spec.commandLine().getErr().flush();
      return 2;
    }
    // SIGTERM or SIGINT starts the JVM's shutdown; this hook drains the server, reports, and ends
    // the process with 0 (a shutdown the signal started would otherwise end with 128 + the
    // signal). A second signal (a supervisor that forwards SIGTERM, an impatient Ctrl-C) joins
    // the shutdown already under way.
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("draining: answering the requests in flight, then stopping");
                  System.out.flush();
                  server.shutdown();
                  System.out.println(
                      "stopped: "
                          + server.accepted()
                          + " infer requests accepted, "
                          + server.completed()
                          + " answered");
                  System.out.flush();
                  Runtime.getRuntime().halt(0);
                },
                "kiln-serve-drain"));
    System.out.println(
        "serving "
            + name
            + " ("
            + (predictor.isFused() ? "fused" : "unfused")
            + ", "
            + replicas
            + (replicas == 1 ? " replica" : " replicas")
            + ", batches of up to "
            + maxBatch
            + " or "
            + maxDelayMs
            + " ms) at "
            + server.uri()
            + "/v2/models/"
            + name
            + (server.grpcPort() >= 0 ? ", gRPC at " + host + ":" + server.grpcPort() : "")
            + "; SIGTERM or Ctrl-C drains and stops");
    System.out.flush();
    // Returns once the hook has drained the server; the hook then ends the process.
    server.awaitShutdown();
    return 0;
  }
}
