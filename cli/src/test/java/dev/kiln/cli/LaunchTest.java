package dev.kiln.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.kiln.cli.launch.Launcher;
import dev.kiln.sample.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real {@code dist_sync} jobs on loopback: a scheduler, servers and workers, each a JVM running the
 * sample app's {@code train} on the first Fashion-MNIST images, started and watched by {@link
 * Launcher} on a free port. Every job runs under the launcher's own limits and the test's timeout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LaunchTest {
  private static final Pattern EPOCH =
      Pattern.compile("^KILN EPOCH rank=(\\d+) epoch=(\\d+) params=(\\w+)$");
  private static final Pattern NODE =
      Pattern.compile("^KILN NODE role=worker rank=(\\d+) pid=(\\d+).*");

  @TempDir Path dir;

  /** Where the job several tests compare with keeps its logs and checkpoint. */
  @TempDir static Path shared;

  private Job oneServer;

  /** A finished (or stopped) job: the launcher's status and output, and where its logs are. */
  private record Job(int status, String output, Path logs, Path out) {
    /** Every worker's per-epoch parameter hashes: epoch, then rank, to hash. */
    Map<Integer, Map<Integer, String>> epochHashes() throws IOException {
      Map<Integer, Map<Integer, String>> hashes = new TreeMap<>();
      for (Path log : workerLogs()) {
        for (String line : Files.readAllLines(log)) {
          Matcher m = EPOCH.matcher(line);
          if (m.matches()) {
            hashes
                .computeIfAbsent(Integer.parseInt(m.group(2)), e -> new TreeMap<>())
                .put(Integer.parseInt(m.group(1)), m.group(3));
          }
        }
      }
      return hashes;
    }

    List<Path> workerLogs() throws IOException {
      try (Stream<Path> files = Files.list(logs)) {
        return files
            .filter(p -> p.getFileName().toString().startsWith("worker-"))
            .sorted()
            .toList();
      }
    }
  }

  private static List<String> trainCommand(String... trainArgs) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g",
                "-Dai.djl.offline=true",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "train"));
    command.addAll(List.of(trainArgs));
    return command;
  }

  private Job run(
      String name, int workers, int servers, Map<String, String> env, String... trainArgs) {
    return run(dir, name, workers, servers, env, trainArgs);
  }

  private static Job run(
      Path dir,
      String name,
      int workers,
      int servers,
      Map<String, String> env,
      String... trainArgs) {
    Path logs = dir.resolve(name + "-logs");
    Path out = dir.resolve(name + "-out");
    List<String> args = new ArrayList<>(List.of(trainArgs));
    args.addAll(List.of("--out", out.toString()));
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    int status =
        Launcher.run(
            new Launcher.Spec(
                workers,
                servers,
                trainCommand(args.toArray(new String[0])),
                logs,
                env,
                Duration.ofSeconds(120),
                Duration.ofSeconds(60),
                Duration.ofSeconds(30)),
            new PrintStream(text, true, StandardCharsets.UTF_8));
    return new Job(status, text.toString(StandardCharsets.UTF_8), logs, out);
  }

  private static final String[] SHORT_RUN = {
    "--model", "mlp", "--limit", "3000", "--epochs", "2", "--batch-size", "50", "--seed", "7"
  };

  /** Two workers and one server on the MLP, the job every other comparison uses. */
  private synchronized Job oneServerJob() {
    if (oneServer == null) {
      oneServer = run(shared, "one-server", 2, 1, Map.of("OPT_OUT_TRACKING", "true"), SHORT_RUN);
    }
    return oneServer;
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void twoWorkersHoldTheSameParametersAfterEveryEpochAndRankZeroWritesTheCheckpoint()
      throws Exception {
    Job job = oneServerJob();
    assertEquals(0, job.status(), job.output());
    Map<Integer, Map<Integer, String>> hashes = job.epochHashes();
    assertEquals(List.of(1, 2), List.copyOf(hashes.keySet()), hashes.toString());
    for (Map<Integer, String> epoch : hashes.values()) {
      assertEquals(List.of(0, 1), List.copyOf(epoch.keySet()), hashes.toString());
      assertEquals(epoch.get(0), epoch.get(1), "ranks disagree: " + hashes);
    }
    assertFalse(hashes.get(1).get(0).equals(hashes.get(2).get(0)), "training changed nothing");
    assertTrue(Files.size(job.out().resolve("mlp-0000.params")) > 400_000);
    String rankZero = rankLog(job, 0);
    Matcher accuracy = Pattern.compile("test accuracy (0\\.\\d+)").matcher(rankZero);
    assertTrue(accuracy.find(), rankZero);
    // 3,000 images twice over: far from chance (0.1), well short of a full run (0.88).
    assertTrue(Double.parseDouble(accuracy.group(1)) > 0.6, accuracy.group());
    assertTrue(job.output().contains("job finished"), job.output());
    // Rank 0's result is on the launcher's console, and the logs are named by role and rank.
    assertTrue(job.output().contains("rank 0 (" + job.logs().resolve("worker-0.log") + "):"));
    assertTrue(
        job.output().lines().anyMatch(l -> l.matches("  test accuracy 0\\.\\d{4} .*")),
        job.output());
    assertTrue(job.output().contains("  wrote " + job.out().resolve("mlp-symbol.json")));
    for (String log :
        new String[] {"scheduler.log", "server-0.log", "worker-0.log", "worker-1.log"}) {
      assertTrue(Files.isRegularFile(job.logs().resolve(log)), log);
    }
    assertTrue(rankLog(job, 0).equals(Files.readString(job.logs().resolve("worker-0.log"))));
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void aModelWithALossHeadTrainsInAJobAsAClassifierDoes() throws Exception {
    Job job =
        run(
            "autoencoder",
            2,
            1,
            Map.of("OPT_OUT_TRACKING", "true"),
            "--model",
            "autoencoder",
            "--limit",
            "600",
            "--epochs",
            "2",
            "--seed",
            "3");
    assertEquals(0, job.status(), job.output());
    Map<Integer, Map<Integer, String>> hashes = job.epochHashes();
    assertEquals(List.of(1, 2), List.copyOf(hashes.keySet()), hashes.toString());
    for (Map<Integer, String> epoch : hashes.values()) {
      assertEquals(epoch.get(0), epoch.get(1), "ranks disagree: " + hashes);
    }
    assertTrue(
        job.output().lines().anyMatch(l -> l.matches("  test MSE 0\\.\\d{4} .*")), job.output());
    assertTrue(
        job.output().contains("  wrote " + job.out().resolve("autoencoder-symbol.json")),
        job.output());
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void aWorkerThatRefusesItsArgumentsIsReportedByItsFirstErrorAndNothingAborts() throws Exception {
    Job job =
        run(
            "bad-args",
            2,
            1,
            Map.of("OPT_OUT_TRACKING", "true"),
            "--model",
            "resnet",
            "--limit",
            "100");
    assertEquals(Launcher.PROCESS_FAILED, job.status(), job.output());
    assertTrue(
        job.output()
            .contains(
                "  | KILN ERROR Invalid value for option '--model': unknown model 'resnet'; "
                    + "choose mlp, lenet, lstm, conv1d, autoencoder, vit"),
        job.output());
    assertFalse(job.output().contains("--weight-decay"), "no help text: " + job.output());
    // Stopped through their standard input, the scheduler and the server halt without ps-lite
    // aborting in C++'s static destructors.
    for (String log : new String[] {"scheduler.log", "server-0.log"}) {
      String text = Files.readString(job.logs().resolve(log));
      assertFalse(text.contains("terminate called"), log + ":\n" + text);
    }
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void twoServersHoldingSlicesOfTheFusedArrayTrainTheSameParametersAsOne() throws Exception {
    // The MLP's fused gradient (101,770 floats) is above the lowered bound, so the workers cut
    // it into one slice per server; each server sums its slice.
    Job two =
        run(
            "two-servers",
            2,
            2,
            Map.of("OPT_OUT_TRACKING", "true", "MXNET_KVSTORE_BIGARRAY_BOUND", "20000"),
            SHORT_RUN);
    assertEquals(0, two.status(), two.output());
    Job one = oneServerJob();
    assertEquals(0, one.status(), one.output());
    assertEquals(
        one.epochHashes(),
        two.epochHashes(),
        "the sum of two workers' gradients does not depend on how keys spread over servers");
    assertEquals(
        -1L,
        Files.mismatch(one.out().resolve("mlp-0000.params"), two.out().resolve("mlp-0000.params")));
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void theOptimizerOnTheServersTrainsTheSameParametersAsOnTheWorkers() throws Exception {
    String[] args = java.util.Arrays.copyOf(SHORT_RUN, SHORT_RUN.length + 2);
    args[SHORT_RUN.length] = "--updates";
    args[SHORT_RUN.length + 1] = "servers";
    Job servers = run("on-servers", 2, 1, Map.of("OPT_OUT_TRACKING", "true"), args);
    assertEquals(0, servers.status(), servers.output());
    String server = Files.readString(servers.logs().resolve("server-0.log"));
    assertTrue(
        server.contains("KILN UPDATES role=server kiln-updates keys=0 optimizer=adam "), server);
    Job workers = oneServerJob();
    assertEquals(0, workers.status(), workers.output());
    // The same fused Adam step on the same summed gradients, run by the server instead.
    assertEquals(workers.epochHashes(), servers.epochHashes());
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void anAsyncJobAppliesEachWorkersGradientAsItArrives() throws Exception {
    String[] args = java.util.Arrays.copyOf(SHORT_RUN, SHORT_RUN.length + 2);
    args[SHORT_RUN.length] = "--updates";
    args[SHORT_RUN.length + 1] = "async";
    Job async = run("async", 2, 1, Map.of("OPT_OUT_TRACKING", "true"), args);
    assertEquals(0, async.status(), async.output());
    String worker = Files.readString(async.logs().resolve("worker-0.log"));
    assertTrue(worker.contains("updates on the servers, asynchronously (dist_async)"), worker);
    // The server steps once per push: its cosine schedule spans both workers' 56 steps each (a
    // schedule of 56 left the rate at 0 from the job's first epoch on).
    String server = Files.readString(async.logs().resolve("server-0.log"));
    assertTrue(server.contains(" optimizer=adam schedule=cosine:0.001:0.0:112 "), server);
    // dist_sync would give every worker the same parameters after every step; here each worker
    // holds the parameters as they stood when its own last pull came back.
    Map<Integer, Map<Integer, String>> hashes = async.epochHashes();
    assertEquals(List.of(1, 2), List.copyOf(hashes.keySet()), hashes.toString());
    for (Map<Integer, String> epoch : hashes.values()) {
      assertEquals(2, epoch.size(), hashes.toString());
      assertNotEquals(epoch.get(0), epoch.get(1), "workers agree, as in a sync job: " + hashes);
    }
    for (int rank = 0; rank < 2; rank++) {
      assertNotEquals(hashes.get(1).get(rank), hashes.get(2).get(rank), "no training: " + hashes);
    }
    // Each push is one step of 50 examples: as many steps of that size as one process at batch
    // 50 makes (the sync job makes half as many, of 100).
    Job sync = oneServerJob();
    assertEquals(0, sync.status(), sync.output());
    double a = accuracy(sync);
    double b = accuracy(async);
    System.out.printf(
        java.util.Locale.ROOT, "test accuracy: dist_sync %.4f, dist_async %.4f%n", a, b);
    // Twice the updates of the sync job, on parameters a few pushes old: measured 0.7353 to 0.7370
    // against 0.7167 (a server whose rate reached 0 halfway: 0.6880).
    assertTrue(b > a - 0.02, "dist_async " + b + " against dist_sync " + a);
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void twoBitCompressedPushesKeepTheWorkersAgreeingAndStillTrain() throws Exception {
    String[] args = java.util.Arrays.copyOf(SHORT_RUN, SHORT_RUN.length + 2);
    args[SHORT_RUN.length] = "--compression";
    args[SHORT_RUN.length + 1] = "2bit:0.5";
    Job compressed = run("2bit", 2, 1, Map.of("OPT_OUT_TRACKING", "true"), args);
    assertEquals(0, compressed.status(), compressed.output());
    String worker = Files.readString(compressed.logs().resolve("worker-0.log"));
    assertTrue(worker.contains(" updates=ON_WORKERS compression=2bit:0.5"), worker);
    // Every worker pulls the same full-size sum of the decompressed pushes.
    Map<Integer, Map<Integer, String>> hashes = compressed.epochHashes();
    assertEquals(List.of(1, 2), List.copyOf(hashes.keySet()), hashes.toString());
    for (Map<Integer, String> epoch : hashes.values()) {
      assertEquals(2, epoch.size(), hashes.toString());
      assertEquals(epoch.get(0), epoch.get(1), "ranks disagree: " + hashes);
    }
    // The quantized gradients are not the plain job's: other parameters, close accuracy.
    Job plain = oneServerJob();
    assertEquals(0, plain.status(), plain.output());
    assertNotEquals(plain.epochHashes().get(1).get(0), hashes.get(1).get(0));
    double a = accuracy(plain);
    double b = accuracy(compressed);
    System.out.printf(java.util.Locale.ROOT, "test accuracy: plain %.4f, 2bit:0.5 %.4f%n", a, b);
    assertEquals(a, b, 0.05, compressed.output());
  }

  /** Rank 0's test accuracy, from the launcher's console. */
  private static double accuracy(Job job) {
    Matcher m = Pattern.compile("  test accuracy (0\\.\\d+) ").matcher(job.output());
    assertTrue(m.find(), job.output());
    return Double.parseDouble(m.group(1));
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void aWorkerKilledMidEpochStopsTheWholeJobNamingItsRankAndLog() throws Exception {
    Path logs = dir.resolve("kill-logs");
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream sink = new PrintStream(text, true, StandardCharsets.UTF_8);
    CompletableFuture<Integer> status =
        CompletableFuture.supplyAsync(
            () ->
                Launcher.run(
                    new Launcher.Spec(
                        2,
                        1,
                        trainCommand(
                            "--model",
                            "mlp",
                            "--epochs",
                            "50",
                            "--batch-size",
                            "50",
                            "--out",
                            dir.resolve("kill-out").toString()),
                        logs,
                        Map.of("OPT_OUT_TRACKING", "true"),
                        Duration.ofSeconds(120),
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(30)),
                    sink));
    long victim = waitForProgress(logs, 1, 60);
    List<ProcessHandle> job = ProcessHandle.current().descendants().toList();
    assertTrue(job.size() >= 4, "scheduler, server and two workers: " + job);
    ProcessHandle.of(victim).orElseThrow().destroyForcibly();
    long killed = System.nanoTime();
    int code = status.get(40, TimeUnit.SECONDS);
    double seconds = (System.nanoTime() - killed) / 1e9;
    String output = text.toString(StandardCharsets.UTF_8);
    assertEquals(Launcher.PROCESS_FAILED, code, output);
    assertTrue(seconds < 30, "the job took " + seconds + " s to stop");
    assertTrue(output.contains("FAILED: worker rank 1 on 127.0.0.1, pid " + victim), output);
    // The process is named as its log file is.
    assertTrue(output.contains("log: " + logs.resolve("worker-1.log")), output);
    assertTrue(output.contains("pid " + victim), output);
    assertTrue(output.contains("137 (SIGKILL)"), output);
    assertTrue(output.contains("log: " + logs), output);
    for (ProcessHandle p : job) {
      assertFalse(
          p.isAlive(),
          "still running after the launcher returned: "
              + p.pid()
              + " "
              + p.info().commandLine().orElse(""));
    }
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void whenTheLauncherDiesEveryProcessOfItsJobHalts() throws Exception {
    Path logs = dir.resolve("orphan-logs");
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dai.djl.offline=true",
                "-cp",
                System.getProperty("java.class.path"),
                Kiln.class.getName(),
                "launch",
                "--workers",
                "2",
                "--servers",
                "1",
                "--logs",
                logs.toString(),
                "--",
                "--model",
                "mlp",
                "--epochs",
                "50",
                "--batch-size",
                "50",
                "--out",
                dir.resolve("orphan-out").toString()));
    Process launcher =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("launcher.log").toFile())
            .start();
    try {
      waitForProgress(logs, 1, 60);
      List<ProcessHandle> job = launcher.toHandle().descendants().toList();
      assertTrue(job.size() >= 4, "scheduler, server and two workers: " + job);
      launcher.toHandle().destroyForcibly();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      for (ProcessHandle p : job) {
        long left = deadline - System.nanoTime();
        try {
          p.onExit().get(Math.max(1, left), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          fail(
              "pid "
                  + p.pid()
                  + " still running 20 s after its launcher died: "
                  + p.info().commandLine().orElse(""));
        }
      }
    } finally {
      launcher.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      launcher.destroyForcibly();
    }
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void aModelThatIsNotAClassifierTrainsByHandOnEveryWorkerAsOneModelOnTheJoinedBatch()
      throws Exception {
    // A program of one's own, started by the launch command as any program is.
    Path logs = dir.resolve("regression-logs");
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(text, true, StandardCharsets.UTF_8));
    int status;
    try {
      status =
          Kiln.commandLine()
              .execute(
                  "launch",
                  "--workers",
                  "2",
                  "--servers",
                  "1",
                  "--logs",
                  logs.toString(),
                  "--timeout",
                  "120",
                  "--stall",
                  "30",
                  "--",
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx512m",
                  "-Dai.djl.offline=true",
                  "-cp",
                  System.getProperty("java.class.path"),
                  RegressionJob.class.getName());
    } finally {
      System.setOut(saved);
    }
    assertEquals(0, status, text.toString(StandardCharsets.UTF_8));
    Map<Integer, String> results = new TreeMap<>();
    Pattern result = Pattern.compile("^KILN RESULT rank=(\\d+) (.*)$");
    for (Path log : new Job(status, "", logs, null).workerLogs()) {
      for (String line : Files.readAllLines(log)) {
        Matcher m = result.matcher(line);
        if (m.matches()) {
          results.put(Integer.parseInt(m.group(1)), m.group(2));
        }
      }
    }
    assertEquals(List.of(0, 1), List.copyOf(results.keySet()), results.toString());
    assertEquals(results.get(0), results.get(1), "ranks disagree");
    float[] job = numbers(results.get(0));
    float[] one = numbers(RegressionJob.reference(2));
    assertEquals(one.length, job.length);
    for (int i = 0; i < one.length; i++) {
      assertEquals(one[i], job[i], 1e-5, "value " + i + " of " + results.get(0));
    }
  }

  private static float[] numbers(String text) {
    return Pattern.compile("-?\\d+\\.\\d+(E-?\\d+)?")
        .matcher(text)
        .results()
        .map(m -> Float.parseFloat(m.group()))
        .collect(
            java.util.stream.Collectors.collectingAndThen(
                java.util.stream.Collectors.toList(),
                list -> {
                  float[] f = new float[list.size()];
                  for (int i = 0; i < f.length; i++) {
                    f[i] = list.get(i);
                  }
                  return f;
                }));
  }

  @Test
  void aHostsFileGetsOneCommandPerProcessWithPsLitesEnvironment() throws Exception {
    Path hosts =
        Files.writeString(
            dir.resolve("hosts"), "# the scheduler's host first\n" + "10.0.0.1\n10.0.0.2\n\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    int code;
    try {
      code =
          Kiln.commandLine()
              .execute(
                  "launch",
                  "--workers",
                  "3",
                  "--servers",
                  "1",
                  "--hosts",
                  hosts.toString(),
                  "--dry-run",
                  "--port",
                  "9200",
                  "--",
                  "train",
                  "--model",
                  "lenet");
    } finally {
      System.setOut(saved);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text);
    List<String> lines = text.lines().filter(l -> !l.startsWith("#")).toList();
    assertEquals(5, lines.size(), text);
    assertTrue(
        text.startsWith(
            "# Nothing is started. launch runs, for each process, 'ssh -o"
                + " BatchMode=yes HOST sh -s'"),
        text);
    String cd = "cd " + Path.of(System.getProperty("user.dir")).toAbsolutePath() + " && ";
    assertTrue(
        lines
            .get(0)
            .startsWith(
                "10.0.0.1: "
                    + cd
                    + "env DMLC_ROLE=scheduler "
                    + "DMLC_PS_ROOT_URI=10.0.0.1 DMLC_PS_ROOT_PORT=9200 DMLC_NUM_WORKER=3 "
                    + "DMLC_NUM_SERVER=1 DMLC_NODE_HOST=10.0.0.1"),
        lines.get(0));
    assertTrue(lines.get(1).startsWith("10.0.0.1: " + cd + "env DMLC_ROLE=server "), lines.get(1));
    assertTrue(lines.get(2).startsWith("10.0.0.1: " + cd + "env DMLC_ROLE=worker "), lines.get(2));
    assertTrue(lines.get(3).startsWith("10.0.0.2: " + cd + "env DMLC_ROLE=worker "), lines.get(3));
    assertTrue(lines.get(3).contains("DMLC_NODE_HOST=10.0.0.2"), lines.get(3));
    assertTrue(lines.get(4).startsWith("10.0.0.1: " + cd + "env DMLC_ROLE=worker "), lines.get(4));
    for (String line : lines) {
      assertFalse(line.contains("KILN_LAUNCHED"), "by hand, it must not halt on EOF: " + line);
    }
    for (String line : lines) {
      assertTrue(line.endsWith(" dev.kiln.sample.Main train --model lenet"), line);
    }
  }

  /** The log of the worker of {@code rank}. */
  private static String rankLog(Job job, int rank) throws IOException {
    for (Path log : job.workerLogs()) {
      String text = Files.readString(log);
      if (text.contains("KILN NODE role=worker rank=" + rank + " ")) {
        return text;
      }
    }
    throw new AssertionError("no worker of rank " + rank + " in " + job.logs());
  }

  /**
   * Waits until the worker of {@code rank} is past its first steps (mid-epoch) and returns its pid.
   */
  private static long waitForProgress(Path logs, int rank, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      Optional<Long> pid = progressed(logs, rank);
      if (pid.isPresent()) {
        return pid.get();
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "worker " + rank + " made no progress in " + seconds + " s; logs in " + logs);
  }

  private static Optional<Long> progressed(Path logs, int rank) throws IOException {
    if (!Files.isDirectory(logs)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.list(logs)) {
      for (Path log :
          files.filter(p -> p.getFileName().toString().startsWith("worker-")).toList()) {
        List<String> lines;
        try {
          lines = Files.readAllLines(log);
        } catch (java.nio.file.NoSuchFileException e) {
          continue; // renamed by rank as it registered: read on the next round
        }
        Long pid = null;
        boolean midEpoch = false;
        for (String line : lines) {
          Matcher m = NODE.matcher(line);
          if (m.matches() && Integer.parseInt(m.group(1)) == rank) {
            pid = Long.parseLong(m.group(2));
          }
          midEpoch |=
              line.startsWith("KILN STEP rank=" + rank + " epoch=1 batch=")
                  && !line.contains("batch=1 ");
        }
        if (pid != null && midEpoch) {
          return Optional.of(pid);
        }
      }
    }
    return Optional.empty();
  }
}
