package dev.kiln.runtime.mxnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.TestJvm;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The rule that sets MXNet's OpenMP threads ({@link OmpThreads}): checked as a rule, and in fresh
 * JVMs by counting the threads of the team MXNet really starts for a oneDNN kernel ({@link
 * OmpThreadsProbe}). {@code -XX:ActiveProcessorCount} stands in for other machines: it sets what
 * {@code Runtime.availableProcessors()} says, as a container's CPU quota does, while MXNet's own
 * default and libgomp's still count the real processors.
 */
class OmpThreadsTest {
  private static final Pattern TEAM = Pattern.compile("(?m)^TEAM (\\d+)$");

  @Test
  void theDefaultIsHalfTheCoresAndAtLeastOne() {
    assertEquals(1, OmpThreads.defaultFor(1));
    assertEquals(1, OmpThreads.defaultFor(2));
    assertEquals(1, OmpThreads.defaultFor(3));
    assertEquals(2, OmpThreads.defaultFor(4));
    assertEquals(32, OmpThreads.defaultFor(64));
  }

  @Test
  void anExplicitVariableWinsAndTheDefaultComesLast() {
    Properties none = new Properties();
    Properties four = new Properties();
    four.setProperty(OmpThreads.PROPERTY, "4");
    assertEquals(
        new OmpThreads.Setting(3, OmpThreads.Source.ENVIRONMENT, 16),
        OmpThreads.choose(Map.of("OMP_NUM_THREADS", "3"), none, 16));
    assertEquals(
        new OmpThreads.Setting(4, OmpThreads.Source.ENVIRONMENT, 16),
        OmpThreads.choose(Map.of("OMP_NUM_THREADS", "4,2"), four, 16));
    assertEquals(
        new OmpThreads.Setting(4, OmpThreads.Source.PROPERTY, 16),
        OmpThreads.choose(Map.of(), four, 16));
    assertEquals(
        new OmpThreads.Setting(8, OmpThreads.Source.DEFAULT, 16),
        OmpThreads.choose(Map.of(), none, 16));
    assertEquals(
        new OmpThreads.Setting(0, OmpThreads.Source.ENVIRONMENT, 16),
        OmpThreads.choose(Map.of("OMP_NUM_THREADS", "many"), none, 16));
  }

  @Test
  void aBadOrConflictingPropertyIsRefusedNamingBoth() {
    Properties zero = new Properties();
    zero.setProperty(OmpThreads.PROPERTY, "0");
    IllegalArgumentException bad =
        assertThrows(IllegalArgumentException.class, () -> OmpThreads.choose(Map.of(), zero, 2));
    assertEquals(
        "-Dkiln.mxnet.ompThreads must be a positive number of threads, got '0'", bad.getMessage());
    Properties two = new Properties();
    two.setProperty(OmpThreads.PROPERTY, "2");
    IllegalArgumentException clash =
        assertThrows(
            IllegalArgumentException.class,
            () -> OmpThreads.choose(Map.of("OMP_NUM_THREADS", "3"), two, 2));
    assertEquals(
        "-Dkiln.mxnet.ompThreads=2 and OMP_NUM_THREADS=3 in the environment disagree; set one of"
            + " them",
        clash.getMessage());
  }

  @Test
  void reportsWhereTheCountCameFrom() {
    assertEquals(
        "1 OpenMP thread per MXNet kernel (half of 2 cores, Kiln's default)",
        new OmpThreads.Setting(1, OmpThreads.Source.DEFAULT, 2).toString());
    assertEquals(
        "3 OpenMP threads per MXNet kernel (OMP_NUM_THREADS from the environment)",
        new OmpThreads.Setting(3, OmpThreads.Source.ENVIRONMENT, 2).toString());
  }

  @Test
  void withoutTheVariableMxnetRunsHalfTheCoresTheJvmMayUse() throws Exception {
    // 6 processors for the JVM: 3 threads, where MXNet alone would take half the machine's.
    Probe six = probe(null, "-XX:ActiveProcessorCount=6");
    assertEquals(3, six.team(), six.output());
    assertTrue(six.output().contains("SETTING 3 OpenMP threads per MXNet kernel (half of 6"));
    Probe one = probe(null, "-XX:ActiveProcessorCount=1");
    assertEquals(1, one.team(), one.output());
    int cores = Runtime.getRuntime().availableProcessors();
    Probe here = probe(null);
    assertEquals(OmpThreads.defaultFor(cores), here.team(), here.output());
  }

  @Test
  void anExplicitVariableIsRespected() throws Exception {
    // 3 on a JVM told it has 2 processors: the default would be 1.
    Probe three = probe("3", "-XX:ActiveProcessorCount=2");
    assertEquals(3, three.team(), three.output());
    assertTrue(three.output().contains("(OMP_NUM_THREADS from the environment)"));
    assertNotEquals(OmpThreads.defaultFor(2), three.team());
  }

  @Test
  void thePropertyPicksTheCountWhenTheVariableIsUnset() throws Exception {
    Probe two = probe(null, "-D" + OmpThreads.PROPERTY + "=2", "-XX:ActiveProcessorCount=1");
    assertEquals(2, two.team(), two.output());
    assertTrue(two.output().contains("(-Dkiln.mxnet.ompThreads)"), two.output());
  }

  @Test
  void aConflictStopsTheLoadWithBothNamed() throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("OMP_NUM_THREADS", "3");
    TestJvm.Outcome o =
        TestJvm.run(OmpThreadsProbe.class, env, List.of("-D" + OmpThreads.PROPERTY + "=2"), 120);
    assertTrue(o.finished());
    assertNotEquals(0, o.exitValue());
    assertTrue(o.output().contains("-Dkiln.mxnet.ompThreads=2 and OMP_NUM_THREADS=3"), o.output());
  }

  private record Probe(int team, String output) {}

  private static Probe probe(String variable, String... jvmOptions) throws Exception {
    Map<String, String> env = new HashMap<>();
    env.put("OMP_NUM_THREADS", variable);
    TestJvm.Outcome o = TestJvm.run(OmpThreadsProbe.class, env, List.of(jvmOptions), 120);
    assertTrue(o.finished(), "the probe did not finish in 120 s: " + o.output());
    assertEquals(0, o.exitValue(), o.output());
    Matcher m = TEAM.matcher(o.output());
    assertTrue(m.find(), o.output());
    return new Probe(Integer.parseInt(m.group(1)), o.output());
  }
}
