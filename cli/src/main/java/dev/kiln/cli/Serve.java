package dev.kiln.cli;

import dev.kiln.runtime.infer.FusedNode;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.PaddedConvolution;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.mxnet.OmpThreads;
import dev.kiln.serving.InferenceServer;
import java.io.IOException;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code serve}: a checkpoint, or a model repository, behind an Open Inference Protocol (KServe v2)
 * HTTP server (and its gRPC service with {@code --grpc-port}), until SIGTERM or SIGINT, which drain
 * the requests in flight and exit with 0. A thin layer over {@link InferenceServer} (module {@code
 * kiln-serving}), which a program of one's own can start itself.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve a checkpoint over HTTP with the Open Inference Protocol (KServe v2): GET"
          + " /v2/health/live, /v2/health/ready, /v2/models/NAME, POST /v2/models/NAME/infer, GET"
          + " /metrics; with --grpc-port, also its gRPC service. One checkpoint (--checkpoint) or"
          + " a model repository (--repository, Triton's layout, with /v2/repository/index,"
          + " /models/M/load and /unload under --model-control explicit). SIGTERM or Ctrl-C"
          + " drains the requests in flight (both protocols) and exits with 0.",
      "Example: curl -s localhost:8000/v2/models/lenet"
    })
final class Serve implements Callable<Integer> {
  @Option(
      names = "--checkpoint",
      paramLabel = "PREFIX",
      description =
          "MXNet checkpoint to serve as version 1 of one model: a prefix (out/lenet for"
              + " out/lenet-symbol.json and out/lenet-0000.params) or one of its files. Give it or"
              + " --repository.")
  Path checkpointPath;

  @Option(
      names = "--input",
      paramLabel = "NAME=DIMS",
      description =
          "A data input and its shape, BATCH for the batch dimension, e.g. image=BATCH,1,28,28;"
              + " one per input. Needed for a checkpoint that records no input shapes (a model's"
              + " save); one that quantize or Predictor.save wrote records them. With"
              + " --repository, it applies to every checkpoint that records none.")
  List<String> inputs = new ArrayList<>();

  @Option(
      names = "--repository",
      paramLabel = "DIR",
      description =
          "A model repository in Triton's layout: DIR/<model>/<version>/ holds one checkpoint"
              + " each (version folders 1, 2, ...). Give it or --checkpoint.")
  Path repository;

  @Option(
      names = "--model-control",
      paramLabel = "MODE",
      defaultValue = "none",
      description =
          "With --repository: none (every model at start, no loads or unloads), explicit (the"
              + " --load-model models at start, then POST /v2/repository/models/M/load and"
              + " /unload) or poll (every model at start, then the folder's changes every"
              + " --poll-seconds). Default: ${DEFAULT-VALUE}.")
  String modelControl;

  @Option(
      names = "--load-model",
      paramLabel = "NAME",
      description = "With --model-control explicit: a model to load at start (repeatable).")
  List<String> loadModels = new ArrayList<>();

  @Option(
      names = "--poll-seconds",
      defaultValue = "15",
      description =
          "With --model-control poll: seconds between reads of the repository (default:"
              + " ${DEFAULT-VALUE}).")
  int pollSeconds;

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
    Values.atLeast(spec, "--poll-seconds", pollSeconds, 1);
    if ((checkpointPath == null) == (repository == null)) {
      throw Values.usage(
          spec,
          checkpointPath == null
              ? "give --checkpoint PREFIX (one model) or --repository DIR (a model repository)"
              : "give --checkpoint or --repository, not both");
    }
    InferenceServer.ModelControl control =
        switch (modelControl) {
          case "none" -> InferenceServer.ModelControl.NONE;
          case "explicit" -> InferenceServer.ModelControl.EXPLICIT;
          case "poll" -> InferenceServer.ModelControl.POLL;
          default ->
              throw Values.usage(
                  spec, "--model-control " + modelControl + ": choose none, explicit or poll");
        };
    if (repository != null && model != null) {
      throw Values.usage(
          spec, "--model names a --checkpoint's model; a repository's models are its folders");
    }
    if (!loadModels.isEmpty() && control != InferenceServer.ModelControl.EXPLICIT) {
      throw Values.usage(
          spec,
          "--load-model takes effect under --model-control explicit only (the others load every"
              + " model)");
    }
    InferenceOptions options = noFuse ? InferenceOptions.unfused() : InferenceOptions.DEFAULT;
    CheckpointOptions checkpoint = new CheckpointOptions();
    checkpoint.checkpoint = checkpointPath;
    checkpoint.inputs = inputs;
    InferenceServer.Builder builder = InferenceServer.builder().config(config);
    String name;
    Predictor predictor = null;
    if (repository != null) {
      if (!Files.isDirectory(repository)) {
        throw new IllegalArgumentException(
            "--repository "
                + repository
                + ": there is no folder there; a repository holds DIR/<model>/<version>/");
      }
      name = repository.toString();
      builder
          .repository(repository, control)
          .pollSeconds(pollSeconds)
          .loadAtStart(loadModels.toArray(String[]::new))
          .checkpoints(options, checkpoint.ports(spec.commandLine()));
    } else {
      name = model != null ? model : checkpoint.defaultName();
      if (!name.matches("[A-Za-z0-9_.-]+")) {
        throw Values.usage(
            spec,
            "--model " + name + ": a model name takes letters, digits, '_', '.' and '-' only");
      }
      predictor = checkpoint.load(spec.commandLine(), options);
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
      builder.model(name, predictor);
    }
    InferenceServer server;
    try {
      server = builder.build().start();
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
    String what =
        predictor != null
            ? name
            : "repository " + name + " (" + control.name().toLowerCase(Locale.ROOT) + ")";
    String where =
        predictor != null
            ? server.uri() + "/v2/models/" + name
            : server.uri() + "/v2/models/{" + String.join(",", server.models()) + "}";
    System.out.println("MXNet: " + OmpThreads.inUse());
    System.out.println(
        "serving "
            + what
            + " ("
            + (predictor == null
                ? server.models().size() + (server.models().size() == 1 ? " model" : " models")
                : predictor.isFused() ? "fused" : "unfused")
            + ", "
            + replicas
            + (replicas == 1 ? " replica" : " replicas")
            + ", batches of up to "
            + maxBatch
            + " or "
            + maxDelayMs
            + " ms) at "
            + where
            + (server.grpcPort() >= 0 ? ", gRPC at " + host + ":" + server.grpcPort() : "")
            + "; SIGTERM or Ctrl-C drains and stops");
    System.out.flush();
    // Returns once the hook has drained the server; the hook then ends the process.
    server.awaitShutdown();
    return 0;
  }
}
