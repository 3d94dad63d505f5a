package dev.kiln.serving;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * An HTTP server for one model that speaks the Open Inference Protocol (KServe v2): {@code GET
 * /v2/health/live}, {@code GET /v2/health/ready}, {@code GET /v2}, {@code GET /v2/models/NAME},
 * {@code GET /v2/models/NAME/ready}, {@code POST /v2/models/NAME/infer} and {@code GET /metrics}
 * (Prometheus text); with {@link Builder#grpcPort(int)}, also the protocol's gRPC service ({@code
 * inference.GRPCInferenceService}, {@link GrpcService}) on a port of its own, over the same
 * replicas, batching, limits and metrics.
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
 * <p>Threads: the builder and {@link #start()} on any one thread; {@link #shutdown()}, the counters
 * and the accessors from any thread. HTTP requests are read on Jetty's pool, gRPC calls on a pool
 * of four of the server's own; each replica runs on its own thread, and answers are written from
 * Jetty's pool.
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
    private String model;
    private Predictor predictor;
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
      Objects.requireNonNull(name, "name");
      if (!name.matches("[A-Za-z0-9_.-]+")) {
        throw new IllegalArgumentException(
            "model name " + name + ": a model name takes letters, digits, '_', '.' and '-' only");
      }
      this.model = name;
      this.predictor = Objects.requireNonNull(predictor, "predictor");
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
      if (predictor == null) {
        throw new IllegalStateException("no model to serve: call model(name, predictor) first");
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
      return new InferenceServer(model, predictor, config);
    }
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

  private final String model;
  private final Config config;
  private final Signature signature;
  private final List<Port> inputs;
  private final List<Port> outputs;
  private final Server server;
  private final ServerConnector connector;
  private final Batcher batcher;
  private final ServerMetrics metrics;
  private final io.grpc.Server grpc;
  private final ExecutorService grpcExecutor;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong completed = new AtomicLong();
  private volatile boolean ready;
  private boolean started;
  private boolean shutDown;

  private InferenceServer(String model, Predictor prototype, Config config) {
    this.model = model;
    this.config = config;
    this.signature = Signature.of(prototype);
    this.inputs = prototype.inputs();
    this.outputs = prototype.outputs();
    List<Predictor> replicas = new ArrayList<>();
    replicas.add(prototype);
    try {
      for (int r = 1; r < config.replicas(); r++) {
        replicas.add(prototype.copy());
      }
    } catch (RuntimeException e) {
      replicas.forEach(Predictor::close);
      throw e;
    }
    QueuedThreadPool pool = new QueuedThreadPool(64, 4);
    pool.setName("kiln-serve-http");
    pool.setDaemon(true);
    Batcher[] holder = new Batcher[1];
    this.metrics =
        new ServerMetrics(
            model, config.maxBatch(), () -> holder[0] == null ? 0 : holder[0].depth());
    this.batcher =
        new Batcher(
            replicas, config.maxBatch(), config.maxDelayMs(), config.maxQueue(), metrics, pool);
    holder[0] = batcher;
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
    return new InferenceServer(model, prototype, config).start();
  }

  /**
   * Starts serving: binds each replica's executors, then opens the port. On failure the server is
   * shut down (its replicas freed).
   *
   * @return this server, serving
   * @throws IOException if the port cannot be opened
   * @throws IllegalStateException if it was started or shut down before
   */
  public synchronized InferenceServer start() throws IOException {
    if (started || shutDown) {
      throw new IllegalStateException(
          "server of " + model + " was already " + (shutDown ? "shut down" : "started"));
    }
    started = true;
    try {
      batcher.warmUp();
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

  /** The model's name in the protocol's paths. */
  public String model() {
    return model;
  }

  /** The batch size a batch of {@code n} examples runs at (padded to a power of two). */
  public int bucket(int n) {
    return batcher.bucket(n);
  }

  /**
   * Drains and stops: not ready from now on, no new connections, every request already read
   * answered (for up to {@link Config#drainMillis()}), then the replicas freed. Idempotent.
   */
  public synchronized void shutdown() {
    if (shutDown) {
      return;
    }
    shutDown = true;
    ready = false;
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
      System.err.println("kiln serving " + model + ": stopping the HTTP server: " + e);
    } finally {
      try {
        if (grpc != null) {
          long left = Math.max(0, deadline - System.nanoTime());
          if (!grpc.awaitTermination(left, TimeUnit.NANOSECONDS)) {
            System.err.println(
                "kiln serving "
                    + model
                    + ": gRPC calls still open after the drain limit; cancelling them");
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        // Answers every request still queued (on the replicas' own threads once the HTTP pool
        // has stopped), then frees the replicas.
        batcher.close();
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

  /** The model's inputs and outputs, with their datatypes. */
  Signature signature() {
    return signature;
  }

  /** The model's inputs. */
  List<Port> inputs() {
    return inputs;
  }

  /** The model's outputs. */
  List<Port> outputs() {
    return outputs;
  }

  ServerMetrics metrics() {
    return metrics;
  }

  int maxQueue() {
    return config.maxQueue();
  }

  /** Queues a checked request for a replica; false when the queue is full or stopping. */
  boolean offer(Batcher.Job job) {
    return batcher.offer(job);
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
          meta.put("extensions", List.of("binary_tensor_data"));
          reply(response, callback, 200, Protocol.object(meta));
        } else if (path.equals("/metrics")) {
          requireGet(method);
          response.setStatus(200);
          response.getHeaders().put(HttpHeader.CONTENT_TYPE, ServerMetrics.contentType());
          response.write(true, ByteBuffer.wrap(metrics.scrape()), callback);
        } else if (path.startsWith("/v2/models/")) {
          model(path.substring("/v2/models/".length()), method, request, response, callback, start);
        } else {
          throw new BadRequest(
              404,
              "no such path: "
                  + path
                  + "; this server answers /v2/health/live, /v2/health/ready, /v2/models/"
                  + model
                  + ", /v2/models/"
                  + model
                  + "/infer and /metrics");
        }
      } catch (BadRequest e) {
        refuse(response, callback, e, start, path.endsWith("/infer"));
      }
      return true;
    }

    private void model(
        String rest, String method, Request request, Response response, Callback cb, long start)
        throws BadRequest {
      String[] parts = rest.split("/", -1);
      String name = parts[0];
      if (!name.equals(model)) {
        throw new BadRequest(
            404, "unknown model '" + name + "'; this server serves '" + model + "'");
      }
      int at = 1;
      // /v2/models/NAME/versions/1/...: the one version there is.
      if (parts.length > 2 && parts[1].equals("versions")) {
        if (!parts[2].equals("1")) {
          throw new BadRequest(
              404, "model '" + model + "' has no version '" + parts[2] + "'; it has version 1");
        }
        at = 3;
      }
      String what = parts.length > at ? parts[at] : "";
      if (parts.length > at + 1) {
        throw new BadRequest(404, "no such path under /v2/models/" + model + ": /" + rest);
      }
      switch (what) {
        case "" -> {
          requireGet(method);
          reply(response, cb, 200, Protocol.metadata(model, signature));
        }
        case "ready" -> {
          requireGet(method);
          Map<String, Object> body = new LinkedHashMap<>();
          body.put("name", model);
          body.put("ready", ready);
          reply(response, cb, ready ? 200 : 503, Protocol.object(body));
        }
        case "infer" -> {
          if (!method.equals("POST")) {
            throw new BadRequest(405, "infer takes POST, got " + method);
          }
          infer(request, response, cb, start);
        }
        default ->
            throw new BadRequest(404, "no such path under /v2/models/" + model + ": /" + rest);
      }
    }

    private void infer(Request request, Response response, Callback cb, long start)
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
            metrics.error("client_gone");
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
        metrics.error("client_gone");
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
      InferRequest parsed = Protocol.read(body, headerLength, signature);
      Batcher.Job job =
          new Batcher.Job(
              parsed,
              start,
              (out, failure) -> {
                completed.incrementAndGet();
                if (failure != null) {
                  boolean draining = failure instanceof IllegalStateException;
                  metrics.error(draining ? "overloaded" : "failed");
                  metrics.answered(draining ? 503 : 500, start);
                  reply(
                      response,
                      cb,
                      draining ? 503 : 500,
                      Protocol.error("the model failed: " + failure.getMessage()));
                } else {
                  metrics.answered(200, start);
                  Protocol.Answer a = Protocol.answer(model, parsed, outputs, out);
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
      if (batcher.offer(job)) {
        accepted.incrementAndGet();
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

  private void refuse(Response response, Callback cb, BadRequest e, long start, boolean infer) {
    if (infer) {
      metrics.error(
          switch (e.status) {
            case 404 -> "unknown_model";
            case 503 -> "overloaded";
            default -> "bad_request";
          });
      metrics.answered(e.status, start);
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
