package dev.kiln.serving;

import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Predictor;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A server of models and their versions that speaks the Open Inference Protocol (KServe v2) over
 * HTTP: {@code GET /v2/health/live}, {@code GET /v2/health/ready}, {@code GET /v2}, {@code GET
 * /v2/models/NAME[/versions/V]}, {@code .../ready}, {@code POST .../infer}, {@code GET .../stats}
 * and {@code GET /v2/models/stats} (the statistics extension, {@link Statistics}), {@code POST
 * /v2/repository/index} and {@code POST /v2/repository/models/NAME/load|unload} (the repository
 * extension, {@link Repository}), and {@code GET /metrics} (Prometheus text); with {@link
 * Builder#grpcPort(int)}, also the protocol's gRPC service ({@code inference.GRPCInferenceService},
 * {@link GrpcService}) on a port of its own, over the same models, replicas, batching, limits and
 * metrics. Each model version ({@link ServedModel}) has its own replicas and batcher; a request
 * without a version goes to the highest one served.
 *
 * <p>Jetty (12, its core handlers, no servlets) does the HTTP; Gson the JSON ({@link Protocol});
 * the Prometheus client the metrics ({@link ServerMetrics}); {@link Batcher} the dynamic batching
 * over replicas. An infer request is read on one of Jetty's threads (at most {@code maxBodyBytes}),
 * checked, and queued; the replica that runs it writes the answer, so no HTTP thread waits on the
 * model. Status codes: 200; 400 with {@code {"error"}} naming what was expected and what came (not
 * JSON, wrong name, shape, datatype, a NaN, a body over the limit); 404 for another model or path;
 * 405 for a wrong method; 503 when the queue is full or the server is draining; 500 if the model
 * fails.
 *
 * <p>A program serves a predictor in a few lines:
 *
 * <pre>{@code
 * Predictor predictor = model.predictor(); // or Predictor.load(prefix, InferenceOptions.DEFAULT)
 * InferenceServer server =
 *     InferenceServer.builder().model("fashion", predictor).port(8080).build().start();
 * Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown)); // SIGTERM drains
 * server.awaitShutdown();
 * }</pre>
 *
 * <p>{@link #shutdown()} (what SIGTERM runs in {@code kiln serve}) drains both protocols at once:
 * readiness turns false, the HTTP connector stops accepting and new gRPC calls get {@code
 * UNAVAILABLE}, requests already read or called are answered (up to {@code drainMillis}), then the
 * replicas are freed.
 *
 * <p>Threads: the builder and {@link #start()} on any one thread; {@link #shutdown()}, {@link
 * #load}, {@link #unload}, the counters and the accessors from any thread (loads and unloads run
 * one at a time). HTTP requests are read on Jetty's pool, gRPC calls on a pool of four of the
 * server's own; each replica runs on its own thread, and answers are written from Jetty's pool.
 */
public final class InferenceServer implements AutoCloseable {
  /**
   * What the server listens on and how it batches.
   *
   * @param host the address to listen on ({@code 127.0.0.1} by default: loopback only)
   * @param port the port, 0 for any free one
   * @param replicas model copies serving in parallel, each on a thread of its own
   * @param maxBatch the most examples one batch holds
   * @param maxDelayMs the longest the oldest request of a batch waits for others
   * @param maxQueue the most requests that wait for a replica before the server answers 503
   * @param maxBodyBytes the largest request body read
   * @param drainMillis the longest {@link #shutdown()} waits for requests in flight
   * @param grpcPort the port of the protocol's gRPC service on the same host, 0 for any free one,
   *     -1 for none (HTTP only)
   */
  public record Config(
      String host,
      int port,
      int replicas,
      int maxBatch,
      int maxDelayMs,
      int maxQueue,
      long maxBodyBytes,
      long drainMillis,
      int grpcPort) {
    /** Checks every value. */
    public Config {
      if (replicas < 1 || maxBatch < 1 || maxDelayMs < 0 || maxQueue < 1 || maxBodyBytes < 1) {
        throw new IllegalArgumentException(
            "replicas, max batch, max queue and max body must be at least 1, the delay at least"
                + " 0: "
                + this);
      }
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be in 0..65535, got " + port);
      }
      if (grpcPort < -1 || grpcPort > 65535) {
        throw new IllegalArgumentException(
            "gRPC port must be in 0..65535, or -1 for no gRPC, got " + grpcPort);
      }
    }

    /** The settings without gRPC (HTTP only). */
    public Config(
        String host,
        int port,
        int replicas,
        int maxBatch,
        int maxDelayMs,
        int maxQueue,
        long maxBodyBytes,
        long drainMillis) {
      this(host, port, replicas, maxBatch, maxDelayMs, maxQueue, maxBodyBytes, drainMillis, -1);
    }

    /** Loopback, any free port, one replica, batches of up to 32 examples or 2 ms, no gRPC. */
    public static Config defaults() {
      return new Config("127.0.0.1", 0, 1, 32, 2, 256, 16L << 20, 30_000, -1);
    }
  }

  /**
   * Settings for a server, every one with the default of {@link Config#defaults()} until set; the
   * model is required. Each setter returns this builder.
   */
  public static final class Builder {
    private final List<Given> models = new ArrayList<>();
    private Path repository;
    private ModelControl control = ModelControl.NONE;
    private int pollSeconds = 15;
    private final List<String> loadAtStart = new ArrayList<>();
    private InferenceOptions options = InferenceOptions.DEFAULT;
    private List<Port> checkpointInputs = List.of();
    private String host;
    private int port;
    private int replicas;
    private int maxBatch;
    private int maxDelayMs;
    private int maxQueue;
    private long maxBodyBytes;
    private long drainMillis;
    private int grpcPort;

    private Builder() {
      config(Config.defaults());
    }

    /**
     * The model to serve: {@code predictor}, which the server takes over (it frees it when it
     * stops, and copies it for every further replica), under {@code name} in the protocol's paths
     * ({@code /v2/models/NAME}).
     *
     * @param name letters, digits, {@code _}, {@code .} and {@code -}
     * @param predictor the model, inference only
     * @return this builder
     */
    public Builder model(String name, Predictor predictor) {
      return model(name, 1, predictor);
    }

    /**
     * A version of a model to serve: {@code predictor}, which the server takes over, as version
     * {@code version} of {@code name} ({@code /v2/models/NAME/versions/VERSION}; requests that give
     * no version go to the highest). Call once per version and per model.
     *
     * @param name letters, digits, {@code _}, {@code .} and {@code -}
     * @param version a whole number from 1
     * @param predictor the model, inference only
     * @return this builder
     */
    public Builder model(String name, long version, Predictor predictor) {
      Objects.requireNonNull(name, "name");
      if (!name.matches("[A-Za-z0-9_.-]+")) {
        throw new IllegalArgumentException(
            "model name " + name + ": a model name takes letters, digits, '_', '.' and '-' only");
      }
      if (version < 1) {
        throw new IllegalArgumentException(
            "model " + name + ": a version is a whole number from 1, got " + version);
      }
      for (Given g : models) {
        if (g.name().equals(name) && g.version() == version) {
          throw new IllegalArgumentException(
              "model " + name + " version " + version + " is given twice");
        }
      }
      models.add(new Given(name, version, Objects.requireNonNull(predictor, "predictor")));
      return this;
    }

    /**
     * Also serve the models of a repository in Triton's layout, {@code dir/<model>/<version>/},
     * each version folder holding one checkpoint ({@code PREFIX-symbol.json} and {@code
     * PREFIX-0000.params}); {@code control} says which are loaded when ({@link ModelControl}).
     *
     * @param dir the repository
     * @param control {@code NONE}: every model at start, the repository API refuses to load or
     *     unload; {@code EXPLICIT}: the models of {@link #loadAtStart} at start, then whatever the
     *     API loads and unloads; {@code POLL}: every model at start, then the folder is read again
     *     every {@link #pollSeconds} (new versions loaded, removed ones unloaded)
     * @return this builder
     */
    public Builder repository(Path dir, ModelControl control) {
      this.repository = Objects.requireNonNull(dir, "dir");
      this.control = Objects.requireNonNull(control, "control");
      return this;
    }

    /**
     * How often {@link ModelControl#POLL} reads the repository again (default 15 s).
     *
     * @param seconds at least 1
     * @return this builder
     */
    public Builder pollSeconds(int seconds) {
      if (seconds < 1) {
        throw new IllegalArgumentException("poll interval must be at least 1 s, got " + seconds);
      }
      this.pollSeconds = seconds;
      return this;
    }

    /**
     * Models of the repository that {@link ModelControl#EXPLICIT} loads at start.
     *
     * @param names model folders of the repository
     * @return this builder
     */
    public Builder loadAtStart(String... names) {
      loadAtStart.addAll(List.of(names));
      return this;
    }

    /**
     * How the repository's checkpoints are loaded: {@code options} (fused or not), and the shapes
     * of inputs a checkpoint does not record (a model's {@code save} records none; one that {@code
     * Predictor.save} or {@code quantize} wrote does).
     *
     * @param options how to run them
     * @param inputs data inputs by name, each with its batch dimension; may be empty
     * @return this builder
     */
    public Builder checkpoints(InferenceOptions options, List<Port> inputs) {
      this.options = Objects.requireNonNull(options, "options");
      this.checkpointInputs = List.copyOf(inputs);
      return this;
    }

    /**
     * Every setting at once.
     *
     * @param config the settings
     * @return this builder
     */
    public Builder config(Config config) {
      host = config.host();
      port = config.port();
      replicas = config.replicas();
      maxBatch = config.maxBatch();
      maxDelayMs = config.maxDelayMs();
      maxQueue = config.maxQueue();
      maxBodyBytes = config.maxBodyBytes();
      drainMillis = config.drainMillis();
      grpcPort = config.grpcPort();
      return this;
    }

    /**
     * The address to listen on (default {@code 127.0.0.1}: loopback only; {@code 0.0.0.0} for every
     * one).
     *
     * @param host an address or host name
     * @return this builder
     */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /**
     * The port (default 0: any free one; {@link InferenceServer#port()} says which).
     *
     * @param port 0 to 65535
     * @return this builder
     */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be in 0..65535, got " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Also serve the protocol's gRPC service ({@code inference.GRPCInferenceService}) on {@code
     * port} of the same host, over the same replicas, batching, limits and metrics (default: no
     * gRPC; {@link InferenceServer#grpcPort()} says which port).
     *
     * @param port 0 to 65535 (0: any free one), or -1 for no gRPC
     * @return this builder
     */
    public Builder grpcPort(int port) {
      if (port < -1 || port > 65535) {
        throw new IllegalArgumentException(
            "gRPC port must be in 0..65535, or -1 for no gRPC, got " + port);
      }
      this.grpcPort = port;
      return this;
    }

    /**
     * Model copies serving in parallel, each on a thread of its own (default 1).
     *
     * @param replicas at least 1
     * @return this builder
     */
    public Builder replicas(int replicas) {
      this.replicas = replicas;
      return this;
    }

    /**
     * Dynamic batching: at most {@code maxBatch} examples a model run (default 32), the oldest
     * request waiting at most {@code maxDelayMs} for others (default 2).
     *
     * @param maxBatch at least 1
     * @param maxDelayMs at least 0
     * @return this builder
     */
    public Builder batching(int maxBatch, int maxDelayMs) {
      this.maxBatch = maxBatch;
      this.maxDelayMs = maxDelayMs;
      return this;
    }

    /**
     * Limits: the most requests waiting for a replica before the server answers 503 (default 256),
     * and the largest request body read (default 16 MiB).
     *
     * @param maxQueue at least 1
     * @param maxBodyBytes at least 1
     * @return this builder
     */
    public Builder limits(int maxQueue, long maxBodyBytes) {
      this.maxQueue = maxQueue;
      this.maxBodyBytes = maxBodyBytes;
      return this;
    }

    /**
     * The server, not yet listening: {@link InferenceServer#start()} binds the replicas' executors
     * and opens the port.
     *
     * @return the server
     * @throws IllegalStateException if no model was given
     * @throws IllegalArgumentException if a setting is out of its range ({@link Config})
     */
    public InferenceServer build() {
      if (models.isEmpty() && repository == null) {
        throw new IllegalStateException(
            "no model to serve: call model(name, predictor) or repository(dir, control) first");
      }
      Config config =
          new Config(
              host,
              port,
              replicas,
              maxBatch,
              maxDelayMs,
              maxQueue,
              maxBodyBytes,
              drainMillis,
              grpcPort);
      return new InferenceServer(
          List.copyOf(models),
          repository,
          control,
          pollSeconds,
          List.copyOf(loadAtStart),
          options,
          checkpointInputs,
          config);
    }
  }

  /** A model version given to the builder. */
  private record Given(String name, long version, Predictor predictor) {}

  /** Which models of a repository are loaded, and when. */
  public enum ModelControl {
    /** Every model at start; the repository API refuses to load or unload. */
    NONE,
    /** The models named at start; then what {@code POST /v2/repository/models/M/load} asks. */
    EXPLICIT,
    /** Every model at start, then the repository's changes every poll interval. */
    POLL
  }

  /**
   * A builder of a server.
   *
   * @return a builder with the defaults of {@link Config#defaults()}
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The binary tensor data extension's header: the length of the JSON that starts the body, the
   * tensors' raw data following it.
   */
  static final String INFERENCE_HEADER = "Inference-Header-Content-Length";

  /** The protocol's extensions this server has, as {@code GET /v2} and gRPC list them. */
  static final List<String> EXTENSIONS =
      List.of("binary_tensor_data", "model_repository", "statistics");

  private final Config config;
  private final List<Given> given;
  private final ModelTable table = new ModelTable();
  private final Repository repository;
  private final ModelControl control;
  private final int pollSeconds;
  private final List<String> loadAtStart;
  private final QueuedThreadPool pool;
  private final Server server;
  private final ServerConnector connector;
  private final ServerMetrics metrics;
  private final io.grpc.Server grpc;
  private final ExecutorService grpcExecutor;
  private ScheduledExecutorService poller;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong completed = new AtomicLong();
  private volatile boolean ready;
  private boolean started;
  private boolean shutDown;

  private InferenceServer(
      List<Given> given,
      Path repositoryDir,
      ModelControl control,
      int pollSeconds,
      List<String> loadAtStart,
      InferenceOptions options,
      List<Port> checkpointInputs,
      Config config) {
    this.config = config;
    this.given = given;
    this.control = control;
    this.pollSeconds = pollSeconds;
    this.loadAtStart = loadAtStart;
    this.pool = new QueuedThreadPool(64, 4);
    pool.setName("kiln-serve-http");
    pool.setDaemon(true);
    this.metrics = new ServerMetrics(config.maxBatch(), table);
    this.repository =
        repositoryDir == null
            ? null
            : new Repository(
                repositoryDir,
                table,
                options,
                checkpointInputs,
                (name, version, predictor) ->
                    new ServedModel(name, version, predictor, config, metrics, pool));
    this.server = new Server(pool);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    this.connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
    connector.setHost(config.host());
    connector.setPort(config.port());
    connector.setIdleTimeout(30_000);
    server.addConnector(connector);
    server.setHandler(new GracefulHandler(new Routes()));
    server.setStopTimeout(config.drainMillis());
    if (config.grpcPort() >= 0) {
      AtomicInteger threads = new AtomicInteger();
      this.grpcExecutor =
          Executors.newFixedThreadPool(
              4,
              r -> {
                Thread t = new Thread(r, "kiln-serve-grpc-" + threads.incrementAndGet());
                t.setDaemon(true);
                return t;
              });
      this.grpc =
          NettyServerBuilder.forAddress(new InetSocketAddress(config.host(), config.grpcPort()))
              .executor(grpcExecutor)
              .maxInboundMessageSize((int) Math.min(config.maxBodyBytes(), Integer.MAX_VALUE))
              .addService(new GrpcService(this).definition())
              .build();
    } else {
      this.grpcExecutor = null;
      this.grpc = null;
    }
  }

  /**
   * Starts serving {@code prototype} (which the server takes over, and copies for every further
   * replica) as model {@code model}: binds each replica's executors, then opens the port.
   *
   * @throws IOException if the port cannot be opened
   */
  public static InferenceServer start(String model, Predictor prototype, Config config)
      throws IOException {
    return builder().model(model, prototype).config(config).build().start();
  }

  /**
   * Starts serving: loads the models (the builder's, and the repository's that {@link ModelControl}
   * loads at start), binds each replica's executors, then opens the port(s). On failure the server
   * is shut down (its replicas freed).
   *
   * @return this server, serving
   * @throws IOException if a port cannot be opened
   * @throws IllegalArgumentException if a model fails to load (the message says which and why)
   * @throws IllegalStateException if it was started or shut down before
   */
  public synchronized InferenceServer start() throws IOException {
    if (started || shutDown) {
      throw new IllegalStateException(
          "server of " + model() + " was already " + (shutDown ? "shut down" : "started"));
    }
    started = true;
    try {
      List<Given> left = new ArrayList<>(given);
      while (!left.isEmpty()) {
        Given g = left.remove(0);
        ServedModel m;
        try {
          m =
              new ServedModel(
                  g.name(), String.valueOf(g.version()), g.predictor(), config, metrics, pool);
        } catch (RuntimeException e) {
          left.forEach(x -> x.predictor().close());
          throw e;
        }
        try {
          m.warmUp();
        } catch (RuntimeException e) {
          left.forEach(x -> x.predictor().close());
          throw e;
        }
        table.put(m);
      }
      if (repository != null) {
        List<String> names =
            control == ModelControl.EXPLICIT ? loadAtStart : repository.modelsOnDisk();
        for (String name : names) {
          Map<String, String> failed = repository.load(name);
          if (!failed.isEmpty()) {
            throw new IllegalArgumentException(
                "model '" + name + "' failed to load: " + describe(failed));
          }
        }
        if (control == ModelControl.POLL) {
          poller =
              Executors.newSingleThreadScheduledExecutor(
                  r -> {
                    Thread t = new Thread(r, "kiln-serve-repository-poll");
                    t.setDaemon(true);
                    return t;
                  });
          poller.scheduleWithFixedDelay(this::poll, pollSeconds, pollSeconds, TimeUnit.SECONDS);
        }
      }
      server.start();
      if (grpc != null) {
        grpc.start();
      }
    } catch (Exception e) {
      close();
      if (e instanceof IOException io) {
        throw io;
      }
      if (e instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException("cannot start the server: " + e.getMessage(), e);
    }
    ready = true;
    return this;
  }

  private static String describe(Map<String, String> failed) {
    List<String> parts = new ArrayList<>();
    failed.forEach((v, reason) -> parts.add("version " + v + ": " + reason));
    return String.join("; ", parts);
  }

  private void poll() {
    try {
      Map<String, String> failed = repository.poll();
      failed.forEach(
          (which, reason) ->
              System.err.println("kiln serving: " + which + " failed to load: " + reason));
    } catch (RuntimeException e) {
      System.err.println("kiln serving: reading the repository " + repository.dir() + ": " + e);
    }
  }

  /** This build's version, e.g. {@code 0.1.0-SNAPSHOT} (what {@code GET /v2} reports). */
  public static String version() {
    Properties p = new Properties();
    try (InputStream in = InferenceServer.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading kiln-serving's version.properties", e);
    }
    return p.getProperty("version", "unknown");
  }

  /** The port it listens on. */
  public int port() {
    return connector.getLocalPort();
  }

  /** The port of the gRPC service, or -1 when the server has none. */
  public int grpcPort() {
    return grpc == null ? -1 : grpc.getPort();
  }

  /** The base address, e.g. {@code http://127.0.0.1:8000}. */
  public URI uri() {
    return URI.create("http://" + config.host() + ":" + port());
  }

  /**
   * The name of the first model given to the builder (the one model of a server of one), or of the
   * first model served when none was given.
   */
  public String model() {
    if (!given.isEmpty()) {
      return given.get(0).name();
    }
    List<ServedModel> all = table.all();
    return all.isEmpty() ? "" : all.get(0).name();
  }

  /** The names of the models served now, sorted. */
  public List<String> models() {
    return table.all().stream().map(ServedModel::name).distinct().toList();
  }

  /** The versions of model {@code name} served now, lowest first (empty if none). */
  public List<String> versions(String name) {
    return table.versionsOf(name);
  }

  /** The batch size a batch of {@code n} examples runs at (padded to a power of two). */
  public int bucket(int n) {
    int b = 1;
    while (b < n) {
      b <<= 1;
    }
    return n <= config.maxBatch() ? Math.min(b, config.maxBatch()) : b;
  }

  /**
   * Loads (or reloads) model {@code name} from the repository: each of its versions on disk not
   * served yet, each bound and warmed before it serves, while the versions already served go on
   * serving; served versions gone from disk are unloaded (drained). A version that fails is not
   * served.
   *
   * @throws IllegalStateException without a repository, or when {@link ModelControl} is not {@code
   *     EXPLICIT}
   * @throws IllegalArgumentException if the repository has no such model, or a version failed (the
   *     others are served)
   */
  public void load(String name) {
    requireExplicit("load");
    Map<String, String> failed = repository.load(name);
    if (!failed.isEmpty()) {
      throw new IllegalArgumentException(
          "model '" + name + "' failed to load: " + describe(failed));
    }
  }

  /**
   * Unloads every version of model {@code name}: new requests for it get 404 at once; the requests
   * it accepted are answered; then its replicas are freed.
   *
   * @throws IllegalStateException without a repository, or when {@link ModelControl} is not {@code
   *     EXPLICIT}
   * @throws IllegalArgumentException if no version of {@code name} is served
   */
  public void unload(String name) {
    requireExplicit("unload");
    if (!repository.unload(name)) {
      throw new IllegalArgumentException(
          "model '" + name + "' is not loaded; this server serves " + table.describe());
    }
  }

  private void requireExplicit(String what) {
    if (repository == null) {
      throw new IllegalStateException(
          "this server has no model repository to " + what + " from (--repository DIR)");
    }
    if (control != ModelControl.EXPLICIT) {
      throw new IllegalStateException(
          "models are "
              + what
              + "ed only under --model-control explicit; this server runs under "
              + control.name().toLowerCase(java.util.Locale.ROOT));
    }
  }

  /**
   * Drains and stops: not ready from now on, no new connections or calls, every request already
   * read answered (for up to {@link Config#drainMillis()}), then the replicas freed. Idempotent.
   */
  public synchronized void shutdown() {
    if (shutDown) {
      return;
    }
    shutDown = true;
    ready = false;
    if (poller != null) {
      poller.shutdownNow();
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.drainMillis());
    // Both protocols drain at once: gRPC refuses new calls from here on (UNAVAILABLE) while the
    // calls it has answer; Jetty stops accepting and waits for the requests it has read.
    if (grpc != null) {
      grpc.shutdown();
    }
    try {
      server.stop();
    } catch (Exception e) {
      // The replicas are still freed below; the failure is Jetty's to report.
      System.err.println("kiln serving " + model() + ": stopping the HTTP server: " + e);
    } finally {
      try {
        if (grpc != null) {
          long left = Math.max(0, deadline - System.nanoTime());
          if (!grpc.awaitTermination(left, TimeUnit.NANOSECONDS)) {
            System.err.println(
                "kiln serving: gRPC calls still open after the drain limit; cancelling them");
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        // Answers every request still queued (on the replicas' own threads once the HTTP pool
        // has stopped), then frees the replicas.
        // A poll already under way finishes its load first (loads hold the repository), so that
        // no version is put into the table after it was emptied.
        Object loads = repository != null ? repository : table;
        synchronized (loads) {
          for (ServedModel m : table.all()) {
            table.remove(m.name(), m.version());
            m.close();
          }
        }
        for (Given g : given) {
          if (!g.predictor().isClosed() && !started) {
            g.predictor().close();
          }
        }
        if (grpc != null) {
          grpc.shutdownNow();
          grpcExecutor.shutdown();
        }
        stopped.countDown();
      }
    }
  }

  /** Whether the server takes infer requests (false before start and from shutdown on). */
  boolean isReady() {
    return ready;
  }

  /** The model versions served now. */
  ModelTable table() {
    return table;
  }

  ServerMetrics metrics() {
    return metrics;
  }

  int maxQueue() {
    return config.maxQueue();
  }

  void countAccepted() {
    accepted.incrementAndGet();
  }

  void countCompleted() {
    completed.incrementAndGet();
  }

  /** Infer requests read, checked and queued so far. */
  public long accepted() {
    return accepted.get();
  }

  /** Queued infer requests whose answer (or failure) a replica has written so far. */
  public long completed() {
    return completed.get();
  }

  /** Waits until {@link #shutdown()} has finished. */
  public void awaitShutdown() throws InterruptedException {
    stopped.await();
  }

  @Override
  public void close() {
    shutdown();
  }

  /** The repository's index: every model version on disk or served, with its state. */
  List<Repository.Entry> index() {
    if (repository != null) {
      return repository.index();
    }
    List<Repository.Entry> out = new ArrayList<>();
    for (ServedModel m : table.all()) {
      out.add(new Repository.Entry(m.name(), m.version(), "READY", ""));
    }
    return out;
  }

  /** The protocol's routes. */
  private final class Routes extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      long start = System.nanoTime();
      String path = Request.getPathInContext(request);
      String method = request.getMethod();
      try {
        if (path.equals("/v2/health/live")) {
          requireGet(method);
          reply(response, callback, 200, Protocol.object(Map.of("live", true)));
        } else if (path.equals("/v2/health/ready")) {
          requireGet(method);
          reply(response, callback, ready ? 200 : 503, Protocol.object(Map.of("ready", ready)));
        } else if (path.equals("/v2") || path.equals("/v2/")) {
          requireGet(method);
          Map<String, Object> meta = new LinkedHashMap<>();
          meta.put("name", "kiln");
          meta.put("version", version());
          meta.put("extensions", EXTENSIONS);
          reply(response, callback, 200, Protocol.object(meta));
        } else if (path.equals("/metrics")) {
          requireGet(method);
          response.setStatus(200);
          response.getHeaders().put(HttpHeader.CONTENT_TYPE, ServerMetrics.contentType());
          response.write(true, ByteBuffer.wrap(metrics.scrape()), callback);
        } else if (path.equals("/v2/models/stats")) {
          requireGet(method);
          reply(response, callback, 200, Statistics.json(table.all()));
        } else if (path.startsWith("/v2/models/")) {
          model(path.substring("/v2/models/".length()), method, request, response, callback, start);
        } else if (path.startsWith("/v2/repository/")) {
          repository(path.substring("/v2/repository/".length()), method, response, callback);
        } else {
          throw new BadRequest(
              404,
              "no such path: "
                  + path
                  + "; this server answers /v2/health/live, /v2/health/ready, /v2/models/NAME["
                  + "/versions/V][/ready|/infer|/stats], /v2/models/stats, /v2/repository/index,"
                  + " /v2/repository/models/NAME/load|unload and /metrics; it serves "
                  + table.describe());
        }
      } catch (BadRequest e) {
        refuse(response, callback, e, start, path.endsWith("/infer"), null);
      }
      return true;
    }

    private void repository(String rest, String method, Response response, Callback cb)
        throws BadRequest {
      if (!method.equals("POST")) {
        throw new BadRequest(405, "the repository extension takes POST, got " + method);
      }
      if (rest.equals("index")) {
        reply(response, cb, 200, Statistics.index(index()));
        return;
      }
      String[] parts = rest.split("/", -1);
      if (parts.length != 3
          || !parts[0].equals("models")
          || !(parts[2].equals("load") || parts[2].equals("unload"))) {
        throw new BadRequest(
            404,
            "no such path: /v2/repository/"
                + rest
                + "; the repository extension answers /v2/repository/index and"
                + " /v2/repository/models/NAME/load or /unload");
      }
      String name = parts[1];
      try {
        if (parts[2].equals("load")) {
          load(name);
        } else {
          unload(name);
        }
      } catch (IllegalStateException e) {
        throw new BadRequest(400, e.getMessage());
      } catch (IllegalArgumentException e) {
        throw new BadRequest(400, e.getMessage());
      } catch (RuntimeException e) {
        throw new BadRequest(500, parts[2] + " of model '" + name + "' failed: " + e);
      }
      reply(response, cb, 200, Protocol.object(Map.of()));
    }

    private void model(
        String rest, String method, Request request, Response response, Callback cb, long start)
        throws BadRequest {
      String[] parts = rest.split("/", -1);
      String name = parts[0];
      String version = "";
      int at = 1;
      if (parts.length > 2 && parts[1].equals("versions")) {
        version = parts[2];
        at = 3;
      }
      String what = parts.length > at ? parts[at] : "";
      if (parts.length > at + 1) {
        throw new BadRequest(404, "no such path under /v2/models/" + name + ": /" + rest);
      }
      if (what.equals("stats")) {
        requireGet(method);
        List<ServedModel> which = new ArrayList<>();
        if (version.isEmpty()) {
          for (String v : table.versionsOf(name)) {
            which.add(table.find(name, v));
          }
          if (which.isEmpty()) {
            table.find(name, ""); // 404 naming what is served
          }
        } else {
          which.add(table.find(name, version));
        }
        reply(response, cb, 200, Statistics.json(which));
        return;
      }
      ServedModel m;
      try {
        m = table.find(name, version);
      } catch (BadRequest e) {
        if (what.equals("infer")) {
          // The body is read and dropped first (up to the limit), so that the connection stays
          // usable: one closed with the request unread can lose the client's next request.
          if (request.getLength() <= config.maxBodyBytes()) {
            try (InputStream in = Request.asInputStream(request)) {
              byte[] chunk = new byte[8192];
              long read = 0;
              for (int n; (n = in.read(chunk)) > 0; ) {
                read += n;
                if (read > config.maxBodyBytes()) {
                  response.getHeaders().put(HttpHeader.CONNECTION, "close");
                  break;
                }
              }
            } catch (IOException io) {
              metrics.error("", "", ServerMetrics.HTTP, "client_gone");
              cb.failed(io);
              return;
            }
          } else {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
          }
          refuse(response, cb, e, start, true, null);
          return;
        }
        throw e;
      }
      switch (what) {
        case "" -> {
          requireGet(method);
          reply(
              response,
              cb,
              200,
              Protocol.metadata(
                  name,
                  version.isEmpty() ? table.versionsOf(name) : List.of(m.version()),
                  m.signature()));
        }
        case "ready" -> {
          requireGet(method);
          Map<String, Object> body = new LinkedHashMap<>();
          body.put("name", name);
          body.put("ready", ready);
          reply(response, cb, ready ? 200 : 503, Protocol.object(body));
        }
        case "infer" -> {
          if (!method.equals("POST")) {
            throw new BadRequest(405, "infer takes POST, got " + method);
          }
          try {
            infer(m, request, response, cb, start);
          } catch (BadRequest e) {
            refuse(response, cb, e, start, true, m);
          }
        }
        default ->
            throw new BadRequest(404, "no such path under /v2/models/" + name + ": /" + rest);
      }
    }

    private void infer(ServedModel m, Request request, Response response, Callback cb, long start)
        throws BadRequest {
      long length = request.getLength();
      long max = config.maxBodyBytes();
      if (length > max) {
        BadRequest tooBig =
            BadRequest.of(
                "the body is "
                    + length
                    + " bytes; this server reads at most "
                    + max
                    + " (--max-body)");
        if (length <= 2 * max) {
          // Read and dropped, so that the answer reaches a client still sending: closing a
          // connection with unread data resets it, and the client may lose the answer with it.
          try (InputStream in = Request.asInputStream(request)) {
            in.transferTo(OutputStream.nullOutputStream());
          } catch (IOException e) {
            metrics.error(m.name(), m.version(), ServerMetrics.HTTP, "client_gone");
            cb.failed(e);
            return;
          }
        } else {
          // Left unread (a client that sent Expect: 100-continue never sends it): the connection
          // cannot carry another request.
          response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        throw tooBig;
      }
      byte[] body;
      try (InputStream in = Request.asInputStream(request)) {
        body = in.readNBytes((int) Math.min(max + 1, Integer.MAX_VALUE - 8));
      } catch (IOException e) {
        // The client went away mid-body: nothing to answer.
        metrics.error(m.name(), m.version(), ServerMetrics.HTTP, "client_gone");
        cb.failed(e);
        return;
      }
      if (body.length > max) {
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        throw BadRequest.of(
            "the body is more than "
                + max
                + " bytes; this server reads at most "
                + max
                + " (--max-body)");
      }
      String header = request.getHeaders().get(INFERENCE_HEADER);
      long headerLength = -1;
      if (header != null) {
        try {
          headerLength = Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
          headerLength = -2;
        }
        if (headerLength < 0) {
          throw BadRequest.of(
              INFERENCE_HEADER
                  + " is '"
                  + header
                  + "'; expected the JSON header's length in bytes");
        }
      }
      InferRequest parsed = Protocol.read(body, headerLength, m.signature());
      Batcher.Job job =
          new Batcher.Job(
              parsed,
              start,
              (out, failure) -> {
                completed.incrementAndGet();
                m.stats().answered(failure == null, start);
                if (failure != null) {
                  boolean draining = failure instanceof IllegalStateException;
                  metrics.error(
                      m.name(),
                      m.version(),
                      ServerMetrics.HTTP,
                      draining ? "overloaded" : "failed");
                  metrics.answered(
                      m.name(), m.version(), ServerMetrics.HTTP, draining ? "503" : "500", start);
                  reply(
                      response,
                      cb,
                      draining ? 503 : 500,
                      Protocol.error("the model failed: " + failure.getMessage()));
                } else {
                  metrics.answered(m.name(), m.version(), ServerMetrics.HTTP, "200", start);
                  Protocol.Answer a =
                      Protocol.answer(m.name(), m.version(), parsed, m.signature().outputs(), out);
                  if (a.headerLength() >= 0) {
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
                    response.getHeaders().put(INFERENCE_HEADER, String.valueOf(a.headerLength()));
                    response.write(true, ByteBuffer.wrap(a.body()), cb);
                  } else {
                    reply(response, cb, 200, a.body());
                  }
                }
              });
      if (m.offer(job)) {
        accepted.incrementAndGet();
      } else if (m.isClosing() && ready) {
        throw new BadRequest(
            404,
            "unknown model '"
                + m.name()
                + "': version "
                + m.version()
                + " was unloaded while this request was read; this server serves "
                + table.describe());
      } else {
        throw new BadRequest(
            503,
            "overloaded: "
                + config.maxQueue()
                + " requests are already waiting (--max-queue); retry later");
      }
    }

    private void requireGet(String method) throws BadRequest {
      if (!method.equals("GET") && !method.equals("HEAD")) {
        throw new BadRequest(405, "this path takes GET, got " + method);
      }
    }
  }

  private void refuse(
      Response response, Callback cb, BadRequest e, long start, boolean infer, ServedModel m) {
    if (infer) {
      String model = m == null ? "" : m.name();
      String version = m == null ? "" : m.version();
      metrics.error(
          model,
          version,
          ServerMetrics.HTTP,
          switch (e.status) {
            case 404 -> "unknown_model";
            case 503 -> "overloaded";
            default -> "bad_request";
          });
      metrics.answered(model, version, ServerMetrics.HTTP, String.valueOf(e.status), start);
      if (m != null) {
        m.stats().answered(false, start);
      }
    }
    if (e.status == 503) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    }
    reply(response, cb, e.status, Protocol.error(e.getMessage()));
  }

  private static void reply(Response response, Callback cb, int status, byte[] json) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.write(true, ByteBuffer.wrap(json), cb);
  }
}
