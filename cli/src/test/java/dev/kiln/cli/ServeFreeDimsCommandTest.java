package dev.kiln.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.infer.Predictor;
import java.io.BufferedReader;
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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kiln serve} as a process on the checkpoint a predictor of a model with free dimensions
 * wrote ({@link TileNet}: H a multiple of 4): no {@code --input} needed, metadata shows -1 for each
 * free size, two sizes answered with their shapes and the model's forward, a size the model cannot
 * take refused with 400 naming the rule.
 */
class ServeFreeDimsCommandTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static String body(float[] x, int h, int w) {
    StringBuilder b = new StringBuilder("{\"inputs\":[{\"name\":\"image\",\"shape\":[1,1,");
    b.append(h).append(',').append(w).append("],\"datatype\":\"FP32\",\"data\":[");
    for (int i = 0; i < x.length; i++) {
      b.append(i == 0 ? "" : ",").append(x[i]);
    }
    return b.append("]}]}").toString();
  }

  private static HttpResponse<String> send(HttpRequest.Builder r) throws Exception {
    return HTTP.send(
        r.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static List<Long> longs(JsonArray a) {
    List<Long> out = new ArrayList<>();
    a.forEach(e -> out.add(e.getAsLong()));
    return out;
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void servesAPredictorCheckpointWithFreeDimensions(@TempDir Path dir) throws Exception {
    try (TileNetModel m = TileNetModel.create(Init.xavier(), 6)) {
      try (Predictor p = m.predictor()) {
        p.save(dir.resolve("tiles"));
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
                  "--checkpoint",
                  dir.resolve("tiles").toString(),
                  "--port",
                  "0")
              .redirectErrorStream(true)
              .start();
      List<String> lines = new ArrayList<>();
      try {
        BufferedReader out =
            new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        URI base = null;
        Pattern at = Pattern.compile("serving tiles .* at (http://127\\.0\\.0\\.1:\\d+)/v2/models");
        for (String line; base == null && (line = out.readLine()) != null; ) {
          lines.add(line);
          Matcher matcher = at.matcher(line);
          if (matcher.find()) {
            base = URI.create(matcher.group(1) + "/");
          }
        }
        assertTrue(base != null, "no serving line in " + lines);
        HttpResponse<String> meta = send(HttpRequest.newBuilder(base.resolve("v2/models/tiles")));
        assertEquals(200, meta.statusCode(), meta.body());
        JsonObject o = JsonParser.parseString(meta.body()).getAsJsonObject();
        assertEquals(
            List.of(-1L, 1L, -1L, -1L),
            longs(o.getAsJsonArray("inputs").get(0).getAsJsonObject().getAsJsonArray("shape")));
        assertEquals(
            List.of(-1L, 2L, -1L, -1L),
            longs(o.getAsJsonArray("outputs").get(0).getAsJsonObject().getAsJsonArray("shape")));
        URI infer = base.resolve("v2/models/tiles/infer");
        Random rng = new Random(8);
        for (int[] hw : new int[][] {{8, 13}, {12, 6}}) {
          float[] x = new float[hw[0] * hw[1]];
          for (int i = 0; i < x.length; i++) {
            x[i] = rng.nextFloat();
          }
          HttpResponse<String> r =
              send(
                  HttpRequest.newBuilder(infer)
                      .POST(HttpRequest.BodyPublishers.ofString(body(x, hw[0], hw[1]))));
          assertEquals(200, r.statusCode(), r.body());
          JsonObject answer =
              JsonParser.parseString(r.body())
                  .getAsJsonObject()
                  .getAsJsonArray("outputs")
                  .get(0)
                  .getAsJsonObject();
          assertEquals(
              List.of(1L, 2L, (long) (hw[0] - 2) / 2, (long) (hw[1] - 2) / 2),
              longs(answer.getAsJsonArray("shape")));
          JsonArray data = answer.getAsJsonArray("data");
          float[] want;
          try (NDManager nd = NDManager.newBaseManager()) {
            want =
                m.forward(nd.create(x, new ai.djl.ndarray.types.Shape(1, 1, hw[0], hw[1])))
                    .toFloatArray();
          }
          assertEquals(want.length, data.size());
          for (int i = 0; i < want.length; i++) {
            assertEquals(want[i], data.get(i).getAsFloat(), 1e-5f, "at " + i);
          }
        }
        float[] bad = new float[6 * 8];
        HttpResponse<String> refused =
            send(
                HttpRequest.newBuilder(infer)
                    .POST(HttpRequest.BodyPublishers.ofString(body(bad, 6, 8))));
        assertEquals(400, refused.statusCode(), refused.body());
        String error =
            JsonParser.parseString(refused.body()).getAsJsonObject().get("error").getAsString();
        // multipleOf = 4 as the compiler writes it: H minus four times the floor of H / 4.
        assertEquals(
            "'image' [1, 1, 6, 8]: H = 6, W = 8 breaks H % 4 == 0, declared by"
                + " @FreeDim(min = 4, multipleOf = 4) int H (at H % 4 = 2)",
            error);
      } finally {
        p.toHandle().destroy();
        p.waitFor(30, TimeUnit.SECONDS);
        p.destroyForcibly();
      }
    }
  }
}
