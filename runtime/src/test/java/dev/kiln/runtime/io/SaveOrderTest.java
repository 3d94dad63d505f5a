package dev.kiln.runtime.io;

import static dev.kiln.runtime.io.CheckpointTest.model;
import static dev.kiln.runtime.io.CheckpointTest.values;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.runtime.ModelRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files a save leaves if its process dies at each step: copies of the directory taken at every
 * step of a save (temporary files included, as a SIGKILL leaves them) must each hold a loadable
 * checkpoint, the old one or the new one, whose integrity file, if any, matches, and at most one
 * temporary file.
 */
class SaveOrderTest {
  @TempDir Path dir;

  private final List<Checkpoint.Step> seen = new ArrayList<>();
  private final List<Path> snapshots = new ArrayList<>();

  @AfterEach
  void quiet() {
    Checkpoint.steps = step -> {};
  }

  /** Copies the directory {@code live} at every step of saves from now on. */
  private void snapshotEveryStep(Path live) {
    Checkpoint.steps =
        step -> {
          try {
            Path copy = Files.createDirectories(dir.resolve("at-" + snapshots.size() + "-" + step));
            try (Stream<Path> files = Files.list(live)) {
              for (Path f : files.toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
              }
            }
            seen.add(step);
            snapshots.add(copy);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        };
  }

  private static long temps(Path d) throws IOException {
    try (Stream<Path> files = Files.list(d)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".tmp")).count();
    }
  }

  /** If the integrity file exists, it holds the SHA-256 of the params file beside it. */
  private static void assertIntegrityMatches(Path prefix) throws Exception {
    Path integrity = Checkpoint.integrityFile(prefix);
    if (Files.exists(integrity)) {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(Files.readAllBytes(Checkpoint.paramsFile(prefix)));
      assertEquals(
          Integrity.hex(digest),
          Files.readString(integrity).substring(0, 64),
          "integrity file of " + prefix);
    }
  }

  /** What loading {@code prefix} into a fresh model gives: its values, or the error. */
  private static Object load(Path prefix, int hidden) {
    try (ModelRuntime m = model(hidden, 99)) {
      m.loadParams(prefix);
      return values(m);
    } catch (UncheckedIOException e) {
      return e.getCause();
    }
  }

  private static void assertSame(Map<String, float[]> expected, Object loaded, String where) {
    if (!(loaded instanceof Map<?, ?> map)) {
      fail(where + ": did not load: " + loaded);
      return;
    }
    assertEquals(expected.keySet(), map.keySet(), where);
    expected.forEach((k, v) -> assertArrayEquals(v, (float[]) map.get(k), 0f, where + " " + k));
  }

  private static boolean same(Map<String, float[]> expected, Object loaded) {
    return loaded instanceof Map<?, ?> map
        && expected.keySet().equals(map.keySet())
        && expected.entrySet().stream()
            .allMatch(e -> java.util.Arrays.equals(e.getValue(), (float[]) map.get(e.getKey())));
  }

  @Test
  void aFirstSaveCutAtAnyStepLeavesNoCheckpointOrTheNewOne() throws Exception {
    Path live = Files.createDirectories(dir.resolve("live"));
    try (ModelRuntime a = model(8, 1)) {
      snapshotEveryStep(live);
      a.save(live.resolve("mlp"));
      Map<String, float[]> saved = values(a);
      assertEquals(
          List.of(
              Checkpoint.Step.CLEANED,
              Checkpoint.Step.SYMBOL_TEMP_WRITTEN,
              Checkpoint.Step.SYMBOL_WRITTEN,
              Checkpoint.Step.PARAMS_TEMP_WRITTEN,
              Checkpoint.Step.INTEGRITY_DELETED,
              Checkpoint.Step.PARAMS_WRITTEN,
              Checkpoint.Step.INTEGRITY_TEMP_WRITTEN,
              Checkpoint.Step.INTEGRITY_WRITTEN),
          seen,
          "a first save writes the symbol before the parameters");
      quiet();
      for (Path snapshot : snapshots) {
        Path prefix = snapshot.resolve("mlp");
        assertTrue(temps(snapshot) <= 1, snapshot.toString());
        assertIntegrityMatches(prefix);
        Object loaded = load(prefix, 8);
        if (Files.exists(Checkpoint.paramsFile(prefix))) {
          assertTrue(
              Files.exists(Checkpoint.symbolFile(prefix)),
              "a parameter file never lies without its symbol: " + snapshot);
          assertSame(saved, loaded, snapshot.toString());
        } else {
          assertInstanceOf(NoSuchFileException.class, loaded, snapshot.toString());
        }
      }
    }
  }

  @Test
  void aResaveCutAtAnyStepLeavesTheOldCheckpointOrTheNewOne() throws Exception {
    Path live = Files.createDirectories(dir.resolve("live"));
    try (ModelRuntime a = model(8, 1);
        ModelRuntime b = model(8, 2)) {
      a.save(live.resolve("mlp"));
      snapshotEveryStep(live);
      b.save(live.resolve("mlp"));
      assertEquals(
          List.of(
              Checkpoint.Step.CLEANED,
              Checkpoint.Step.PARAMS_TEMP_WRITTEN,
              Checkpoint.Step.INTEGRITY_DELETED,
              Checkpoint.Step.PARAMS_WRITTEN,
              Checkpoint.Step.INTEGRITY_TEMP_WRITTEN,
              Checkpoint.Step.INTEGRITY_WRITTEN),
          seen,
          "an unchanged symbol is not rewritten");
      quiet();
      int old = 0;
      int fresh = 0;
      for (Path snapshot : snapshots) {
        Path prefix = snapshot.resolve("mlp");
        assertTrue(temps(snapshot) <= 1, snapshot.toString());
        assertIntegrityMatches(prefix);
        Object loaded = load(prefix, 8);
        if (same(values(a), loaded)) {
          old++;
        } else {
          assertSame(values(b), loaded, snapshot.toString());
          fresh++;
        }
      }
      assertEquals(3, old, "before the new parameters are renamed into place");
      assertEquals(3, fresh);
    }
  }

  @Test
  void aSaveFailingAfterTheIntegrityFileIsDeletedPutsItBack() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (ModelRuntime a = model(8, 1);
        ModelRuntime b = model(8, 2)) {
      a.save(prefix);
      byte[] integrity = Files.readAllBytes(Checkpoint.integrityFile(prefix));
      byte[] params = Files.readAllBytes(Checkpoint.paramsFile(prefix));
      Checkpoint.steps =
          step -> {
            if (step == Checkpoint.Step.INTEGRITY_DELETED) {
              throw new IllegalStateException("the disk went away just before the rename");
            }
          };
      assertEquals(
          "the disk went away just before the rename",
          org.junit.jupiter.api.Assertions.assertThrows(
                  IllegalStateException.class, () -> b.save(prefix))
              .getMessage());
      quiet();
      assertArrayEquals(params, Files.readAllBytes(Checkpoint.paramsFile(prefix)));
      assertArrayEquals(integrity, Files.readAllBytes(Checkpoint.integrityFile(prefix)));
      assertEquals(0, temps(dir));
      assertSame(values(a), load(prefix, 8), "after the failed save");
    }
  }

  @Test
  void aSaveOfAnotherArchitectureCutAtAnyStepNeverLoadsWrongValues() throws Exception {
    Path live = Files.createDirectories(dir.resolve("live"));
    try (ModelRuntime small = model(4, 1);
        ModelRuntime big = model(8, 2)) {
      small.save(live.resolve("mlp"));
      snapshotEveryStep(live);
      big.save(live.resolve("mlp"));
      assertEquals(
          Checkpoint.Step.SYMBOL_WRITTEN,
          seen.get(seen.size() - 1),
          "a changed symbol is replaced last");
      quiet();
      for (Path snapshot : snapshots) {
        Path prefix = snapshot.resolve("mlp");
        assertTrue(temps(snapshot) <= 1, snapshot.toString());
        assertIntegrityMatches(prefix);
        Object asSmall = load(prefix, 4);
        Object asBig = load(prefix, 8);
        boolean oldOne = same(values(small), asSmall);
        boolean newOne = same(values(big), asBig);
        if (!oldOne && !newOne) {
          assertInstanceOf(CheckpointException.class, asSmall, snapshot.toString());
          assertInstanceOf(CheckpointException.class, asBig, snapshot.toString());
        }
        assertTrue(!(asSmall instanceof Map) || oldOne, snapshot + " loaded wrong values");
        assertTrue(!(asBig instanceof Map) || newOne, snapshot + " loaded wrong values");
      }
      assertTrue(same(values(big), load(live.resolve("mlp"), 8)));
    }
  }
}
