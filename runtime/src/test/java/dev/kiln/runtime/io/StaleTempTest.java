package dev.kiln.runtime.io;

import static dev.kiln.runtime.io.CheckpointTest.assertSameValues;
import static dev.kiln.runtime.io.CheckpointTest.model;
import static dev.kiln.runtime.io.CheckpointTest.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.ModelRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Temporary files that killed saves leave are removed by the next save or load of the same
 * checkpoint; in-flight ones (this JVM's or another process's) and everything else stay.
 */
class StaleTempTest {
  private static final String TOKEN = "0k3j5h2g9f8dq";
  private static final String OLD_TOKEN = "k3j5h2g9f8dq";

  @TempDir Path dir;

  private Set<String> names() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    }
  }

  /** Stale temporaries of checkpoint {@code mlp}; each a file of a few bytes. */
  private List<String> staleOfMlp() throws Exception {
    List<String> stale =
        List.of(
            ".mlp-0000.params." + TOKEN + ".tmp",
            ".mlp-0000.params." + OLD_TOKEN + ".tmp",
            ".mlp-symbol.json." + TOKEN + ".tmp",
            ".mlp-0000.params.sha256." + TOKEN + ".tmp");
    for (String s : stale) {
      Files.writeString(dir.resolve(s), "half a save");
    }
    return stale;
  }

  /** Files that only look like them, or belong to other checkpoints. */
  private List<String> unrelated() throws Exception {
    List<String> files =
        List.of(
            ".other-0000.params." + TOKEN + ".tmp",
            ".mlp-0000-0000.params." + TOKEN + ".tmp",
            ".mlp-0000.params.backup.tmp",
            "mlp-0000.params." + TOKEN + ".tmp",
            ".mlp-0000.params." + TOKEN + ".tmp.keep",
            "notes.txt");
    for (String s : files) {
      Files.writeString(dir.resolve(s), "not Kiln's to delete");
    }
    Files.createDirectory(dir.resolve(".mlp-symbol.json.0000000000000.tmp"));
    Files.createSymbolicLink(
        dir.resolve(".mlp-0000.params.1111111111111.tmp"), dir.resolve("notes.txt"));
    return files;
  }

  @Test
  void aSaveRemovesTheStaleTemporariesOfItsCheckpointOnly() throws Exception {
    try (ModelRuntime a = model(8, 1)) {
      a.save(dir.resolve("mlp"));
      List<String> stale = staleOfMlp();
      unrelated();
      Set<String> before = names();
      a.save(dir.resolve("mlp"));
      Set<String> expected = new TreeSet<>(before);
      stale.forEach(expected::remove);
      assertEquals(expected, names());
      assertEquals("not Kiln's to delete", Files.readString(dir.resolve("notes.txt")));
    }
  }

  @Test
  void aLoadRemovesThemToo() throws Exception {
    try (ModelRuntime a = model(8, 1);
        ModelRuntime b = model(8, 2)) {
      a.save(dir.resolve("mlp"));
      List<String> stale = staleOfMlp();
      unrelated();
      Set<String> expected = names();
      stale.forEach(expected::remove);
      b.loadParams(dir.resolve("mlp"));
      assertEquals(expected, names());
      assertSameValues(values(a), values(b));
    }
  }

  @Test
  void aTemporaryFileAnotherProcessHoldsLockedStaysUntilThatProcessDies() throws Exception {
    Path inFlight = dir.resolve(".mlp-0000.params." + TOKEN + ".tmp");
    try (ModelRuntime a = model(8, 1);
        ChildJvm writer = ChildJvm.start(LockHolder.class, inFlight.toString())) {
      writer.expect("LOCKED", 60);
      a.save(dir.resolve("mlp"));
      assertTrue(Files.exists(inFlight), "a save in progress elsewhere is not touched");
      a.loadParams(dir.resolve("mlp"));
      assertTrue(Files.exists(inFlight));
      writer.kill();
      a.save(dir.resolve("mlp"));
      assertTrue(Files.notExists(inFlight), "once its writer is dead it is stale");
    }
  }

  @Test
  void aTemporaryFileThisJvmIsWritingStaysAndItsSaveCompletes() throws Exception {
    Path prefix = dir.resolve("mlp");
    CountDownLatch paused = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    try (ModelRuntime a = model(8, 1);
        ModelRuntime b = model(8, 2)) {
      a.save(prefix);
      Thread saver = Thread.currentThread();
      Checkpoint.steps =
          step -> {
            if (step == Checkpoint.Step.PARAMS_TEMP_WRITTEN && Thread.currentThread() != saver) {
              paused.countDown();
              try {
                resume.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          };
      CompletableFuture<Void> save = CompletableFuture.runAsync(() -> b.save(prefix));
      assertTrue(paused.await(30, TimeUnit.SECONDS));
      List<String> temps = names().stream().filter(n -> n.endsWith(".tmp")).toList();
      assertEquals(1, temps.size(), temps.toString());
      List<AtomicFiles.Removed> removed = AtomicFiles.removeStale(dir, List.of("mlp-0000.params"));
      assertEquals(List.of(), removed);
      Map<String, float[]> old = values(a);
      try (ModelRuntime c = model(8, 3)) {
        c.loadParams(prefix);
        assertSameValues(old, values(c));
      }
      assertTrue(Files.exists(dir.resolve(temps.get(0))));
      resume.countDown();
      save.get(30, TimeUnit.SECONDS);
      try (ModelRuntime c = model(8, 3)) {
        c.loadParams(prefix);
        assertSameValues(values(b), values(c));
      }
      assertEquals(List.of(), names().stream().filter(n -> n.endsWith(".tmp")).toList());
    } finally {
      Checkpoint.steps = step -> {};
      resume.countDown();
    }
  }

  @Test
  void temporaryNamesMapToTheirTargets() {
    assertEquals("mlp-0000.params", AtomicFiles.targetOf(".mlp-0000.params." + TOKEN + ".tmp"));
    assertEquals(
        "mlp-0000.params.sha256",
        AtomicFiles.targetOf(".mlp-0000.params.sha256." + TOKEN + ".tmp"));
    assertEquals("a.b", AtomicFiles.targetOf(".a.b." + OLD_TOKEN + ".tmp"));
    assertNull(AtomicFiles.targetOf(".mlp-0000.params.sha256.tmp"));
    assertNull(AtomicFiles.targetOf(".mlp-0000.params.backup.tmp"));
    assertNull(AtomicFiles.targetOf("mlp-0000.params." + TOKEN + ".tmp"));
    assertNull(
        AtomicFiles.targetOf(
            ".mlp-0000.params." + TOKEN.toUpperCase(java.util.Locale.ROOT) + ".tmp"));
  }
}
