package dev.kiln.sample.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.Init;
import dev.kiln.sample.Main;
import dev.kiln.sample.models.FashionMlpModel;
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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code kiln-sample serve} as a process: it serves a checkpoint, and SIGTERM drains, exit 0. */
class ServeCommandTest {
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void sigtermDrainsAndExitsWithZero(@TempDir Path dir) throws Exception {
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 4)) {
      m.save(dir.resolve("mlp"));
    }
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-Dai.djl.offline=true",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "serve",
                "--checkpoint",
                dir.resolve("mlp").toString(),
                "--port",
                "0",
                "--replicas",
                "2")
            .redirectErrorStream(true)
            .start();
    List<String> lines = new ArrayList<>();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      URI base = null;
      Pattern at = Pattern.compile("serving mlp .* at (http://127\\.0\\.0\\.1:\\d+)/v2/models/mlp");
      for (String line; base == null && (line = out.readLine()) != null; ) {
        lines.add(line);
        Matcher matcher = at.matcher(line);
        if (matcher.find()) {
          base = URI.create(matcher.group(1) + "/");
        }
      }
      assertTrue(base != null, "no serving line in " + lines);
      HttpClient http = HttpClient.newHttpClient();
      StringBuilder body =
          new StringBuilder("{\"inputs\":[{\"name\":\"pixels\",\"shape\":[1,784],");
      body.append("\"datatype\":\"FP32\",\"data\":[");
      for (int i = 0; i < 784; i++) {
        body.append(i == 0 ? "" : ",").append(i % 7 / 7.0);
      }
      body.append("]}]}");
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(base.resolve("v2/models/mlp/infer"))
                  .timeout(Duration.ofSeconds(20))
                  .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      assertTrue(r.body().contains("\"shape\":[1,10]"), r.body());
      p.toHandle().destroy(); // SIGTERM; Process.destroy would also close our end of its output
      assertTrue(p.waitFor(30, TimeUnit.SECONDS), "serve did not stop 30 s after SIGTERM");
      for (String line; (line = out.readLine()) != null; ) {
        lines.add(line);
      }
      assertEquals(0, p.exitValue(), String.join("\n", lines));
      assertTrue(lines.contains("stopped"), String.join("\n", lines));
    } finally {
      p.destroyForcibly();
    }
  }
}
