package dev.kiln.serving;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import com.google.gson.stream.MalformedJsonException;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Prediction;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The JSON of the Open Inference Protocol (KServe v2, Triton's HTTP API): reading an infer request
 * against a model's inputs, with every mistake a {@link BadRequest} that names what was expected
 * and what came, and writing answers and errors. Gson's streaming reader and writer do the JSON.
 */
final class Protocol {
  /** The one datatype served. */
  static final String FP32 = "FP32";

  private Protocol() {}

  /**
   * Reads an infer request body for a model with inputs {@code inputs} and outputs {@code outputs}.
   *
   * @throws BadRequest if the body is not JSON, is not an infer request, or does not fit the model
   */
  static InferRequest read(byte[] body, Signature model) throws BadRequest {
    return read(body, -1, model);
  }

  /**
   * Reads an infer request whose body is {@code headerLength} bytes of JSON followed by the binary
   * data of the inputs that give a {@code binary_data_size} parameter (the protocol's binary tensor
   * data extension: the {@code Inference-Header-Content-Length} header; -1 when absent, the whole
   * body is JSON).
   *
   * @throws BadRequest if the body is not JSON, is not an infer request, or does not fit the model
   */
  static InferRequest read(byte[] body, long headerLength, Signature model) throws BadRequest {
    if (headerLength > body.length) {
      throw BadRequest.of(
          "Inference-Header-Content-Length is "
              + headerLength
              + "; the body holds only "
              + body.length
              + " bytes");
    }
    int json = headerLength < 0 ? body.length : (int) headerLength;
    Reader text =
        new InputStreamReader(new ByteArrayInputStream(body, 0, json), StandardCharsets.UTF_8);
    try (JsonReader r = new JsonReader(text)) {
      // Lenient only so that NaN and Infinity (which Python's json module writes) are read and
      // then refused by name; the shape of the request is checked below.
      r.setStrictness(Strictness.LENIENT);
      return read(r, body, headerLength, model);
    } catch (MalformedJsonException | java.io.EOFException e) {
      throw BadRequest.of("the body is not JSON: " + e.getMessage());
    } catch (IllegalStateException | NumberFormatException e) {
      throw BadRequest.of("the body is not an infer request: " + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InferRequest read(JsonReader r, byte[] body, long headerLength, Signature model)
      throws IOException, BadRequest {
    if (r.peek() != JsonToken.BEGIN_OBJECT) {
      throw BadRequest.of(
          "the body must be a JSON object {\"inputs\": [...]}, got " + describe(r.peek()));
    }
    String id = null;
    List<Tensor> tensors = null;
    List<Asked> asked = null;
    boolean binaryOut = false;
    r.beginObject();
    while (r.hasNext()) {
      String key = r.nextName();
      switch (key) {
        case "id" -> {
          expect(r, JsonToken.STRING, "\"id\"", "a string");
          id = r.nextString();
        }
        case "inputs" -> tensors = readInputs(r);
        case "outputs" -> asked = readOutputNames(r);
        case "parameters" -> binaryOut = readParameters(r, "\"parameters\"").binaryDataOutput;
        default -> r.skipValue();
      }
    }
    r.endObject();
    boolean trailing;
    try {
      trailing = r.peek() != JsonToken.END_DOCUMENT;
    } catch (MalformedJsonException e) {
      trailing = true;
    }
    if (trailing) {
      if (headerLength < 0 && tensors != null) {
        readBinary(tensors, body, -1); // refuses binary data without its header, by name
      }
      throw BadRequest.of("the body holds more than one JSON value");
    }
    if (tensors == null) {
      throw BadRequest.of(
          "the request has no \"inputs\"; expected "
              + signature(model)
              + " (Open Inference"
              + " Protocol: {\"inputs\": [{\"name\", \"shape\", \"datatype\", \"data\"}]})");
    }
    tensors = readBinary(tensors, body, headerLength);
    return check(id, tensors, asked, binaryOut, model);
  }

  /**
   * One input tensor as it came.
   *
   * @param binarySize its {@code binary_data_size} parameter, -1 if none (its data is JSON)
   */
  record Tensor(
      String name,
      long[] shape,
      String datatype,
      float[] data,
      String bad,
      long binarySize,
      String inexact) {}

  /** One output asked for by name, and whether its data is to be binary. */
  record Asked(String name, boolean binary) {}

  /** The parameters the server reads; every other one is ignored. */
  private static final class Parameters {
    long binaryDataSize = -1;
    boolean binaryData;
    boolean binaryDataOutput;
  }

  private static Parameters readParameters(JsonReader r, String where)
      throws IOException, BadRequest {
    expect(r, JsonToken.BEGIN_OBJECT, where, "an object");
    Parameters p = new Parameters();
    r.beginObject();
    while (r.hasNext()) {
      String key = r.nextName();
      switch (key) {
        case "binary_data_size" -> {
          expect(r, JsonToken.NUMBER, where + ".binary_data_size", "a size in bytes");
          double d = r.nextDouble();
          if (d != Math.rint(d) || d < 0 || d > Integer.MAX_VALUE) {
            throw BadRequest.of(where + ".binary_data_size is " + d + ", not a size in bytes");
          }
          p.binaryDataSize = (long) d;
        }
        case "binary_data" -> {
          expect(r, JsonToken.BOOLEAN, where + ".binary_data", "true or false");
          p.binaryData = r.nextBoolean();
        }
        case "binary_data_output" -> {
          expect(r, JsonToken.BOOLEAN, where + ".binary_data_output", "true or false");
          p.binaryDataOutput = r.nextBoolean();
        }
        default -> r.skipValue();
      }
    }
    r.endObject();
    return p;
  }

  /**
   * The tensors with their binary data read from the body after the JSON header, in the order the
   * inputs came (little-endian FP32, row-major), as the binary tensor data extension lays it out.
   */
  private static List<Tensor> readBinary(List<Tensor> tensors, byte[] body, long headerLength)
      throws BadRequest {
    long at = Math.max(0, headerLength);
    List<Tensor> out = new ArrayList<>(tensors.size());
    for (Tensor t : tensors) {
      if (t.binarySize() < 0) {
        out.add(t);
        continue;
      }
      if (headerLength < 0) {
        throw BadRequest.of(
            "input '"
                + t.name()
                + "' gives binary_data_size, but the request has no"
                + " Inference-Header-Content-Length header saying where its JSON ends");
      }
      if (at + t.binarySize() > body.length) {
        throw BadRequest.of(
            "input '"
                + t.name()
                + "' has binary_data_size "
                + t.binarySize()
                + "; the body holds "
                + (body.length - at)
                + " more bytes");
      }
      Values v =
          raw(
              ByteBuffer.wrap(body, (int) at, (int) t.binarySize()),
              t.datatype(),
              "input '" + t.name() + "'",
              "binary_data_size " + t.binarySize());
      at += t.binarySize();
      out.add(
          new Tensor(
              t.name(), t.shape(), t.datatype(), v.data(), v.bad(), t.binarySize(), v.inexact()));
    }
    if (headerLength >= 0 && at != body.length) {
      throw BadRequest.of(
          "the body holds "
              + (body.length - headerLength)
              + " bytes after its "
              + headerLength
              + "-byte JSON header; the inputs' binary_data_size add up to "
              + (at - headerLength));
    }
    return out;
  }

  /**
   * A tensor's values as FP32, with the first that is not finite ({@code bad}) and the first that
   * FP32 does not hold exactly ({@code inexact}), each as "VALUE at flat index I", or null.
   */
  record Values(float[] data, String bad, String inexact) {}

  /** FP32 values, with the first that is not finite. */
  static Values floats(float[] data) {
    String bad = null;
    for (int i = 0; i < data.length && bad == null; i++) {
      if (!Float.isFinite(data[i])) {
        bad = data[i] + " at flat index " + i;
      }
    }
    return new Values(data, bad, null);
  }

  /** Whole numbers as FP32, with the first that FP32 does not hold exactly. */
  static Values whole(long[] values) {
    float[] data = new float[values.length];
    String inexact = null;
    for (int i = 0; i < values.length; i++) {
      data[i] = values[i];
      if (inexact == null && (long) data[i] != values[i]) {
        inexact = values[i] + " at flat index " + i;
      }
    }
    return new Values(data, null, inexact);
  }

  /** The bytes one value of {@code datatype} takes in raw data, 0 for a datatype not read raw. */
  static int width(String datatype) {
    return switch (datatype) {
      case FP32, Signature.INT32 -> 4;
      case Signature.INT64 -> 8;
      default -> 0;
    };
  }

  /**
   * Raw little-endian values of {@code datatype} (FP32, INT64 or INT32), row-major, as FP32.
   *
   * @param where the tensor, for messages ("input 'image'")
   * @param field where its bytes came from, for messages ("binary_data_size 3136")
   */
  static Values raw(ByteBuffer bytes, String datatype, String where, String field)
      throws BadRequest {
    int width = width(datatype);
    if (width == 0) {
      throw BadRequest.of(datatypeRule(where, datatype));
    }
    int size = bytes.remaining();
    if (size % width != 0) {
      throw BadRequest.of(
          where
              + " has "
              + field
              + ", not a whole number of "
              + datatype
              + " values ("
              + width
              + " bytes each)");
    }
    ByteBuffer b = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
    int n = size / width;
    switch (datatype) {
      case FP32 -> {
        float[] data = new float[n];
        b.asFloatBuffer().get(data);
        return floats(data);
      }
      case Signature.INT64 -> {
        long[] values = new long[n];
        b.asLongBuffer().get(values);
        return whole(values);
      }
      default -> {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
          values[i] = b.getInt(i * 4);
        }
        return whole(values);
      }
    }
  }

  /** Why a datatype the server does not read is refused. */
  static String datatypeRule(String where, String datatype) {
    if (datatype.equals("FP16") || datatype.equals("BF16")) {
      return where
          + " has datatype "
          + datatype
          + "; this server takes FP32 (and INT64 or INT32 token ids): the model computes in FP32,"
          + " so send "
          + datatype
          + " values as FP32, which holds every one of them exactly";
    }
    return where
        + " has datatype "
        + datatype
        + "; this server takes FP32, and INT64 or INT32 for token ids";
  }

  private static List<Tensor> readInputs(JsonReader r) throws IOException, BadRequest {
    expect(r, JsonToken.BEGIN_ARRAY, "\"inputs\"", "an array of tensors");
    List<Tensor> out = new ArrayList<>();
    r.beginArray();
    while (r.hasNext()) {
      expect(r, JsonToken.BEGIN_OBJECT, "inputs[" + out.size() + "]", "a tensor object");
      String name = null;
      long[] shape = null;
      String datatype = null;
      FloatList data = null;
      long binarySize = -1;
      r.beginObject();
      while (r.hasNext()) {
        String key = r.nextName();
        switch (key) {
          case "name" -> {
            expect(r, JsonToken.STRING, "inputs[" + out.size() + "].name", "a string");
            name = r.nextString();
          }
          case "datatype" -> {
            expect(r, JsonToken.STRING, "inputs[" + out.size() + "].datatype", "a string");
            datatype = r.nextString();
          }
          case "shape" -> shape = readShape(r, out.size());
          case "data" -> {
            data = new FloatList();
            readData(r, data, "inputs[" + out.size() + "].data", 0);
          }
          case "parameters" ->
              binarySize =
                  readParameters(r, "inputs[" + out.size() + "].parameters").binaryDataSize;
          default -> r.skipValue();
        }
      }
      r.endObject();
      String where = "inputs[" + out.size() + "]" + (name == null ? "" : " ('" + name + "')");
      String missing =
          name == null
              ? "name"
              : shape == null
                  ? "shape"
                  : datatype == null ? "datatype" : data == null && binarySize < 0 ? "data" : null;
      if (missing != null) {
        throw BadRequest.of(where + " has no \"" + missing + "\"");
      }
      if (data != null && binarySize >= 0) {
        throw BadRequest.of(where + " has both \"data\" and a binary_data_size");
      }
      out.add(
          data == null
              ? new Tensor(name, shape, datatype, null, null, binarySize, null)
              : new Tensor(
                  name, shape, datatype, data.toArray(), data.nonFinite, -1, data.inexact));
    }
    r.endArray();
    return out;
  }

  private static long[] readShape(JsonReader r, int index) throws IOException, BadRequest {
    String where = "inputs[" + index + "].shape";
    expect(r, JsonToken.BEGIN_ARRAY, where, "an array of sizes");
    List<Long> dims = new ArrayList<>();
    r.beginArray();
    while (r.hasNext()) {
      expect(r, JsonToken.NUMBER, where + "[" + dims.size() + "]", "a size");
      double d = r.nextDouble();
      if (d != Math.rint(d) || d < 0 || d > Integer.MAX_VALUE) {
        throw BadRequest.of(where + "[" + dims.size() + "] is " + d + ", not a size");
      }
      dims.add((long) d);
      if (dims.size() > 32) {
        throw BadRequest.of(where + " has more than 32 dimensions");
      }
    }
    r.endArray();
    return dims.stream().mapToLong(Long::longValue).toArray();
  }

  /** Reads row-major data, flat or nested, into {@code into}. */
  private static void readData(JsonReader r, FloatList into, String where, int depth)
      throws IOException, BadRequest {
    if (depth > 32) {
      throw BadRequest.of(where + " nests deeper than 32 levels");
    }
    expect(r, JsonToken.BEGIN_ARRAY, where, "an array of numbers");
    r.beginArray();
    while (r.hasNext()) {
      JsonToken t = r.peek();
      if (t == JsonToken.BEGIN_ARRAY) {
        readData(r, into, where, depth + 1);
      } else if (t == JsonToken.NUMBER) {
        String literal = r.nextString();
        double d = number(literal);
        float f = (float) d;
        if (!Float.isFinite(f) && into.nonFinite == null) {
          into.nonFinite = d + " (beyond FP32) at flat index " + into.size;
        }
        if (f != d && into.inexact == null) {
          into.inexact = literal + " at flat index " + into.size;
        }
        into.add(f);
      } else if (t == JsonToken.STRING) {
        // The lenient reader gives a bare NaN or Infinity (as Python's json module writes them)
        // as a string; any other string is not a number.
        String s = r.nextString();
        if (!s.equals("NaN") && !s.equals("Infinity") && !s.equals("-Infinity")) {
          throw BadRequest.of(
              where + " holds a string at flat index " + into.size + ", expected a number");
        }
        if (into.nonFinite == null) {
          into.nonFinite = s + " at flat index " + into.size;
        }
        into.add(Float.NaN);
      } else {
        throw BadRequest.of(
            where
                + " holds "
                + describe(t)
                + " at flat index "
                + into.size
                + ", expected a number");
      }
    }
    r.endArray();
  }

  private static final double[] POWERS_OF_TEN = new double[23];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  /**
   * The double nearest a JSON number literal, exactly as {@link Double#parseDouble} gives it but
   * faster for the common case (the JDK's parser cost a third of a request's reading): a literal of
   * at most 15 significant digits and a decimal exponent within ±22 is one exact integer times or
   * over one exact power of ten, a single correctly rounded operation (Clinger's fast path);
   * anything else goes to {@code Double.parseDouble}.
   */
  static double number(String s) {
    int n = s.length();
    int i = 0;
    boolean negative = n > 0 && s.charAt(0) == '-';
    if (negative) {
      i++;
    }
    long mantissa = 0;
    int digits = 0;
    int scale = 0;
    boolean dot = false;
    boolean any = false;
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        any = true;
        if (mantissa == 0 && c == '0') {
          scale -= dot ? 1 : 0;
          continue;
        }
        if (++digits > 15) {
          return Double.parseDouble(s);
        }
        mantissa = mantissa * 10 + (c - '0');
        scale -= dot ? 1 : 0;
      } else if (c == '.' && !dot) {
        dot = true;
      } else if ((c == 'e' || c == 'E') && any && i + 1 < n) {
        int j = i + 1;
        boolean minus = s.charAt(j) == '-';
        if (minus || s.charAt(j) == '+') {
          j++;
        }
        if (j == n || n - j > 3) {
          return Double.parseDouble(s);
        }
        int exponent = 0;
        for (; j < n; j++) {
          char e = s.charAt(j);
          if (e < '0' || e > '9') {
            return Double.parseDouble(s);
          }
          exponent = exponent * 10 + (e - '0');
        }
        scale += minus ? -exponent : exponent;
        break;
      } else {
        return Double.parseDouble(s);
      }
    }
    if (!any) {
      return Double.parseDouble(s);
    }
    if (mantissa == 0) {
      return negative ? -0.0 : 0.0;
    }
    if (scale < -22 || scale > 22) {
      return Double.parseDouble(s);
    }
    double d = mantissa;
    d = scale < 0 ? d / POWERS_OF_TEN[-scale] : d * POWERS_OF_TEN[scale];
    return negative ? -d : d;
  }

  private static List<Asked> readOutputNames(JsonReader r) throws IOException, BadRequest {
    expect(r, JsonToken.BEGIN_ARRAY, "\"outputs\"", "an array of {\"name\": ...}");
    List<Asked> names = new ArrayList<>();
    r.beginArray();
    while (r.hasNext()) {
      String where = "outputs[" + names.size() + "]";
      expect(r, JsonToken.BEGIN_OBJECT, where, "an object");
      String name = null;
      boolean binary = false;
      r.beginObject();
      while (r.hasNext()) {
        String key = r.nextName();
        if (key.equals("name")) {
          expect(r, JsonToken.STRING, where + ".name", "a string");
          name = r.nextString();
        } else if (key.equals("parameters")) {
          binary = readParameters(r, where + ".parameters").binaryData;
        } else {
          r.skipValue();
        }
      }
      r.endObject();
      if (name == null) {
        throw BadRequest.of(where + " has no \"name\"");
      }
      names.add(new Asked(name, binary));
    }
    r.endArray();
    return names;
  }

  /**
   * Checks tensors read from either protocol against the model: every input once, by name, with the
   * model's datatype and shape, finite values, one batch size; the outputs asked for by name.
   *
   * @param asked the outputs asked for, null for every one
   * @param binaryOut whether outputs not asked for by name answer in binary
   * @throws BadRequest (400) naming the input and what was expected and what came
   */
  static InferRequest check(
      String id, List<Tensor> tensors, List<Asked> asked, boolean binaryOut, Signature model)
      throws BadRequest {
    List<Port> ports = model.inputs();
    List<Port> outs = model.outputs();
    float[][] values = new float[ports.size()][];
    Shape[] shapes = new Shape[ports.size()];
    int batch = -1;
    for (Tensor t : tensors) {
      int i = indexOf(ports, t.name());
      if (i < 0) {
        throw BadRequest.of(
            "unknown input '" + t.name() + "'; the model takes " + signature(model));
      }
      if (values[i] != null) {
        throw BadRequest.of("input '" + t.name() + "' is given twice");
      }
      Port p = ports.get(i);
      boolean ids = model.ids(i);
      String dt = t.datatype();
      if (dt.equals("FP16") || dt.equals("BF16")) {
        throw BadRequest.of(datatypeRule("input '" + t.name() + "'", dt));
      }
      if (!ids && !dt.equals(FP32)) {
        throw BadRequest.of("input '" + t.name() + "' has datatype " + dt + "; expected " + FP32);
      }
      if (ids && !dt.equals(Signature.INT64) && !dt.equals(Signature.INT32) && !dt.equals(FP32)) {
        throw BadRequest.of(
            "input '"
                + t.name()
                + "' has datatype "
                + dt
                + "; expected INT64 token ids for embedding '"
                + model.tables().get(i)
                + "' (INT32, and FP32 whole numbers, are taken too)");
      }
      int[] want = p.shape().dims();
      if (!fits(want, t.shape())) {
        throw BadRequest.of(
            "input '"
                + t.name()
                + "' has shape "
                + Arrays.toString(t.shape())
                + "; expected "
                + model.describe(p)
                + " (-1: any batch size from 1"
                + (p.hasFree()
                    ? "; "
                        + freeNames(p, model)
                        + ": free sizes that the model's requirements allow"
                    : "")
                + ")");
      }
      long n = 1;
      for (long d : t.shape()) {
        n *= d;
      }
      if (t.data().length != n) {
        throw BadRequest.of(
            "input '"
                + t.name()
                + "' of shape "
                + Arrays.toString(t.shape())
                + " takes "
                + n
                + " values; its data holds "
                + t.data().length);
      }
      if (t.bad() != null) {
        throw BadRequest.of(
            "input '" + t.name() + "' holds " + t.bad() + "; every value must be finite");
      }
      if (ids) {
        checkIds(t, model.rows()[i], model.tables().get(i));
      }
      int b = (int) t.shape()[p.batchAxis()];
      if (batch >= 0 && b != batch) {
        throw BadRequest.of(
            "input '" + t.name() + "' holds " + b + " examples, an earlier input " + batch);
      }
      batch = b;
      values[i] = t.data();
      shapes[i] = Shape.of(Arrays.stream(t.shape()).mapToInt(Math::toIntExact).toArray());
    }
    for (int i = 0; i < ports.size(); i++) {
      if (values[i] == null) {
        throw BadRequest.of(
            "input '" + ports.get(i).name() + "' is missing; the model takes " + signature(model));
      }
    }
    if (model.hasFree()) {
      List<String> given = new ArrayList<>();
      for (int i = 0; i < ports.size(); i++) {
        given.add("'" + ports.get(i).name() + "' " + Arrays.toString(shapes[i].dims()));
      }
      try {
        model.dimensions().sizes(String.join(", ", given), model.specs(), Arrays.asList(shapes));
      } catch (IllegalArgumentException e) {
        throw BadRequest.of(e.getMessage());
      }
    }
    List<Integer> wanted = new ArrayList<>();
    List<Boolean> binary = new ArrayList<>();
    if (asked == null) {
      for (int o = 0; o < outs.size(); o++) {
        wanted.add(o);
        binary.add(binaryOut);
      }
    } else {
      for (Asked a : asked) {
        int o = indexOf(outs, a.name());
        if (o < 0) {
          throw BadRequest.of(
              "unknown output '" + a.name() + "'; the model has " + signature(outs));
        }
        wanted.add(o);
        binary.add(a.binary() || binaryOut);
      }
    }
    return new InferRequest(
        id, batch, Arrays.asList(shapes), values, List.copyOf(wanted), List.copyOf(binary));
  }

  /**
   * Token ids go to MXNet's {@code Embedding} as FP32, which it would clip into the table: each
   * must be a whole number that FP32 holds exactly (below 2^24), from 0 to the table's rows - 1.
   */
  private static void checkIds(Tensor t, long rows, String table) throws BadRequest {
    String input = "input '" + t.name() + "'";
    if (t.inexact() != null) {
      throw BadRequest.of(
          input
              + " holds "
              + t.inexact()
              + ", which FP32 cannot hold exactly; token ids are whole numbers below 2^24 = "
              + Signature.EXACT
              + " (MXNet's Embedding reads them as FP32), and embedding '"
              + table
              + "' takes 0 to "
              + (rows - 1));
    }
    float[] data = t.data();
    for (int k = 0; k < data.length; k++) {
      float f = data[k];
      if (f != Math.rint(f)) {
        throw BadRequest.of(
            input + " holds " + f + " at flat index " + k + "; token ids are whole numbers");
      }
      if (f < 0 || f >= rows) {
        throw BadRequest.of(
            input
                + " holds id "
                + (long) f
                + " at flat index "
                + k
                + "; embedding '"
                + table
                + "' has "
                + rows
                + " rows: ids 0 to "
                + (rows - 1));
      }
      if (f >= Signature.EXACT) {
        throw BadRequest.of(
            input
                + " holds id "
                + (long) f
                + " at flat index "
                + k
                + "; token ids must be below 2^24 = "
                + Signature.EXACT
                + ", the whole numbers FP32 holds exactly (MXNet's Embedding reads them as FP32)");
      }
    }
  }

  /** The names of port {@code p}'s free dimensions, {@code H, W}. */
  private static String freeNames(Port p, Signature model) {
    List<String> names = new ArrayList<>();
    for (int d : p.shape().dims()) {
      String n = Shape.isFree(d) ? model.dimensions().nameOf(d) : null;
      if (n != null && !names.contains(n)) {
        names.add(n);
      }
    }
    return String.join(", ", names);
  }

  private static boolean fits(int[] want, long[] got) {
    if (want.length != got.length) {
      return false;
    }
    for (int d = 0; d < want.length; d++) {
      if (want[d] < 0 ? got[d] < 1 : got[d] != want[d]) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(List<Port> ports, String name) {
    for (int i = 0; i < ports.size(); i++) {
      if (ports.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The inputs, e.g. {@code 'image' FP32 [-1, 1, 28, 28]}, {@code 'tokens' INT64 [-1, 6]}. */
  static String signature(Signature model) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < model.inputs().size(); i++) {
      Port p = model.inputs().get(i);
      parts.add("'" + p.name() + "' " + model.datatypes().get(i) + " " + model.describe(p));
    }
    return String.join(", ", parts);
  }

  /** FP32 ports (outputs), e.g. {@code 'probs' FP32 [-1, 10]}. */
  static String signature(List<Port> ports) {
    List<String> parts = new ArrayList<>();
    for (Port p : ports) {
      parts.add("'" + p.name() + "' " + FP32 + " " + Arrays.toString(p.openDims()));
    }
    return String.join(", ", parts);
  }

  private static void expect(JsonReader r, JsonToken want, String where, String what)
      throws IOException, BadRequest {
    JsonToken t = r.peek();
    if (t != want) {
      throw BadRequest.of(where + " must be " + what + ", got " + describe(t));
    }
  }

  private static String describe(JsonToken t) {
    return switch (t) {
      case BEGIN_ARRAY -> "an array";
      case BEGIN_OBJECT -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case END_DOCUMENT -> "nothing";
      default -> t.toString();
    };
  }

  /** A growable float array. */
  private static final class FloatList {
    float[] values = new float[1024];
    int size;
    String nonFinite;
    String inexact;

    void add(float v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, values.length * 2);
      }
      values[size++] = v;
    }

    float[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }

  /**
   * An answer's body and, when some output's data is binary, the length of its JSON header (the
   * {@code Inference-Header-Content-Length} to send; -1 when the body is all JSON).
   */
  record Answer(byte[] body, int headerLength) {}

  /**
   * The answer to {@code request}: the outputs it asked for, with output o's shape and values from
   * {@code prediction} (its rows of the batch it ran in).
   */
  static Answer answer(
      String model,
      String version,
      InferRequest request,
      List<Port> outputs,
      Prediction prediction) {
    float[][] out = prediction.values();
    byte[] json =
        write(
            w -> {
              w.beginObject();
              w.name("model_name").value(model);
              w.name("model_version").value(version);
              if (request.id() != null) {
                w.name("id").value(request.id());
              }
              w.name("outputs").beginArray();
              for (int k = 0; k < request.outputs().size(); k++) {
                int o = request.outputs().get(k);
                Port p = outputs.get(o);
                w.beginObject();
                w.name("name").value(p.name());
                w.name("datatype").value(FP32);
                w.name("shape").beginArray();
                for (int d : prediction.shapes().get(o).dims()) {
                  w.value(d);
                }
                w.endArray();
                if (request.binary().get(k)) {
                  w.name("parameters").beginObject();
                  w.name("binary_data_size").value((long) out[o].length * Float.BYTES);
                  w.endObject();
                } else {
                  w.name("data").beginArray();
                  for (float v : out[o]) {
                    w.value(v);
                  }
                  w.endArray();
                }
                w.endObject();
              }
              w.endArray();
              w.endObject();
            });
    if (!request.binary().contains(true)) {
      return new Answer(json, -1);
    }
    int size = json.length;
    for (int k = 0; k < request.outputs().size(); k++) {
      size += request.binary().get(k) ? out[request.outputs().get(k)].length * Float.BYTES : 0;
    }
    ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    b.put(json);
    for (int k = 0; k < request.outputs().size(); k++) {
      if (request.binary().get(k)) {
        b.asFloatBuffer().put(out[request.outputs().get(k)]);
        b.position(b.position() + out[request.outputs().get(k)].length * Float.BYTES);
      }
    }
    return new Answer(b.array(), json.length);
  }

  /** {@code {"error": message}}. */
  static byte[] error(String message) {
    return write(w -> w.beginObject().name("error").value(message).endObject());
  }

  /** The model's metadata: name, versions, platform, inputs and outputs. */
  static byte[] metadata(String model, List<String> versions, Signature signature) {
    return write(
        w -> {
          w.beginObject();
          w.name("name").value(model);
          w.name("versions").beginArray();
          for (String v : versions) {
            w.value(v);
          }
          w.endArray();
          w.name("platform").value("kiln_mxnet");
          w.name("inputs");
          ports(w, signature.inputs(), signature.datatypes());
          w.name("outputs");
          ports(w, signature.outputs(), null);
          w.endObject();
        });
  }

  private static void ports(JsonWriter w, List<Port> ports, List<String> datatypes)
      throws IOException {
    w.beginArray();
    for (int i = 0; i < ports.size(); i++) {
      Port p = ports.get(i);
      w.beginObject();
      w.name("name").value(p.name());
      w.name("datatype").value(datatypes == null ? FP32 : datatypes.get(i));
      w.name("shape").beginArray();
      for (int d : p.openDims()) {
        w.value(d);
      }
      w.endArray();
      w.endObject();
    }
    w.endArray();
  }

  /** A flat object of string and boolean values. */
  static byte[] object(Map<String, Object> fields) {
    return write(
        w -> {
          w.beginObject();
          for (Map.Entry<String, Object> f : fields.entrySet()) {
            w.name(f.getKey());
            if (f.getValue() instanceof Boolean b) {
              w.value(b);
            } else if (f.getValue() instanceof List<?> l) {
              w.beginArray();
              for (Object o : l) {
                w.value(String.valueOf(o));
              }
              w.endArray();
            } else {
              w.value(String.valueOf(f.getValue()));
            }
          }
          w.endObject();
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
