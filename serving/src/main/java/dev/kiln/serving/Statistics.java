package dev.kiln.serving;

import com.google.gson.stream.JsonWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The JSON of the statistics extension ({@code GET /v2/models[/NAME[/versions/V]]/stats}) and of
 * the repository extension's index ({@code POST /v2/repository/index}), in Triton's shapes.
 *
 * <p>Statistics: {@code {"model_stats": [{"name", "version", "last_inference" (ms since the epoch,
 * 0 before the first), "inference_count" (examples inferred), "execution_count" (batches run),
 * "inference_stats": {"success", "fail", "queue", "compute_infer"}, "batch_stats": [{"batch_size",
 * "compute_infer"}]}]}}, each duration {@code {"count", "ns"}}. Kiln times the model run as one
 * step, so it reports {@code compute_infer} and no {@code compute_input} or {@code compute_output}.
 */
final class Statistics {
  private Statistics() {}

  static byte[] json(List<ServedModel> models) {
    return write(
        w -> {
          w.beginObject().name("model_stats").beginArray();
          for (ServedModel m : models) {
            ModelStats.Snapshot s = m.stats().snapshot();
            w.beginObject();
            w.name("name").value(m.name());
            w.name("version").value(m.version());
            w.name("last_inference").value(s.lastInferenceMs());
            w.name("inference_count").value(s.inferenceCount());
            w.name("execution_count").value(s.executionCount());
            w.name("inference_stats").beginObject();
            duration(w, "success", s.success());
            duration(w, "fail", s.fail());
            duration(w, "queue", s.queue());
            duration(w, "compute_infer", s.computeInfer());
            w.endObject();
            w.name("batch_stats").beginArray();
            for (Map.Entry<Integer, ModelStats.Duration> b : s.batches().entrySet()) {
              w.beginObject();
              w.name("batch_size").value(b.getKey());
              duration(w, "compute_infer", b.getValue());
              w.endObject();
            }
            w.endArray();
            w.endObject();
          }
          w.endArray().endObject();
        });
  }

  private static void duration(JsonWriter w, String name, ModelStats.Duration d)
      throws IOException {
    w.name(name).beginObject().name("count").value(d.count()).name("ns").value(d.ns()).endObject();
  }

  /** {@code [{"name", "version", "state", "reason"}]}, state READY, UNAVAILABLE or empty. */
  static byte[] index(List<Repository.Entry> entries) {
    return write(
        w -> {
          w.beginArray();
          for (Repository.Entry e : entries) {
            w.beginObject();
            w.name("name").value(e.name());
            w.name("version").value(e.version());
            w.name("state").value(e.state());
            w.name("reason").value(e.reason());
            w.endObject();
          }
          w.endArray();
        });
  }

  private interface Body {
    void write(JsonWriter w) throws IOException;
  }

  private static byte[] write(Body body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (JsonWriter w = new JsonWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8))) {
      body.write(w);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
