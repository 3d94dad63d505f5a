package dev.kiln.runtime.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.ParameterStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs a child JVM at random moments while it saves a large checkpoint in a loop: after each
 * kill there is at most one temporary file, the integrity file (if any) matches the parameters, and
 * the checkpoint loads, holding the last generation the child reported saved or the one it was
 * saving, never a mix; the load removes the temporary file. Runs for {@code
 * -Dkiln.killTest.seconds} (default 40) with a {@code -Dkiln.killTest.hidden}-unit model (default
 * 4096: a 17 MB parameter file).
 */
class KillDuringSaveTest {
  @TempDir Path dir;

  private static long temps(Path d) throws Exception {
    try (Stream<Path> files = Files.list(d)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".tmp")).count();
    }
  }

  /** The generation every parameter of {@code m} holds; fails if they disagree. */
  private static long generation(ModelRuntime m) {
    List<ParameterStore.Slot> slots = m.slots();
    float first = slots.get(0).weight().toFloatArray()[0];
    long g = (long) first / 8;
    for (int p = 0; p < slots.size(); p++) {
      float expected = SaveLoop.value(g, p);
      float[] v = slots.get(p).weight().toFloatArray();
      for (int i = 0; i < v.length; i++) {
        if (v[i] != expected) {
          throw new AssertionError(
              "parameter "
                  + slots.get(p).name()
                  + "["
                  + i
                  + "] is "
                  + v[i]
                  + ", generation "
                  + g
                  + " has "
                  + expected
                  + ": a mix of two saves");
        }
      }
    }
    return g;
  }

  @Test
  void killedSavesLeaveALoadableCheckpointAndAtMostOneTemporaryFile() throws Exception {
    double seconds = Double.parseDouble(System.getProperty("kiln.killTest.seconds", "40"));
    int hidden = Integer.getInteger("kiln.killTest.hidden", 4096);
    Path prefix = dir.resolve("big");
    SplittableRandom random = new SplittableRandom(20240610);
    long deadline = System.nanoTime() + (long) (seconds * 1e9);
    int kills = 0;
    int withTemp = 0;
    int withoutIntegrity = 0;
    long loaded = -1;
    Set<Long> seen = new TreeSet<>();
    try (ModelRuntime reader =
        new ModelRuntime("BigModel", SaveLoop.graph(hidden), Init.xavier(), 1)) {
      while (System.nanoTime() < deadline || kills < 5) {
        long first = (kills + 1) * 1_000L;
        long lastSaved = -1;
        try (ChildJvm child =
            ChildJvm.start(
                SaveLoop.class,
                prefix.toString(),
                String.valueOf(hidden),
                String.valueOf(first),
                "120")) {
          child.expect("READY", 120);
          // Let the first save or two through now and then, then kill at a random moment.
          Thread.sleep(random.nextInt(kills % 3 == 0 ? 3000 : 800));
          for (String line : child.kill()) {
            assertTrue(line.startsWith("SAVED "), line);
            lastSaved = Long.parseLong(line.substring(6));
          }
        }
        kills++;
        long left = temps(dir);
        assertTrue(left <= 1, "kill " + kills + " left " + left + " temporary files");
        withTemp += (int) left;
        if (!Files.exists(prefix.resolveSibling("big-0000.params"))) {
          assertEquals(-1, loaded, "a checkpoint, once there, is never gone");
          assertEquals(-1, lastSaved);
          continue;
        }
        Path integrity = Checkpoint.integrityFile(prefix);
        if (Files.exists(integrity)) {
          byte[] digest =
              MessageDigest.getInstance("SHA-256")
                  .digest(Files.readAllBytes(Checkpoint.paramsFile(prefix)));
          assertEquals(Integrity.hex(digest), Files.readString(integrity).substring(0, 64));
        } else {
          withoutIntegrity++;
        }
        reader.loadParams(prefix);
        long g = generation(reader);
        Set<Long> allowed =
            lastSaved < 0 ? Set.of(loaded, first) : Set.of(lastSaved, lastSaved + 1);
        assertTrue(
            allowed.contains(g),
            "kill " + kills + ": loaded generation " + g + ", expected one of " + allowed);
        assertEquals(0, temps(dir), "the load removed the stale temporary file");
        loaded = g;
        seen.add(g);
      }
    }
    System.out.printf(
        "kill test: %d kills, %d left a temporary file, %d were between the "
            + "integrity file's deletion and its rewrite, %d distinct generations loaded%n",
        kills, withTemp, withoutIntegrity, seen.size());
    assertTrue(withTemp > 0, "no kill hit a save in progress: the test proves nothing");
  }
}
