package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kiln.cli.Kiln;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code launch --hosts} jobs started through a remote shell: on loopback through a stand-in remote
 * shell ({@code env KILN_FAKE_HOST={host}}, with the hosts 127.0.0.1 to 127.0.0.3, all loopback
 * addresses).
 */
class MultiHostTest {
  private static final Pattern EPOCH =
      Pattern.compile("^KILN EPOCH rank=(\\d+) epoch=(\\d+) params=(\\w+)$");

  @TempDir Path dir;

  @TempDir static Path shared;

  private Job fakeRemote;

  /** A finished job: the launcher's exit status and console, and where its logs are. */
  record Job(int status, String output, Path logs, Path out) {
    /** Every worker's per-epoch parameter hashes: epoch, then rank, to hash. */
    Map<Integer, Map<Integer, String>> epochHashes() throws IOException {
      Map<Integer, Map<Integer, String>> hashes = new TreeMap<>();
      try (Stream<Path> files = Files.list(logs)) {
        for (Path log :
            files.filter(p -> p.getFileName().toString().startsWith("worker-")).toList()) {
          for (String line : Files.readAllLines(log)) {
            Matcher m = EPOCH.matcher(line);
            if (m.matches()) {
              hashes
                  .computeIfAbsent(Integer.parseInt(m.group(2)), e -> new TreeMap<>())
                  .put(Integer.parseInt(m.group(1)), m.group(3));
            }
          }
        }
      }
      return hashes;
    }
  }

  static final String[] SHORT_RUN = {
    "--model", "mlp", "--limit", "3000", "--epochs", "2", "--batch-size", "50", "--seed", "7"
  };

  /** Runs {@code launch} through the command line as a user would, capturing its console. */
  static Job launch(Path dir, String name, List<String> launchArgs, String... trainArgs) {
    Path logs = dir.resolve(name + "-logs");
    Path out = dir.resolve(name + "-out");
    List<String> args = new ArrayList<>(List.of("launch", "--logs", logs.toString()));
    args.addAll(launchArgs);
    args.add("--");
    args.add("train");
    args.addAll(List.of(trainArgs));
    args.addAll(List.of("--out", out.toString()));
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(text, true, StandardCharsets.UTF_8));
    int status;
    try {
      status = Kiln.commandLine().execute(args.toArray(new String[0]));
    } finally {
      System.setOut(saved);
    }
    return new Job(status, text.toString(StandardCharsets.UTF_8), logs, out);
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** The job on loopback through the stand-in remote shell, which others compare with. */
  private synchronized Job fakeRemoteJob() throws IOException {
    if (fakeRemote == null) {
      Path hosts =
          Files.writeString(
              shared.resolve("hosts"),
              "# scheduler and server only\n127.0.0.1:0\n127.0.0.2   # one worker\n127.0.0.3\n");
      fakeRemote =
          launch(
              shared,
              "fake-remote",
              List.of(
                  "--hosts",
                  hosts.toString(),
                  "--remote-shell",
                  "env KILN_FAKE_HOST={host}",
                  "--port",
                  Integer.toString(freePort()),
                  "--workers",
                  "2",
                  "--servers",
                  "1",
                  "--timeout",
                  "120"),
              SHORT_RUN);
    }
    return fakeRemote;
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void aJobOnThreeHostsThroughARemoteShellStreamsEveryProcessByRoleRankAndHost() throws Exception {
    Job job = fakeRemoteJob();
    String out = job.output();
    assertEquals(0, job.status(), out);
    assertTrue(
        out.contains(
            "job: 1 scheduler, 1 server, 2 workers on 3 hosts, the scheduler at 127.0.0.1:"),
        out);
    // Every process's output, prefixed by role, rank and host; the placement as documented.
    assertTrue(out.contains("[scheduler 0 127.0.0.1] KILN NODE role=scheduler"), out);
    assertTrue(out.contains("[server 0 127.0.0.1] KILN NODE role=server"), out);
    Map<Integer, String> workerHosts = new TreeMap<>();
    Matcher registered =
        Pattern.compile("\\[worker (\\d) (127\\.0\\.0\\.\\d)\\] KILN NODE role=worker rank=(\\d)")
            .matcher(out);
    while (registered.find()) {
      assertEquals(registered.group(1), registered.group(3));
      workerHosts.put(Integer.parseInt(registered.group(1)), registered.group(2));
    }
    assertEquals(List.of(0, 1), List.copyOf(workerHosts.keySet()), out);
    assertEquals(
        List.of("127.0.0.2", "127.0.0.3"), workerHosts.values().stream().sorted().toList(), out);
    assertFalse(out.contains("KILN STEP"), "progress beacons stay in the logs");
    assertFalse(out.contains("KILN SHELL"), out);
    // The workers agree after every epoch; rank 0's result is printed.
    Map<Integer, Map<Integer, String>> hashes = job.epochHashes();
    assertEquals(List.of(1, 2), List.copyOf(hashes.keySet()), hashes.toString());
    for (Map<Integer, String> epoch : hashes.values()) {
      assertEquals(epoch.get(0), epoch.get(1), "ranks disagree: " + hashes);
    }
    assertTrue(out.contains("rank 0 (" + job.logs().resolve("worker-0.log") + "):"), out);
    assertTrue(out.lines().anyMatch(l -> l.matches("  test accuracy 0\\.\\d{4} .*")), out);
    for (String log :
        new String[] {"scheduler.log", "server-0.log", "worker-0.log", "worker-1.log"}) {
      assertTrue(Files.isRegularFile(job.logs().resolve(log)), log);
    }
    assertTrue(Files.readString(job.logs().resolve("worker-0.log")).contains("KILN STEP"));
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void aJobAcrossThreeNetworkNamespacesTrainsTheParametersOfTheLoopbackJob() throws Exception {
    assumeNamespaces();
    try (Namespaces net = Namespaces.create(3)) {
      List<String> h = net.hosts();
      Job job = launch(dir, "netns", namespaceJob(net, "120"), SHORT_RUN);
      assertEquals(0, job.status(), job.output());
      assertTrue(job.output().contains("[scheduler 0 " + h.get(0) + "] KILN NODE"), job.output());
      assertTrue(
          job.output().contains("through ip netns exec {host}; logs in " + job.logs()),
          job.output());
      // Two workers' gradients sum to the same floats in either order: the job over the bridge
      // trains exactly the parameters of the job on loopback, epoch by epoch.
      Job loopback = fakeRemoteJob();
      assertEquals(0, loopback.status(), loopback.output());
      assertEquals(loopback.epochHashes(), job.epochHashes());
      assertEquals(accuracy(loopback), accuracy(job), 0.005);
      for (String host : h) {
        assertEquals(List.of(), net.pids(host), "left running in " + host);
      }
    }
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void aWorkerWhoseLinkIsCutMidEpochEndsTheJobNamingItAndItsHost() throws Exception {
    assumeNamespaces();
    try (Namespaces net = Namespaces.create(3)) {
      String victimHost = net.hosts().get(2);
      Running job =
          Running.start(
              dir,
              "cut",
              namespaceJob(net, "120"),
              "--model",
              "mlp",
              "--epochs",
              "50",
              "--batch-size",
              "50");
      int rank = job.rankOn(victimHost, 60);
      job.awaitMidEpoch(rank, 60);
      net.cut(victimHost);
      long cut = System.nanoTime();
      int status = job.await(60);
      double seconds = (System.nanoTime() - cut) / 1e9;
      String out = job.output();
      assertEquals(dev.kiln.cli.launch.Launcher.LOST, status, out);
      assertTrue(out.contains("FAILED: worker rank " + rank + " on " + victimHost + ", pid "), out);
      System.out.printf(
          java.util.Locale.ROOT,
          "cut worker rank %d on %s: the job ended %.1f s later%n",
          rank,
          victimHost,
          seconds);
      // The documented bound: heartbeat timeout 5 s, three polls a second apart, then the stop.
      assertTrue(seconds < 20, "the job took " + seconds + " s to end after the cut:\n" + out);
      for (String host : net.hosts()) {
        assertEquals(List.of(), net.pids(host), "left running in " + host + ":\n" + out);
      }
    }
  }

  /** The launch options of a job on {@code net}: scheduler and server on the first host. */
  static List<String> namespaceJob(Namespaces net, String timeout) throws IOException {
    List<String> h = net.hosts();
    Path hosts = Files.createTempFile("kiln-hosts", ".txt");
    Files.writeString(hosts, h.get(0) + ":0\n" + h.get(1) + "\n" + h.get(2) + "\n");
    hosts.toFile().deleteOnExit();
    return List.of(
        "--hosts",
        hosts.toString(),
        "--remote-shell",
        Namespaces.remoteShell(),
        "--port",
        "9091",
        "--workers",
        "2",
        "--servers",
        "1",
        "--timeout",
        timeout);
  }

  static void assumeNamespaces() {
    Optional<String> why = Namespaces.unavailable();
    assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
  }

  static double accuracy(Job job) {
    Matcher m = Pattern.compile("  test accuracy (0\\.\\d+) ").matcher(job.output());
    assertTrue(m.find(), job.output());
    return Double.parseDouble(m.group(1));
  }

  /** A {@code launch} running on a thread of its own, its console captured as it goes. */
  static final class Running {
    private final ByteArrayOutputStream text = new ByteArrayOutputStream();
    private final Path logs;
    private CompletableFuture<Integer> status;

    private Running(Path logs) {
      this.logs = logs;
    }

    static Running start(Path dir, String name, List<String> launchArgs, String... trainArgs) {
      Path logs = dir.resolve(name + "-logs");
      Running r = new Running(logs);
      List<String> args = new ArrayList<>(List.of("launch", "--logs", logs.toString()));
      args.addAll(launchArgs);
      args.add("--");
      args.addAll(List.of(trainArgs));
      args.addAll(List.of("--out", dir.resolve(name + "-out").toString()));
      PrintStream console = new PrintStream(r.text, true, StandardCharsets.UTF_8);
      r.status =
          CompletableFuture.supplyAsync(
              () -> {
                var cl = Kiln.commandLine();
                cl.setOut(new java.io.PrintWriter(console, true));
                PrintStream saved = System.out;
                System.setOut(console);
                try {
                  return cl.execute(args.toArray(new String[0]));
                } finally {
                  System.setOut(saved);
                }
              });
      return r;
    }

    synchronized String output() {
      return text.toString(StandardCharsets.UTF_8);
    }

    /** The rank of the worker on {@code host}, once it has registered. */
    int rankOn(String host, int seconds) throws Exception {
      Pattern p =
          Pattern.compile(
              "\\[worker (\\d+) " + Pattern.quote(host) + "\\] KILN NODE role=worker rank=");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (System.nanoTime() < deadline && !status.isDone()) {
        Matcher m = p.matcher(output());
        if (m.find()) {
          return Integer.parseInt(m.group(1));
        }
        Thread.sleep(200);
      }
      throw new AssertionError("no worker registered on " + host + ":\n" + output());
    }

    /** Waits until the worker of {@code rank} is past the first steps of epoch 1. */
    void awaitMidEpoch(int rank, int seconds) throws Exception {
      awaitMidEpoch(rank, 1, seconds);
    }

    /** Waits until the worker of {@code rank} is past the first steps of {@code epoch}. */
    void awaitMidEpoch(int rank, int epoch, int seconds) throws Exception {
      Path log = logs.resolve("worker-" + rank + ".log");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (System.nanoTime() < deadline && !status.isDone()) {
        if (Files.isRegularFile(log)
            && Files.readAllLines(log).stream()
                .anyMatch(
                    l ->
                        l.startsWith("KILN STEP rank=" + rank + " epoch=" + epoch + " batch=")
                            && !l.contains("batch=1 "))) {
          return;
        }
        Thread.sleep(200);
      }
      throw new AssertionError("worker " + rank + " made no progress:\n" + output());
    }

    int await(int seconds) throws Exception {
      return status.get(seconds, TimeUnit.SECONDS);
    }
  }
}
