package dev.kiln.sample;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.data.FashionMnist;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/**
 * The autoencoder's picture: the first {@link #COUNT} test images in the top row and the model's
 * reconstructions of them below, each pixel drawn as a {@link #SCALE}-by-{@link #SCALE} grey square
 * (black 0, white 1), written as a PNG.
 */
final class Reconstructions {
  /** Images shown. */
  static final int COUNT = 8;

  /** Screen pixels per image pixel. */
  static final int SCALE = 3;

  private static final int SIDE = FashionMnist.IMAGE_SIZE;
  private static final int GAP = 2;

  private Reconstructions() {}

  /** {@code PREFIX-reconstructions.png}. */
  static Path file(Path prefix) {
    return prefix.resolveSibling(prefix.getFileName() + "-reconstructions.png");
  }

  /** Draws the first {@link #COUNT} images of {@code test} and {@code model}'s outputs for them. */
  static void write(KilnModel model, Dataset test, Path file) {
    int n = Math.min(COUNT, test.size());
    float[] inputs = test.first(n).features();
    float[] outputs;
    try (NDManager nd = NDManager.newBaseManager()) {
      NDList out = model.forward(new NDList(nd.create(inputs, new Shape(n, 1, SIDE, SIDE))));
      outputs = out.get(0).toFloatArray();
    }
    int cell = SIDE * SCALE + GAP;
    BufferedImage image =
        new BufferedImage(n * cell + GAP, 2 * cell + GAP, BufferedImage.TYPE_BYTE_GRAY);
    for (int i = 0; i < n; i++) {
      draw(image, inputs, i, GAP + i * cell, GAP);
      draw(image, outputs, i, GAP + i * cell, GAP + cell);
    }
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      ImageIO.write(image, "png", file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static void draw(BufferedImage image, float[] pixels, int index, int left, int top) {
    for (int y = 0; y < SIDE; y++) {
      for (int x = 0; x < SIDE; x++) {
        float v = pixels[index * SIDE * SIDE + y * SIDE + x];
        int grey = Math.round(255 * Math.max(0f, Math.min(1f, v)));
        int rgb = grey << 16 | grey << 8 | grey;
        for (int dy = 0; dy < SCALE; dy++) {
          for (int dx = 0; dx < SCALE; dx++) {
            image.setRGB(left + x * SCALE + dx, top + y * SCALE + dy, rgb);
          }
        }
      }
    }
  }
}
