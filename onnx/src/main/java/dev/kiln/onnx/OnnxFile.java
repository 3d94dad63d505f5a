package dev.kiln.onnx;

import com.google.protobuf.CodedInputStream;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.onnx.proto.Onnx.OperatorSetIdProto;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads ONNX model files ({@code .onnx}, a {@code ModelProto} in protobuf's binary encoding). A
 * file that is not one is refused with an {@link OnnxFormatException} naming the file and the byte
 * at which it broke, never with a protobuf stack trace.
 */
public final class OnnxFile {
  /** The largest model file read whole: protobuf's own limit on one message. */
  static final int MAX_BYTES = Integer.MAX_VALUE - 8;

  private OnnxFile() {}

  /**
   * The model in {@code file}.
   *
   * @throws IOException if the file cannot be read
   * @throws OnnxFormatException if it is not an ONNX model
   */
  public static ModelProto read(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BYTES) {
      throw new OnnxFormatException(
          file
              + " is "
              + size
              + " bytes, more than one protobuf message may hold (2 GiB); "
              + "store its tensors as external data");
    }
    return parse(Files.readAllBytes(file), file.getFileName().toString());
  }

  /**
   * The model in {@code bytes}, named {@code name} in messages.
   *
   * @throws OnnxFormatException if they are not an ONNX model
   */
  public static ModelProto parse(byte[] bytes, String name) {
    if (bytes.length == 0) {
      throw new OnnxFormatException(name + " is empty, not an ONNX model");
    }
    CodedInputStream in = CodedInputStream.newInstance(bytes);
    in.setRecursionLimit(64);
    ModelProto model;
    try {
      model = ModelProto.parseFrom(in);
      in.checkLastTagWas(0);
    } catch (IOException e) {
      throw new OnnxFormatException(
          name
              + " is not an ONNX model: it breaks at byte "
              + in.getTotalBytesRead()
              + " of "
              + bytes.length
              + " ("
              + e.getMessage()
              + ")",
          e);
    }
    if (!model.hasGraph() || model.getIrVersion() <= 0 || model.getOpsetImportCount() == 0) {
      throw new OnnxFormatException(
          name
              + " is not an ONNX model: "
              + (!model.hasGraph()
                  ? "it has no graph"
                  : model.getIrVersion() <= 0
                      ? "it has no IR version"
                      : "it names no operator set"));
    }
    return model;
  }

  /**
   * The version of ONNX's own operator set (the default domain, {@code ""} or {@code ai.onnx}) that
   * {@code model} uses, or 0 when it names none.
   */
  public static int opset(ModelProto model) {
    for (OperatorSetIdProto o : model.getOpsetImportList()) {
      if (o.getDomain().isEmpty() || o.getDomain().equals("ai.onnx")) {
        return (int) o.getVersion();
      }
    }
    return 0;
  }
}
