package dev.kiln.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.sample.models.FashionMlpModel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The server as a library: a plain Java program builds it in one statement, serves a model on
 * loopback, and shuts it down.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InferenceServerBuilderTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  void aBuiltServerAnswersLikeThePredictorAndDrains() throws Exception {
    float[] x = new float[2 * 784];
    Random rng = new Random(3);
    for (int i = 0; i < x.length; i++) {
      x[i] = rng.nextFloat();
    }
    float[] expected;
    try (FashionMlpModel model = FashionMlpModel.create(Init.xavier(), 5);
        Predictor reference = model.predictor()) {
      expected = reference.predict(2, x)[0];
      InferenceServer server =
          InferenceServer.builder()
              .model("fashion", model.predictor())
              .port(0)
              .replicas(2)
              .batching(8, 1)
              .build()
              .start();
      URI base = server.uri();
      try {
        assertEquals("127.0.0.1", base.getHost());
        assertTrue(server.port() > 0);
        assertEquals(200, get(base, "/v2/health/ready").statusCode());
        JsonObject meta = JsonParser.parseString(get(base, "/v2").body()).getAsJsonObject();
        assertEquals(InferenceServer.version(), meta.get("version").getAsString());
        assertFalse(InferenceServer.version().equals("unknown"), "version.properties is filtered");
        JsonObject model0 =
            JsonParser.parseString(get(base, "/v2/models/fashion").body()).getAsJsonObject();
        assertEquals(
            "pixels",
            model0.getAsJsonArray("inputs").get(0).getAsJsonObject().get("name").getAsString());

        StringBuilder body =
            new StringBuilder(
                "{\"inputs\":[{\"name\":\"pixels\",\"shape\":[2,784],\"datatype\":\"FP32\",\"data\":[");
        for (int i = 0; i < x.length; i++) {
          body.append(i == 0 ? "" : ",").append(x[i]);
        }
        body.append("]}]}");
        HttpResponse<String> answer =
            HTTP.send(
                HttpRequest.newBuilder(base.resolve("/v2/models/fashion/infer"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        JsonArray data =
            JsonParser.parseString(answer.body())
                .getAsJsonObject()
                .getAsJsonArray("outputs")
                .get(0)
                .getAsJsonObject()
                .getAsJsonArray("data");
        assertEquals(expected.length, data.size());
        for (int i = 0; i < expected.length; i++) {
          assertEquals(expected[i], data.get(i).getAsFloat(), 1e-5f, "output " + i);
        }
        assertEquals(1, server.completed());
        assertThrows(IllegalStateException.class, server::start);
      } finally {
        server.shutdown();
      }
      server.awaitShutdown();
      assertThrows(java.io.IOException.class, () -> get(base, "/v2/health/live"));
    }
  }

  @Test
  void twoModelsOfTwoVersionsEachAnswerAsTheirOwnPredictors() throws Exception {
    float[] x = new float[784];
    for (int i = 0; i < x.length; i++) {
      x[i] = (i % 13) / 13f;
    }
    java.util.Map<String, float[]> expected = new java.util.HashMap<>();
    InferenceServer.Builder builder = InferenceServer.builder().batching(4, 1);
    for (String name : java.util.List.of("a", "b")) {
      for (int v = 1; v <= 2; v++) {
        try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), name.hashCode() + v)) {
          Predictor p = m.predictor();
          expected.put(name + "/" + v, p.predict(1, x)[0]);
          builder.model(name, v, p);
        }
      }
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> InferenceServer.builder().model("a", 0, null),
        "version 0");
    try (InferenceServer server = builder.build().start()) {
      assertEquals(java.util.List.of("a", "b"), server.models());
      assertEquals(java.util.List.of("1", "2"), server.versions("b"));
      StringBuilder body =
          new StringBuilder(
              "{\"inputs\":[{\"name\":\"pixels\",\"shape\":[1,784],\"datatype\":\"FP32\",\"data\":[");
      for (int i = 0; i < x.length; i++) {
        body.append(i == 0 ? "" : ",").append(x[i]);
      }
      body.append("]}]}");
      for (String path :
          java.util.List.of(
              "a/versions/1", "a/versions/2", "a", "b/versions/1", "b/versions/2", "b")) {
        HttpResponse<String> r =
            HTTP.send(
                HttpRequest.newBuilder(server.uri().resolve("/v2/models/" + path + "/infer"))
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonObject o = JsonParser.parseString(r.body()).getAsJsonObject();
        String key = o.get("model_name").getAsString() + "/" + o.get("model_version").getAsString();
        assertEquals(path.contains("versions/1") ? 1 : 2, Integer.parseInt(key.split("/")[1]));
        JsonArray data =
            o.getAsJsonArray("outputs").get(0).getAsJsonObject().getAsJsonArray("data");
        float[] want = expected.get(key);
        for (int i = 0; i < want.length; i++) {
          assertEquals(want[i], data.get(i).getAsFloat(), 1e-5f, key + " output " + i);
        }
      }
      assertEquals(404, get(server.uri(), "/v2/models/a/versions/3").statusCode());
    }
  }

  @Test
  void aServerNeedsAModelWithAUsableName() {
    assertThrows(IllegalStateException.class, () -> InferenceServer.builder().port(0).build());
    try (FashionMlpModel model = FashionMlpModel.create(Init.xavier(), 5);
        Predictor p = model.predictor()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> InferenceServer.builder().model("a b", p));
      assertTrue(e.getMessage().contains("letters, digits"), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> InferenceServer.builder().port(70000));
    }
  }

  private static HttpResponse<String> get(URI base, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
