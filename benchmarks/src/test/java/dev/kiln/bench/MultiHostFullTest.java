package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.bench.MultiHostTest.Job;
import dev.kiln.bench.MultiHostTest.Running;
import dev.kiln.cli.launch.Launcher;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slow part of the multi-host checks, run with {@code -Dkiln.multihost.full=true} (about five
 * minutes on a quiet 2-core machine): jobs across network namespaces at 1 Gbit/s, 100 Mbit/s and 10
 * Mbit/s (tc tbf on every link), and a server killed mid-epoch whose job is resumed from its last
 * checkpoint to the accuracy of an unbroken run. Each prints its figures to standard output.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MultiHostFullTest {
  @TempDir Path dir;

  @BeforeAll
  void onlyWhenAskedFor() {
    assumeTrue(
        Boolean.getBoolean("kiln.multihost.full"),
        "the full multi-host run is off; run with -Dkiln.multihost.full=true");
    MultiHostTest.assumeNamespaces();
  }

  @Test
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  void jobsOverSlowLinksCompleteAndASecondServerHalvesTheBusiestLinksLoad() throws Exception {
    java.util.Optional<String> why = Namespaces.shapingUnavailable();
    assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
    List<LinkBench.Job> jobs = new ArrayList<>();
    try (Namespaces net = Namespaces.create(LinkBench.hostsFor(2, 2))) {
      for (double mbit : new double[] {0, 1000, 100, 10}) {
        jobs.add(job(net, mbit, 1, mbit == 10 ? 20 : 200));
      }
      // Two servers, each holding half of the fused array (the bound below its 101,770 floats),
      // each on a host of its own: each server's link carries half the bytes.
      jobs.add(job(net, 10, 2, 20));
      for (String host : net.hosts()) {
        assertEquals(List.of(), net.pids(host), "left running in " + host);
      }
    }
    System.out.print(LinkBench.table(jobs));
    for (int i = 1; i < 4; i++) {
      assertTrue(
          jobs.get(i).pushPullMillis() > jobs.get(i - 1).pushPullMillis(),
          "push and pull should slow down with the link:\n" + LinkBench.table(jobs));
    }
    for (LinkBench.Job j : jobs.subList(2, 4)) {
      // Each direction of the server's link carries both workers' 4 bytes per parameter, once to
      // push and once to pull; tbf lets a bucket (128 KiB) through at once, the rest at the rate.
      double floorMillis = 2 * (j.busiestBytes() - 128 * 1024) * 8 / (j.mbit() * 1e6) * 1e3;
      assertTrue(
          j.pushPullMillis() > 0.7 * floorMillis,
          String.format(
              Locale.ROOT,
              "%s: %.1f ms, under the link's %.1f ms",
              j,
              j.pushPullMillis(),
              floorMillis));
    }
    LinkBench.Job one = jobs.get(3);
    LinkBench.Job two = jobs.get(4);
    assertTrue(
        two.pushPullMillis() < 0.75 * one.pushPullMillis(),
        "two servers: " + two.pushPullMillis() + " ms against one's " + one.pushPullMillis());
  }

  private LinkBench.Job job(Namespaces net, double mbit, int servers, int steps) throws Exception {
    return LinkBench.run(
        net,
        System.getProperty("java.class.path"),
        Path.of("/usr/share/datasets/fashion-mnist"),
        dir.resolve("link-" + (int) mbit + "-" + servers),
        "mlp",
        32,
        steps,
        2,
        servers,
        mbit,
        servers > 1 ? Map.of("MXNET_KVSTORE_BIGARRAY_BOUND", "20000") : Map.of());
  }

  @Test
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  void aServerKilledMidEpochEndsTheJobAndResumingReachesTheUnbrokenAccuracy() throws Exception {
    String[] run = {
      "--model",
      "mlp",
      "--epochs",
      "4",
      "--batch-size",
      "50",
      "--schedule",
      "constant",
      "--seed",
      "5"
    };
    try (Namespaces net = Namespaces.create(3)) {
      String serverHost = net.hosts().get(0);
      Job unbroken =
          MultiHostTest.launch(dir, "unbroken", MultiHostTest.namespaceJob(net, "600"), run);
      assertEquals(0, unbroken.status(), unbroken.output());

      Running broken = Running.start(dir, "broken", MultiHostTest.namespaceJob(net, "600"), run);
      long server = serverPid(broken, serverHost, 120);
      broken.awaitMidEpoch(0, 3, 180);
      ProcessHandle.of(server).orElseThrow().destroyForcibly();
      long killed = System.nanoTime();
      int status = broken.await(60);
      double seconds = (System.nanoTime() - killed) / 1e9;
      String out = broken.output();
      assertEquals(Launcher.PROCESS_FAILED, status, out);
      assertTrue(
          out.contains(
              "FAILED: server 0 on "
                  + serverHost
                  + ", pid "
                  + server
                  + ": exited with 137 (SIGKILL)"),
          out);
      assertTrue(seconds < 10, "the job took " + seconds + " s to end after the kill");
      for (String host : net.hosts()) {
        assertEquals(List.of(), net.pids(host), "left running in " + host);
      }
      int done = lastEpoch(out);
      assertEquals(2, done, out);

      String[] rest = run.clone();
      rest[3] = Integer.toString(4 - done);
      List<String> resume = new ArrayList<>(List.of(rest));
      resume.addAll(List.of("--resume", dir.resolve("broken-out").resolve("mlp").toString()));
      Job resumed =
          MultiHostTest.launch(
              dir,
              "resumed",
              MultiHostTest.namespaceJob(net, "600"),
              resume.toArray(new String[0]));
      assertEquals(0, resumed.status(), resumed.output());
      double a = MultiHostTest.accuracy(unbroken);
      double b = MultiHostTest.accuracy(resumed);
      System.out.printf(
          Locale.ROOT,
          "killed server: job ended %.1f s after the kill; unbroken 4 epochs: test accuracy %.4f;"
              + " 2 epochs, killed in epoch 3, resumed for 2: %.4f (difference %.2f points)%n",
          seconds,
          a,
          b,
          100 * Math.abs(a - b));
      assertEquals(a, b, 0.005, "resumed " + b + " against unbroken " + a);
    }
  }

  private static long serverPid(Running job, String host, int seconds) throws Exception {
    Pattern p =
        Pattern.compile(
            "\\[server 0 " + Pattern.quote(host) + "\\] KILN NODE role=server rank=-1 pid=(\\d+)");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      Matcher m = p.matcher(job.output());
      if (m.find()) {
        return Long.parseLong(m.group(1));
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no server on " + host + ":\n" + job.output());
  }

  private static int lastEpoch(String out) {
    Matcher m = Pattern.compile("KILN EPOCH rank=0 epoch=(\\d+) ").matcher(out);
    int last = 0;
    while (m.find()) {
      last = Math.max(last, Integer.parseInt(m.group(1)));
    }
    return last;
  }
}
