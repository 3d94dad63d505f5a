package dev.kiln.serving;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The server's Prometheus metrics, in a registry of its own (two servers in one JVM keep theirs
 * apart), written in Prometheus's text format for {@code GET /metrics}. Every Kiln metric is
 * labelled with the model and its version ({@code model}, {@code version}; both empty for a request
 * that named no model served):
 *
 * <ul>
 *   <li>{@code kiln_requests_total{model, version, protocol, code}}: answered infer requests by
 *       protocol ({@code http} or {@code grpc}) and status (the HTTP status, or the gRPC status's
 *       name: {@code OK}, {@code INVALID_ARGUMENT}, ...);
 *   <li>{@code kiln_request_errors_total{model, version, protocol, reason}}: refused or failed ones
 *       by reason ({@code bad_request}, {@code unknown_model}, {@code overloaded}, {@code failed},
 *       {@code client_gone});
 *   <li>{@code kiln_request_duration_seconds{model, version, protocol}}: from the request's arrival
 *       to its answer;
 *   <li>{@code kiln_batch_size{model, version}}: examples per batch the model ran (before padding);
 *   <li>{@code kiln_queue_depth{model, version}}: requests waiting for a replica;
 *   <li>the Prometheus client's standard JVM and process metrics ({@code JvmMetrics}): among them
 *       {@code process_cpu_seconds_total}, the CPU the whole server process used (MXNet's threads
 *       included), which {@code loadtest} reads before and after its run to give the server's CPU
 *       per request.
 * </ul>
 */
final class ServerMetrics {
  /** The protocols' label values. */
  static final String HTTP = "http";

  static final String GRPC = "grpc";

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter requests;
  private final Counter errors;
  private final Histogram latency;
  private final Histogram batches;

  ServerMetrics(int maxBatch, ModelTable models) {
    requests =
        Counter.builder()
            .name("kiln_requests_total")
            .help("Infer requests answered, by protocol and status")
            .labelNames("model", "version", "protocol", "code")
            .register(registry);
    errors =
        Counter.builder()
            .name("kiln_request_errors_total")
            .help("Infer requests refused or failed, by reason")
            .labelNames("model", "version", "protocol", "reason")
            .register(registry);
    latency =
        Histogram.builder()
            .name("kiln_request_duration_seconds")
            .help("Time from an infer request's arrival to its answer")
            .labelNames("model", "version", "protocol")
            .classicOnly()
            .classicUpperBounds(
                0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5)
            .register(registry);
    batches =
        Histogram.builder()
            .name("kiln_batch_size")
            .help("Examples in each batch the model ran (before padding)")
            .labelNames("model", "version")
            .classicOnly()
            .classicUpperBounds(bounds(maxBatch))
            .register(registry);
    GaugeWithCallback.builder()
        .name("kiln_queue_depth")
        .help("Infer requests waiting for a replica")
        .labelNames("model", "version")
        .callback(
            cb -> {
              for (ServedModel m : models.all()) {
                cb.call(m.depth(), m.name(), m.version());
              }
            })
        .register(registry);
    JvmMetrics.builder().register(registry);
  }

  private static double[] bounds(int maxBatch) {
    int n = 1;
    while ((1 << (n - 1)) < maxBatch) {
      n++;
    }
    double[] b = new double[n];
    for (int i = 0; i < n; i++) {
      b[i] = Math.min(1 << i, maxBatch);
    }
    return java.util.Arrays.stream(b).distinct().toArray();
  }

  /** An infer request of {@code protocol} for a model version answered with {@code code}. */
  void answered(String model, String version, String protocol, String code, long startNanos) {
    requests.labelValues(model, version, protocol, code).inc();
    latency.labelValues(model, version, protocol).observe((System.nanoTime() - startNanos) / 1e9);
  }

  /** An infer request of {@code protocol} refused or failed. */
  void error(String model, String version, String protocol, String reason) {
    errors.labelValues(model, version, protocol, reason).inc();
  }

  /** A batch of {@code examples} ran. */
  void batch(String model, String version, int examples) {
    batches.labelValues(model, version).observe(examples);
  }

  /** Every metric in Prometheus's text format. */
  byte[] scrape() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      PrometheusTextFormatWriter.create().write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  static String contentType() {
    return PrometheusTextFormatWriter.CONTENT_TYPE;
  }
}
