package dev.kiln.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import dev.kiln.runtime.Init;
import dev.kiln.serving.grpc.GRPCInferenceServiceGrpc;
import dev.kiln.serving.grpc.GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub;
import dev.kiln.serving.grpc.GrpcInference.InferTensorContents;
import dev.kiln.serving.grpc.GrpcInference.ModelInferRequest;
import dev.kiln.serving.grpc.GrpcInference.ModelInferResponse;
import dev.kiln.serving.grpc.GrpcInference.ModelMetadataRequest;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Token ids (INT64, INT32) into an {@code @Embedding} model over both protocols: the metadata says
 * INT64, every way of sending ids (JSON, binary, typed and raw gRPC contents) gets the model's
 * in-process answer, and ids out of the table, beyond 2^24, or not whole, and FP16/BF16 and BOOL
 * tensors, are refused with a reason.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TokenIdsTest {
  private static TokenNetModel model;
  private static InferenceServer server;
  private static ManagedChannel channel;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void serve() throws Exception {
    model = TokenNetModel.create(Init.xavier(), 21);
    server =
        InferenceServer.builder()
            .model("tokens", model.predictor())
            .batching(8, 1)
            .grpcPort(0)
            .build()
            .start();
    channel =
        ManagedChannelBuilder.forAddress("127.0.0.1", server.grpcPort()).usePlaintext().build();
  }

  @AfterAll
  static void stop() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdown();
    model.close();
  }

  private static GRPCInferenceServiceBlockingStub stub() {
    return GRPCInferenceServiceGrpc.newBlockingStub(channel)
        .withDeadlineAfter(30, TimeUnit.SECONDS);
  }

  private static long[] ids(Random rng, int n) {
    return LongStream.range(0, n * 6L).map(i -> rng.nextInt(50)).toArray();
  }

  private static float[] forward(long[] ids, int n) {
    float[] x = new float[ids.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = ids[i];
    }
    synchronized (model) {
      try (NDManager nd = NDManager.newBaseManager()) {
        return model.forward(nd.create(x, new Shape(n, 6))).toFloatArray();
      }
    }
  }

  private static String json(String datatype, int n, String data) {
    return "{\"inputs\":[{\"name\":\"tokens\",\"shape\":["
        + n
        + ",6],\"datatype\":\""
        + datatype
        + "\",\"data\":["
        + data
        + "]}]}";
  }

  private static String list(long[] ids) {
    return Arrays.stream(ids).mapToObj(Long::toString).collect(Collectors.joining(","));
  }

  private static HttpResponse<String> post(String body, byte[] binary) throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create(server.uri() + "/v2/models/tokens/infer"))
            .timeout(Duration.ofSeconds(30));
    if (binary == null) {
      r.POST(HttpRequest.BodyPublishers.ofString(body));
    } else {
      byte[] head = body.getBytes(StandardCharsets.UTF_8);
      byte[] all = Arrays.copyOf(head, head.length + binary.length);
      System.arraycopy(binary, 0, all, head.length, binary.length);
      r.header(InferenceServer.INFERENCE_HEADER, Integer.toString(head.length))
          .POST(HttpRequest.BodyPublishers.ofByteArray(all));
    }
    return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void check(float[] expected, float[] got) {
    assertEquals(expected.length, got.length);
    for (int i = 0; i < expected.length; i++) {
      assertTrue(
          Math.abs(got[i] - expected[i]) <= 1e-5 * Math.abs(expected[i]) + 1e-6,
          "output " + i + ": in process " + expected[i] + ", served " + got[i]);
    }
  }

  private static void checkHttp(HttpResponse<String> r, long[] ids, int n) {
    assertEquals(200, r.statusCode(), r.body());
    JsonObject out =
        JsonParser.parseString(r.body())
            .getAsJsonObject()
            .getAsJsonArray("outputs")
            .get(0)
            .getAsJsonObject();
    assertEquals("FP32", out.get("datatype").getAsString());
    JsonArray data = out.getAsJsonArray("data");
    float[] got = new float[data.size()];
    for (int i = 0; i < got.length; i++) {
      got[i] = data.get(i).getAsFloat();
    }
    check(forward(ids, n), got);
  }

  private static ByteBuffer little(int bytes) {
    return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static ModelInferRequest grpc(
      String datatype, int n, InferTensorContents c, ByteString raw) {
    ModelInferRequest.InferInputTensor.Builder t =
        ModelInferRequest.InferInputTensor.newBuilder()
            .setName("tokens")
            .setDatatype(datatype)
            .addShape(n)
            .addShape(6);
    if (c != null) {
      t.setContents(c);
    }
    ModelInferRequest.Builder q =
        ModelInferRequest.newBuilder().setModelName("tokens").addInputs(t);
    if (raw != null) {
      q.addRawInputContents(raw);
    }
    return q.build();
  }

  private static float[] values(ModelInferResponse a) {
    if (a.getRawOutputContentsCount() > 0) {
      ByteBuffer b =
          a.getRawOutputContents(0).asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
      float[] f = new float[b.remaining() / 4];
      b.asFloatBuffer().get(f);
      return f;
    }
    float[] f = new float[a.getOutputs(0).getContents().getFp32ContentsCount()];
    for (int i = 0; i < f.length; i++) {
      f[i] = a.getOutputs(0).getContents().getFp32Contents(i);
    }
    return f;
  }

  @Test
  void theMetadataSaysInt64AndEveryWayOfSendingIdsGetsTheInProcessAnswer() throws Exception {
    String meta =
        HTTP.send(
                HttpRequest.newBuilder(URI.create(server.uri() + "/v2/models/tokens")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    JsonObject input =
        JsonParser.parseString(meta)
            .getAsJsonObject()
            .getAsJsonArray("inputs")
            .get(0)
            .getAsJsonObject();
    assertEquals("INT64", input.get("datatype").getAsString(), meta);
    assertEquals(
        "INT64",
        stub()
            .modelMetadata(ModelMetadataRequest.newBuilder().setName("tokens").build())
            .getInputs(0)
            .getDatatype());

    Random rng = new Random(8);
    for (int n = 1; n <= 3; n++) {
      long[] ids = ids(rng, n);
      ids[0] = 49; // the last row
      ids[1] = 0;
      // HTTP: JSON INT64, JSON INT32, JSON FP32 whole numbers, binary INT64 and INT32.
      checkHttp(post(json("INT64", n, list(ids)), null), ids, n);
      checkHttp(post(json("INT32", n, list(ids)), null), ids, n);
      checkHttp(post(json("FP32", n, list(ids)), null), ids, n);
      ByteBuffer b64 = little(ids.length * 8);
      b64.asLongBuffer().put(ids);
      String binaryHead =
          "{\"inputs\":[{\"name\":\"tokens\",\"shape\":["
              + n
              + ",6],\"datatype\":\"%s\",\"parameters\":{\"binary_data_size\":%d}}]}";
      checkHttp(post(String.format(binaryHead, "INT64", ids.length * 8), b64.array()), ids, n);
      ByteBuffer b32 = little(ids.length * 4);
      for (long id : ids) {
        b32.putInt((int) id);
      }
      checkHttp(post(String.format(binaryHead, "INT32", ids.length * 4), b32.array()), ids, n);

      // gRPC: typed int64_contents and int_contents, raw INT64 and INT32.
      InferTensorContents.Builder c64 = InferTensorContents.newBuilder();
      InferTensorContents.Builder c32 = InferTensorContents.newBuilder();
      for (long id : ids) {
        c64.addInt64Contents(id);
        c32.addIntContents((int) id);
      }
      float[] expected = forward(ids, n);
      ModelInferResponse a = stub().modelInfer(grpc("INT64", n, c64.build(), null));
      assertEquals("FP32", a.getOutputs(0).getDatatype());
      check(expected, values(a));
      check(expected, values(stub().modelInfer(grpc("INT32", n, c32.build(), null))));
      check(
          expected,
          values(stub().modelInfer(grpc("INT64", n, null, ByteString.copyFrom(b64.array())))));
      check(
          expected,
          values(stub().modelInfer(grpc("INT32", n, null, ByteString.copyFrom(b32.array())))));
    }
  }

  /** A refused request over HTTP (400) and over gRPC (INVALID_ARGUMENT), with a reason. */
  private static void refused(String body, ModelInferRequest q, String phrase) throws Exception {
    HttpResponse<String> r = post(body, null);
    assertEquals(400, r.statusCode(), r.body());
    assertTrue(r.body().contains(phrase), "expected '" + phrase + "' in " + r.body());
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> stub().modelInfer(q));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode(), e.getStatus() + "");
    assertTrue(
        e.getStatus().getDescription().contains(phrase),
        "expected '" + phrase + "' in " + e.getStatus().getDescription());
  }

  private static InferTensorContents int64s(long... v) {
    InferTensorContents.Builder c = InferTensorContents.newBuilder();
    for (long x : v) {
      c.addInt64Contents(x);
    }
    return c.build();
  }

  @Test
  void idsOutOfTheTableBeyondTwoToThe24OrNotWholeAndOtherDatatypesAreRefused() throws Exception {
    refused(
        json("INT64", 1, "1,2,3,50,4,5"),
        grpc("INT64", 1, int64s(1, 2, 3, 50, 4, 5), null),
        "holds id 50 at flat index 3; embedding 'embedded' has 50 rows: ids 0 to 49");
    refused(
        json("INT64", 1, "1,2,-1,3,4,5"),
        grpc("INT64", 1, int64s(1, 2, -1, 3, 4, 5), null),
        "holds id -1 at flat index 2; embedding 'embedded' has 50 rows");
    refused(
        json("INT64", 1, "16777217,2,3,4,5,6"),
        grpc("INT64", 1, int64s(16777217, 2, 3, 4, 5, 6), null),
        "holds 16777217 at flat index 0, which FP32 cannot hold exactly; token ids are whole"
            + " numbers below 2^24 = 16777216");
    ByteBuffer half = little(6 * 2);
    refused(
        json("FP16", 1, "1,2,3,4,5,6"),
        grpc("FP16", 1, null, ByteString.copyFrom(half.array())),
        "has datatype FP16; this server takes FP32 (and INT64 or INT32 token ids)");
    refused(
        json("BF16", 1, "1,2,3,4,5,6"),
        grpc("BF16", 1, null, ByteString.copyFrom(half.array())),
        "has datatype BF16; this server takes FP32");
    // Whole FP32 values are ids; 2.5 is none.
    InferTensorContents.Builder f = InferTensorContents.newBuilder();
    for (float v : new float[] {1, 2, 2.5f, 3, 4, 5}) {
      f.addFp32Contents(v);
    }
    refused(
        json("FP32", 1, "1,2,2.5,3,4,5"),
        grpc("FP32", 1, f.build(), null),
        "holds 2.5 at flat index 2; token ids are whole numbers");
    // BOOL is no datatype of ids.
    HttpResponse<String> r = post(json("BOOL", 1, "1,0,1,0,1,0"), null);
    assertEquals(400, r.statusCode(), r.body());
    assertTrue(
        r.body().contains("has datatype BOOL; expected INT64 token ids for embedding 'embedded'"),
        r.body());
    // INT32 raw bytes that are no whole number of values.
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub().modelInfer(grpc("INT64", 1, null, ByteString.copyFrom(new byte[44]))));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertTrue(
        e.getStatus()
            .getDescription()
            .contains("not a whole number of INT64 values (8 bytes each)"),
        e.getStatus().getDescription());
    // Still serving.
    long[] ids = {1, 2, 3, 4, 5, 6};
    checkHttp(post(json("INT64", 1, list(ids)), null), ids, 1);
  }
}
