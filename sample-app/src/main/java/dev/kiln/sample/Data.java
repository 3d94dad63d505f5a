package dev.kiln.sample;

import dev.kiln.runtime.data.FashionMnist;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code --data} option of every command that reads Fashion-MNIST. */
final class Data {
  @Option(
      names = "--data",
      paramLabel = "DIR",
      defaultValue = "/usr/share/datasets/fashion-mnist",
      description = "Directory with the Fashion-MNIST IDX files (default: ${DEFAULT-VALUE}).")
  Path dir;

  FashionMnist load() throws IOException {
    return FashionMnist.load(dir);
  }
}
