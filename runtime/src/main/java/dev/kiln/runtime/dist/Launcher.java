package dev.kiln.runtime.dist;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts a {@code dist_sync} job on this machine (loopback) and sees it through: one scheduler,
 * {@code servers} servers and {@code workers} workers, each a process running {@code command} with
 * ps-lite's {@code DMLC_*} environment, its output in a log file of its own.
 *
 * <p>It never hangs. ps-lite has no failure handling (a dead process leaves the others waiting for
 * ever), so the launcher watches every process: when one exits with a failure, when a worker makes
 * no progress for {@link Spec#stall()} ({@link Spec#startup()} before its first step), or when the
 * job runs past {@link Spec#timeout()}, it stops every process of the job (SIGTERM, then SIGKILL
 * after two seconds) and returns a non-zero status, having printed which role, rank and host
 * failed, why (the first lines of its log that report an error, not the tail of a help text), and
 * where its log is. Its processes halt by themselves if the launcher dies (their standard input
 * closes, see {@link Node}), and the scheduler halts when ps-lite's heartbeats say a node is dead.
 *
 * <p>Logs are named by role and rank: {@code scheduler.log}, {@code server-<i>.log} (in start
 * order: ps-lite tells servers no rank), and {@code worker-<rank>.log} once the worker has
 * registered ({@code worker-unranked-<i>.log} until then). When the job succeeds, the launcher
 * prints what rank 0 reported with {@link Node#result} (e.g. the test accuracy and the files it
 * wrote).
 *
 * <p>The programs it starts must call {@link Node#serveIfServer()} first and train with {@link
 * DataParallel#distributed}, which prints the progress lines the launcher reads.
 */
public final class Launcher {
  /** Exit status when a process of the job failed (its own status is in the message). */
  public static final int PROCESS_FAILED = 2;

  /** Exit status when a worker stalled. */
  public static final int STALLED = 3;

  /** Exit status when the job ran past its time limit. */
  public static final int TIMED_OUT = 4;

  /** Exit status when the servers did not stop after the workers finished. */
  public static final int SERVERS_STUCK = 5;

  private static final Pattern NODE = Pattern.compile("^KILN NODE role=(\\w+) rank=(-?\\d+).*");
  private static final Pattern STEP = Pattern.compile("^KILN (STEP|EPOCH) .*");
  private static final Pattern RESULT = Pattern.compile("^KILN RESULT rank=(\\d+) (.*)$");

  /**
   * A line that reports an error: a Kiln protocol error, an exception or its cause, MXNet's and
   * ps-lite's failures, picocli's usage errors, an abort.
   */
  private static final Pattern ERROR =
      Pattern.compile(
          "^(KILN ERROR .*|.*Exception\\b.*|.*\\bError\\b.*|Caused by: .*|.*\\berror: .*"
              + "|.*Check failed.*|terminate called.*|Unmatched argument.*|Unknown option.*"
              + "|Missing required.*|Invalid value.*|.*\\bFAILED\\b.*|# A fatal error.*)$");

  /** Lines of a failed process's log shown from its first error, and from its end. */
  private static final int ERROR_LINES = 8;

  private static final int TAIL_LINES = 5;

  /**
   * A job.
   *
   * @param workers worker processes, at least 1
   * @param servers server processes, at least 1
   * @param command the program every process runs (e.g. {@code java -cp ... Main train ...})
   * @param logs the directory for one log file per process
   * @param environment extra environment for every process
   * @param timeout the most the whole job may take
   * @param startup the most a worker may take to its first step
   * @param stall the most a worker may go without progress after its first step
   */
  public record Spec(
      int workers,
      int servers,
      List<String> command,
      Path logs,
      Map<String, String> environment,
      Duration timeout,
      Duration startup,
      Duration stall) {
    /** Checks the counts and copies the collections. */
    public Spec {
      if (workers < 1 || servers < 1) {
        throw new IllegalArgumentException(
            "a job needs at least 1 worker and 1 server, got "
                + workers
                + " workers and "
                + servers
                + " servers");
      }
      if (command.isEmpty()) {
        throw new IllegalArgumentException("the job needs a command to run");
      }
      command = List.copyOf(command);
      environment = Map.copyOf(environment);
    }
  }

  /** One process of the job. */
  private static final class Member {
    final String role;
    final int index;
    volatile Path log;
    Process process;
    volatile int rank = -1;
    final List<String> results = new java.util.concurrent.CopyOnWriteArrayList<>();
    volatile long lastProgress;
    volatile boolean progressed;
    Thread reader;

    Member(String role, int index, Path log) {
      this.role = role;
      this.index = index;
      this.log = log;
    }

    /** The process as its log is named: role, then rank (workers) or start order (servers). */
    String describe() {
      String who =
          switch (role) {
            case "worker" ->
                rank >= 0
                    ? "worker rank " + rank
                    : "worker unranked-"
                        + index
                        + " (no rank yet: it had not registered with the scheduler)";
            case "server" -> "server " + index;
            default -> role;
          };
      return who + " on 127.0.0.1, pid " + (process == null ? "?" : process.pid());
    }
  }

  private final Spec spec;
  private final PrintStream out;
  private final List<Member> members = new ArrayList<>();

  private Launcher(Spec spec, PrintStream out) {
    this.spec = spec;
    this.out = out;
  }

  /**
   * Runs the job to its end and returns 0 when every process finished cleanly, or one of this
   * class's status codes; {@code out} gets a line per event and, on failure, the failed process's
   * log tail.
   */
  public static int run(Spec spec, PrintStream out) {
    return new Launcher(spec, out).run();
  }

  /**
   * The {@code DMLC_*} environment of one process of a job whose scheduler listens on {@code
   * host}:{@code port}, as ps-lite reads it (for running a job by hand across machines).
   */
  public static Map<String, String> environment(
      String role, String host, int port, int workers, int servers, String nodeHost) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("DMLC_ROLE", role);
    env.put("DMLC_PS_ROOT_URI", host);
    env.put("DMLC_PS_ROOT_PORT", Integer.toString(port));
    env.put("DMLC_NUM_WORKER", Integer.toString(workers));
    env.put("DMLC_NUM_SERVER", Integer.toString(servers));
    env.put("DMLC_NODE_HOST", nodeHost);
    env.put("PS_HEARTBEAT_INTERVAL", "1");
    env.put("PS_HEARTBEAT_TIMEOUT", "5");
    return env;
  }

  private int run() {
    int port = freePort();
    long started = System.nanoTime();
    try {
      Files.createDirectories(spec.logs());
      clearOldLogs();
      start("scheduler", 0, port);
      for (int i = 0; i < spec.servers(); i++) {
        start("server", i, port);
      }
      for (int i = 0; i < spec.workers(); i++) {
        start("worker", i, port);
      }
    } catch (IOException | RuntimeException e) {
      stopAll();
      out.println("FAILED: could not start the job: " + e);
      return PROCESS_FAILED;
    }
    out.println(
        "job: 1 scheduler, "
            + count(spec.servers(), "server")
            + ", "
            + count(spec.workers(), "worker")
            + " on 127.0.0.1:"
            + port
            + "; logs in "
            + spec.logs());
    long workersDoneAt = -1;
    while (true) {
      long now = System.nanoTime();
      boolean allWorkersDone = true;
      for (Member m : members) {
        if (m.process.isAlive()) {
          if (m.role.equals("worker")) {
            allWorkersDone = false;
            long since = m.progressed ? m.lastProgress : started;
            Duration limit = m.progressed ? spec.stall() : spec.startup();
            if (now - since > limit.toNanos()) {
              return fail(
                  m,
                  STALLED,
                  (m.progressed ? "no progress for " : "no first step in ")
                      + limit.toSeconds()
                      + " s (workers that run different numbers of steps wait "
                      + "for each other for ever)");
            }
          }
          continue;
        }
        int code = m.process.exitValue();
        if (code != 0) {
          return fail(m, PROCESS_FAILED, "exited with " + describeExit(code));
        }
        // A scheduler or server ends as soon as the workers have closed their stores, which
        // can be before their processes end; a worker left waiting is caught as a stall.
      }
      if (allWorkersDone) {
        if (members.stream().noneMatch(m -> m.process.isAlive())) {
          joinReaders();
          out.printf("job finished in %.1f s%n", (now - started) / 1e9);
          printResults();
          return 0;
        }
        workersDoneAt = workersDoneAt < 0 ? now : workersDoneAt;
        if (now - workersDoneAt > Duration.ofSeconds(20).toNanos()) {
          Member stuck =
              members.stream().filter(m -> m.process.isAlive()).findFirst().orElseThrow();
          return fail(stuck, SERVERS_STUCK, "still running 20 s after every worker finished");
        }
      }
      if (now - started > spec.timeout().toNanos()) {
        Member slow =
            members.stream()
                .filter(m -> m.process.isAlive() && m.role.equals("worker"))
                .findFirst()
                .orElse(members.get(0));
        return fail(
            slow, TIMED_OUT, "the job ran past its limit of " + spec.timeout().toSeconds() + " s");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stopAll();
        return TIMED_OUT;
      }
    }
  }

  /** The lines rank 0 reported with {@link Node#result}, under a heading. */
  private void printResults() {
    for (Member m : members) {
      if (m.role.equals("worker") && m.rank == 0 && !m.results.isEmpty()) {
        out.println("rank 0 (" + m.log + "):");
        m.results.forEach(line -> out.println("  " + line));
      }
    }
  }

  /** A process's log before its rank is known. */
  private static String firstLogName(String role, int index) {
    return switch (role) {
      case "scheduler" -> "scheduler.log";
      case "server" -> "server-" + index + ".log";
      default -> role + "-unranked-" + index + ".log";
    };
  }

  /**
   * Deletes the logs an earlier job left in the folder (so none is mistaken for this job's) and
   * nothing else.
   */
  private void clearOldLogs() throws IOException {
    Pattern ours = Pattern.compile("(scheduler|(server|worker)-(unranked-)?\\d+)\\.log");
    try (var files = Files.list(spec.logs())) {
      for (Path f : files.toList()) {
        if (ours.matcher(f.getFileName().toString()).matches()) {
          Files.delete(f);
        }
      }
    }
  }

  private void start(String role, int index, int port) throws IOException {
    Path log = spec.logs().resolve(firstLogName(role, index));
    Member m = new Member(role, index, log);
    ProcessBuilder pb = new ProcessBuilder(spec.command());
    Map<String, String> env = pb.environment();
    env.putAll(environment(role, "127.0.0.1", port, spec.workers(), spec.servers(), "127.0.0.1"));
    env.put(Node.LAUNCHED, "1");
    env.putIfAbsent("OMP_NUM_THREADS", "1");
    env.putAll(spec.environment());
    pb.redirectErrorStream(true);
    m.process = pb.start();
    m.lastProgress = System.nanoTime();
    Writer file = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
    m.reader = new Thread(() -> copy(m, file), "kiln-log-" + role + "-" + index);
    m.reader.setDaemon(true);
    m.reader.start();
    members.add(m);
  }

  /** Copies a process's output to its log, reading the protocol lines on the way. */
  private static void copy(Member m, Writer file) {
    try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(m.process.getInputStream(), StandardCharsets.UTF_8));
        Writer w = file) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        w.write(line);
        w.write('\n');
        w.flush();
        Matcher node = NODE.matcher(line);
        Matcher result;
        if (node.matches()) {
          m.rank = Integer.parseInt(node.group(2));
          if (m.role.equals("worker") && m.rank >= 0) {
            // The open file moves with its name.
            Path ranked = m.log.resolveSibling("worker-" + m.rank + ".log");
            Files.move(m.log, ranked, StandardCopyOption.REPLACE_EXISTING);
            m.log = ranked;
          }
        } else if ((result = RESULT.matcher(line)).matches()) {
          m.results.add(result.group(2));
        } else if (STEP.matcher(line).matches()) {
          m.progressed = true;
          m.lastProgress = System.nanoTime();
        }
      }
    } catch (IOException e) {
      // The process is gone; its log has everything it printed.
    }
  }

  private int fail(Member m, int status, String why) {
    stopAll();
    out.println("FAILED: " + m.describe() + ": " + why + "; log: " + m.log);
    try {
      excerpt(Files.readAllLines(m.log, StandardCharsets.UTF_8)).forEach(out::println);
    } catch (IOException | UncheckedIOException e) {
      out.println("  (log unreadable: " + e.getMessage() + ")");
    }
    out.println("stopped every process of the job");
    return status;
  }

  /**
   * What a failed process's log says about why: the lines from its first error on (a few), then its
   * last lines, with a note of what was left out; the whole log when it is short.
   */
  static List<String> excerpt(List<String> lines) {
    List<String> shown = new ArrayList<>();
    int first = -1;
    for (int i = 0; i < lines.size() && first < 0; i++) {
      if (ERROR.matcher(lines.get(i)).matches()) {
        first = i;
      }
    }
    int tailFrom = Math.max(0, lines.size() - TAIL_LINES);
    if (first < 0 || lines.size() <= ERROR_LINES + TAIL_LINES) {
      // No line says error (a stall, a signal), or the log is short: its end says most.
      int from = first < 0 ? Math.max(0, lines.size() - 15) : 0;
      if (from > 0) {
        shown.add("  (" + from + " earlier lines)");
      }
      lines.subList(from, lines.size()).forEach(l -> shown.add("  | " + l));
      return shown;
    }
    int errorTo = Math.min(lines.size(), first + ERROR_LINES);
    if (first > 0) {
      shown.add("  (" + first + " earlier lines)");
    }
    lines.subList(first, errorTo).forEach(l -> shown.add("  | " + l));
    if (tailFrom > errorTo) {
      shown.add("  (" + (tailFrom - errorTo) + " more lines; the last " + TAIL_LINES + ":)");
    }
    lines.subList(Math.max(errorTo, tailFrom), lines.size()).forEach(l -> shown.add("  | " + l));
    return shown;
  }

  /**
   * Stops every process of the job: first by closing its standard input, on which a launched
   * process halts at once ({@link Node}; a SIGTERM would run the JVM's shutdown and then C++'s
   * static destructors, in which ps-lite's threads abort with "terminate called without an active
   * exception"), then SIGTERM to what is left after two seconds, then SIGKILL after two more.
   */
  private void stopAll() {
    List<ProcessHandle> all = new ArrayList<>();
    for (Member m : members) {
      if (m.process != null) {
        all.add(m.process.toHandle());
        m.process.toHandle().descendants().forEach(all::add);
        try {
          m.process.getOutputStream().close();
        } catch (IOException e) {
          // Already closed: the signals below stop it.
        }
      }
    }
    awaitExit(all, 2);
    all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroy);
    awaitExit(all, 2);
    all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    for (ProcessHandle h : all) {
      try {
        h.onExit().get(5, TimeUnit.SECONDS);
      } catch (Exception e) {
        // Reported by the caller's message; nothing more to do.
      }
    }
    joinReaders();
  }

  /** Waits at most {@code seconds} in all for the processes to exit. */
  private static void awaitExit(List<ProcessHandle> processes, int seconds) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    for (ProcessHandle h : processes) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        try {
          h.onExit().get(left, TimeUnit.NANOSECONDS);
        } catch (Exception e) {
          // Still alive: the caller signals it.
        }
      }
    }
  }

  private void joinReaders() {
    for (Member m : members) {
      if (m.reader != null) {
        try {
          m.reader.join(2000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private static String count(int n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  private static String describeExit(int code) {
    return switch (code) {
      case 137 -> "137 (SIGKILL)";
      case 143 -> "143 (SIGTERM)";
      case 134 -> "134 (SIGABRT: MXNet or ps-lite aborted)";
      case Node.DEAD_NODE ->
          Node.DEAD_NODE + " (the scheduler saw a node stop sending " + "heartbeats)";
      case Node.ORPHANED -> Node.ORPHANED + " (its launcher went away)";
      default -> Integer.toString(code);
    };
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on this machine", e);
    }
  }
}
