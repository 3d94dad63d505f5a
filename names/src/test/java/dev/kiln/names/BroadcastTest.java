package dev.kiln.names;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** MXNet's broadcasting with Kiln's equal rank and bind-time sizes. */
class BroadcastTest {
  private static final int BATCH = -1;
  private static final int STEPS = -5;

  private static Broadcast of(int[] a, int[] b) {
    return Broadcast.of(a, b);
  }

  @Test
  void sizesAreEqualOrOneAndTheOutputTakesTheLarger() {
    Broadcast b = of(new int[] {BATCH, 16, 8, 8}, new int[] {BATCH, 16, 1, 1});
    assertEquals(Broadcast.Problem.NONE, b.problem());
    assertArrayEquals(new int[] {BATCH, 16, 8, 8}, b.shape());
    assertArrayEquals(new int[] {BATCH, 3}, of(new int[] {1, 3}, new int[] {BATCH, 1}).shape());
    assertArrayEquals(new int[] {2, STEPS}, of(new int[] {2, STEPS}, new int[] {1, STEPS}).shape());
  }

  @Test
  void aBindTimeSizeMatchesOnlyItselfAndOne() {
    assertEquals(0, of(new int[] {BATCH, 4}, new int[] {3, 4}).axis());
    assertEquals(Broadcast.Problem.AXIS, of(new int[] {BATCH, 4}, new int[] {3, 4}).problem());
    assertEquals(1, of(new int[] {4, 3}, new int[] {4, BATCH}).axis());
    assertEquals(0, of(new int[] {BATCH, 4}, new int[] {STEPS, 4}).axis());
    assertEquals(2, of(new int[] {2, 3, 4}, new int[] {2, 3, 5}).axis());
  }

  @Test
  void ranksMustBeEqual() {
    // MXNet would broadcast [16] against [.., 16, 8, 8] along the last axis, by coincidence.
    assertEquals(Broadcast.Problem.RANK, of(new int[] {BATCH, 16, 8, 8}, new int[] {16}).problem());
  }

  @Test
  void theRunsAreMxnetsCompactedDimensions() {
    assertEquals(0, of(new int[] {BATCH, 3}, new int[] {BATCH, 3}).runs());
    // [2, 3] against [2, 1]: one run broadcasts the second axis.
    assertEquals(2, of(new int[] {2, 3}, new int[] {2, 1}).runs());
    assertEquals(1, of(new int[] {4, 3}, new int[] {1, 1}).runs());
    // Alternating over six axes: six runs, refused (MXNet 1.9.1: "Too many broadcast dimensions").
    Broadcast six = of(new int[] {2, 1, 3, 1, 3, 1}, new int[] {2, 3, 1, 3, 1, 3});
    assertEquals(6, six.runs());
    assertEquals(Broadcast.Problem.RUNS, six.problem());
    assertEquals(5, of(new int[] {1, 3, 1, 3, 1}, new int[] {3, 1, 3, 1, 3}).runs());
    // The batch counts as a size above 1, whatever the batch size will be.
    assertEquals(6, of(new int[] {BATCH, 1, 3, 1, 3, 1}, new int[] {1, 3, 1, 3, 1, 3}).runs());
  }

  @Test
  void operandsOfDifferentRankMeetAtTheLastAxesAndTheirNamesMustAgree() {
    int[] image = {BATCH, 4, 3, 4};
    String[] nchw = {"n", "channels", "h", "w"};
    // [4] named channels meets w, also 4: a coincidence the names reveal.
    assertEquals(0, Broadcast.misnamed(new int[] {4}, new String[] {"channels"}, image, nchw));
    assertEquals(-1, Broadcast.misnamed(new int[] {4}, new String[] {"w"}, image, nchw));
    assertEquals(-1, Broadcast.misnamed(new int[] {4}, new String[] {null}, image, nchw));
    // Lined up where its name is, at axis 1, with 1 for h and w.
    int at = Broadcast.lineUp(new int[] {4}, new String[] {"channels"}, image, nchw);
    assertEquals(1, at);
    Broadcast.Widened w = Broadcast.Widened.of(new int[] {4}, new String[] {"channels"}, image, at);
    assertEquals(java.util.List.of("channels", "1", "1"), w.tokens());
    assertEquals(java.util.List.of(4, 1, 1), w.sizes());
    assertEquals(-1, Broadcast.lineUp(new int[] {5}, new String[] {"k"}, image, nchw));
  }

  @Test
  void theBroadcastsAxesTakeTheNamesOfTheOperandWhoseSizeTheyHave() {
    String[] out =
        Broadcast.names(
            new int[] {BATCH, 4, 1, 1},
            new String[] {"n", "c", null, null},
            new int[] {3, 5},
            new String[] {"h", "w"});
    assertEquals(java.util.Arrays.asList("n", "c", "h", "w"), java.util.Arrays.asList(out));
  }
}
