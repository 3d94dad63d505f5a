package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bad cases' ONNX files are what {@link OnnxBadFiles} writes. */
class OnnxBadFilesTest {
  @Test
  void theFilesAreWhatTheGeneratorWrites() throws IOException {
    for (Map.Entry<String, byte[]> f : OnnxBadFiles.files().entrySet()) {
      assertArrayEquals(
          f.getValue(), Files.readAllBytes(OnnxBadFiles.DIR.resolve(f.getKey())), f.getKey());
    }
  }
}
