package dev.kiln.cli;

import dev.kiln.runtime.data.FashionMnist;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --data}: the images {@code quantize} calibrates on and {@code loadtest} and {@code bench}
 * send, Fashion-MNIST's four IDX files.
 */
final class FashionData {
  @Option(
      names = "--data",
      paramLabel = "DIR",
      defaultValue = "/usr/share/datasets/fashion-mnist",
      description =
          "Folder of the Fashion-MNIST IDX files (train- and t10k-, images and labels; default:"
              + " ${DEFAULT-VALUE}).")
  Path dir;

  /** The data set; a missing folder or file is a refusal that says how to get it. */
  FashionMnist load() throws IOException {
    return FashionMnist.load(dir);
  }
}
