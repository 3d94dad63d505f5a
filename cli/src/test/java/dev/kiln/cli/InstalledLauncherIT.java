package dev.kiln.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.Init;
import dev.kiln.sample.models.FashionMlpModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher that the package phase lays out ({@code target/kiln/bin/kiln} over {@code
 * target/kiln/lib}), run as a user runs it: from a folder of their own, through a symbolic link on
 * their path, with paths relative to where they stand.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class InstalledLauncherIT {
  private static final Path LAUNCHER = Path.of(System.getProperty("kiln.launcher"));

  @TempDir Path project;

  private record Run(int code, String out) {}

  private Run kiln(Path command, String... args) throws IOException, InterruptedException {
    List<String> line = new ArrayList<>(List.of(command.toString()));
    line.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(line).directory(project.toFile());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
    return new Run(p.exitValue(), out);
  }

  @Test
  void theInstalledCommandRunsFromAnotherFolderWithRelativePaths() throws Exception {
    assertTrue(Files.isExecutable(LAUNCHER), LAUNCHER + " is not there: mvn package builds it");
    Path bin = Files.createDirectories(project.resolve("bin"));
    Path link = Files.createSymbolicLink(bin.resolve("kiln"), LAUNCHER.toAbsolutePath());

    Run help = kiln(link, "--help");
    assertEquals(0, help.code(), help.out());
    assertTrue(help.out().startsWith("Usage: kiln "), help.out());
    assertTrue(help.out().contains("  inspect ") && help.out().contains("  launch "), help.out());

    Run version = kiln(LAUNCHER, "-V");
    assertEquals("kiln " + System.getProperty("kiln.version") + "\n", version.out());

    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 1)) {
      m.save(project.resolve("models/mlp"));
    }
    Run inspect =
        kiln(link, "inspect", "--symbol", "models/mlp-symbol.json", "--input", "pixels=BATCH,784");
    assertEquals(0, inspect.code(), inspect.out());
    assertTrue(inspect.out().contains("hidden") && inspect.out().contains("101770"), inspect.out());

    Run bad = kiln(link, "inspect", "--symbol", "models/mlp-symbol.json", "--no-such-option");
    assertEquals(2, bad.code(), bad.out());
    assertEquals(
        1, bad.out().lines().filter(l -> l.startsWith("Usage: kiln inspect ")).count(), bad.out());
    Files.delete(link); // JUnit would warn of a link out of its temporary folder
  }
}
