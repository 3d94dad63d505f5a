package dev.kiln.cli.launch;

import dev.kiln.runtime.dist.DataParallel;
import dev.kiln.runtime.dist.Node;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Starts a {@code dist_sync} job and sees it through: one scheduler, {@code servers} servers and
 * {@code workers} workers, each a process running {@code command} with ps-lite's {@code DMLC_*}
 * environment, its output in a log file of its own. The processes run on this machine (loopback),
 * or on the hosts of {@link Spec#remote()} through a {@link RemoteShell} ({@link Hosts} says which
 * process goes where); a job on several hosts also streams every process's output to the console,
 * each line prefixed by {@code [role rank host]} (progress beacons, {@code KILN STEP}, only to the
 * logs).
 *
 * <p>It never hangs. ps-lite has no failure handling (a dead process leaves the others waiting for
 * ever), so the launcher watches every process: when one exits with a failure, when a worker makes
 * no progress for {@link Spec#stall()} ({@link Spec#startup()} before its first step), or when the
 * job runs past {@link Spec#timeout()}, it stops every process of the job (closing its standard
 * input, then SIGTERM, then SIGKILL, through the remote shell for a remote one) and returns a
 * non-zero status, having printed which role, rank and host failed, why (the first lines of its log
 * that report an error, not the tail of a help text), and where its log is. Its processes halt by
 * themselves if the launcher dies (their standard input closes, see {@link Node}); the scheduler
 * halts when ps-lite's heartbeats say a worker or server is dead, naming it, and the others halt
 * when they hear no heartbeat from the scheduler ({@link Node#LOST_SCHEDULER}).
 *
 * <p>Logs are named by role and rank: {@code scheduler.log}, {@code server-<i>.log} (in start
 * order: ps-lite tells servers no rank), and {@code worker-<rank>.log} once the worker has
 * registered ({@code worker-unranked-<i>.log} until then). When the job succeeds, the launcher
 * prints what rank 0 reported with {@link Node#result} (e.g. the test accuracy and the files it
 * wrote).
 *
 * <p>Kiln programs call {@link Node#serveIfServer()} first and train with {@link
 * DataParallel#distributed}, which prints the progress lines the launcher reads. Any other program
 * runs too (as under MXNet's {@code dmlc-submit}, every role runs the same command), with the
 * progress watch off ({@link Spec#stall()} zero): it prints no progress lines.
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

  /**
   * Exit status when a process stopped answering: the scheduler heard no heartbeat from it, or it
   * heard none from the scheduler (a host cut off from the network, or a hung process).
   */
  public static final int LOST = 6;

  /** How long a stop command through the remote shell may take (an unreachable host). */
  private static final Duration REMOTE_STOP = Duration.ofSeconds(10);

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
   * @param startup the most a worker may take to its first step; zero: no limit
   * @param stall the most a worker may go without progress after its first step; zero: no limit
   * @param remote the hosts and the remote shell of a job on several hosts; null for this machine
   *     (loopback)
   */
  public record Spec(
      int workers,
      int servers,
      List<String> command,
      Path logs,
      Map<String, String> environment,
      Duration timeout,
      Duration startup,
      Duration stall,
      Remote remote) {
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
      if (remote != null) {
        // Refuses more workers than the hosts have slots for, before anything starts.
        remote.hosts().place(workers, servers);
      }
    }

    /** A job on this machine (loopback). */
    public Spec(
        int workers,
        int servers,
        List<String> command,
        Path logs,
        Map<String, String> environment,
        Duration timeout,
        Duration startup,
        Duration stall) {
      this(workers, servers, command, logs, environment, timeout, startup, stall, null);
    }
  }

  /**
   * Where a job on several hosts runs.
   *
   * @param hosts the hosts, the scheduler's first ({@link Hosts} places the processes)
   * @param shell how to run a process on a host
   * @param port the scheduler's port on its host
   * @param directory the working directory of every process, the same path on every host
   */
  public record Remote(Hosts hosts, RemoteShell shell, int port, Path directory) {}

  /**
   * One process of a job as it would be started: its role, index (start order), host, and the
   * environment and command it runs there.
   *
   * @param role scheduler, server or worker
   * @param index its start order among its role
   * @param host where it runs
   * @param environment the {@code DMLC_*} and other variables it gets
   */
  public record Planned(String role, int index, String host, Map<String, String> environment) {}

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

  /**
   * The processes of {@code spec} as they would start, the scheduler first, with the environment
   * each gets on its host (for printing the commands without starting them). A job on this machine
   * has its scheduler on port 0 here: the launcher picks a free one when it runs.
   */
  public static List<Planned> plan(Spec spec) {
    List<Planned> plan = new ArrayList<>();
    Hosts.Placement where =
        spec.remote() == null ? null : spec.remote().hosts().place(spec.workers(), spec.servers());
    int port = spec.remote() == null ? 0 : spec.remote().port();
    String root = where == null ? LOOPBACK : where.scheduler();
    plan.add(planned(spec, "scheduler", 0, root, root, port));
    for (int i = 0; i < spec.servers(); i++) {
      plan.add(
          planned(spec, "server", i, where == null ? root : where.servers().get(i), root, port));
    }
    for (int i = 0; i < spec.workers(); i++) {
      plan.add(
          planned(spec, "worker", i, where == null ? root : where.workers().get(i), root, port));
    }
    return plan;
  }

  /**
   * One process's environment: for a remote one, the launcher's own {@code MXNET_*} and {@code
   * PS_*} variables (a local one inherits all of them), then ps-lite's, then the spec's.
   */
  private static Planned planned(
      Spec spec, String role, int index, String host, String root, int port) {
    Map<String, String> env =
        new LinkedHashMap<>(environment(role, root, port, spec.workers(), spec.servers(), host));
    if (spec.remote() != null) {
      new java.util.TreeMap<>(System.getenv())
          .forEach(
              (k, v) -> {
                if (k.startsWith("MXNET_") || k.startsWith("PS_")) {
                  env.putIfAbsent(k, v);
                }
              });
    }
    env.put("OMP_NUM_THREADS", System.getenv().getOrDefault("OMP_NUM_THREADS", "1"));
    env.putAll(spec.environment());
    return new Planned(role, index, host, env);
  }

  private static final String LOOPBACK = "127.0.0.1";

  private int run() {
    int port = spec.remote() == null ? freePort() : spec.remote().port();
    long started = System.nanoTime();
    try {
      Files.createDirectories(spec.logs());
      clearOldLogs();
      for (Planned p : plan(spec)) {
        start(p, port);
      }
    } catch (IOException | RuntimeException e) {
      stopAll();
      out.println("FAILED: could not start the job: " + e);
      return PROCESS_FAILED;
    }
    String hosts =
        spec.remote() == null
            ? " on " + LOOPBACK + ":" + port
            : " on "
                + spec.remote().hosts().hosts().size()
                + " hosts, the scheduler at "
                + members.get(0).host
                + ":"
                + port
                + ", through "
                + spec.remote().shell().template();
    out.println(
        "job: 1 scheduler, "
            + count(spec.servers(), "server")
            + ", "
            + count(spec.workers(), "worker")
            + hosts
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
            if (!limit.isZero() && now - since > limit.toNanos()) {
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
        if (code == Node.DEAD_NODE && m.role.equals("scheduler")) {
          joinReaders();
          return lost(m);
        }
        if (code == Node.LOST_SCHEDULER) {
          return fail(m, LOST, "exited with " + describeExit(code));
        }
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

  /**
   * Starts one process: here with its environment added to the launcher's, or through the remote
   * shell with its script on the shell's standard input (kept open: closing it stops the process).
   */
  private void start(Planned p, int port) throws IOException {
    Path log = spec.logs().resolve(firstLogName(p.role(), p.index()));
    Map<String, String> env = new LinkedHashMap<>(p.environment());
    env.put("DMLC_PS_ROOT_PORT", Integer.toString(port));
    env.put(Node.LAUNCHED, "1");
    Member m = new Member(p.role(), p.index(), p.host(), spec.remote() != null, log);
    ProcessBuilder pb;
    if (spec.remote() == null) {
      pb = new ProcessBuilder(spec.command());
      pb.environment().putAll(env);
    } else {
      pb = new ProcessBuilder(spec.remote().shell().command(p.host()));
    }
    pb.redirectErrorStream(true);
    m.process = pb.start();
    m.lastProgress = System.nanoTime();
    members.add(m);
    if (spec.remote() != null) {
      OutputStream in = m.process.getOutputStream();
      in.write(
          RemoteShell.script(spec.remote().directory(), env, spec.command())
              .getBytes(StandardCharsets.UTF_8));
      in.flush();
    }
    Writer file = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
    m.startReader(file, spec.remote() == null ? null : out);
  }

  /**
   * The scheduler exited because ps-lite's heartbeats said a node is dead: the job fails naming
   * that node (the first of them), as if it had failed itself.
   */
  private int lost(Member scheduler) {
    List<Member> dead = new ArrayList<>();
    for (Member m : members) {
      if ((m.role.equals("worker") && scheduler.deadWorkers.contains(m.rank))
          || (m.role.equals("server") && scheduler.deadServers.contains(m.serverRank))) {
        dead.add(m);
      }
    }
    String timeout = spec.environment().getOrDefault("PS_HEARTBEAT_TIMEOUT", "5");
    if (dead.isEmpty()) {
      return fail(scheduler, LOST, "exited with " + describeExit(Node.DEAD_NODE));
    }
    StringBuilder why =
        new StringBuilder(
            "sent the scheduler no heartbeat for "
                + timeout
                + " s: its host is cut off from the network, or the process hung (the scheduler"
                + " on "
                + scheduler.host
                + " saw it and exited with "
                + Node.DEAD_NODE
                + ")");
    for (Member other : dead.subList(1, dead.size())) {
      why.append("; so did ").append(other.describe());
    }
    return fail(dead.get(0), LOST, why.toString());
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
   * exception"), then SIGTERM to what is left after two seconds, then SIGKILL after two more. A
   * process on another host whose transport still runs two seconds after its input closed gets
   * SIGTERM and then SIGKILL through the remote shell ({@link RemoteShell#stopScript}), two seconds
   * apart, before its local transport (ssh) is signalled.
   */
  private void stopAll() {
    List<ProcessHandle> all = new ArrayList<>();
    for (Member m : members) {
      if (m.process != null) {
        all.add(m.process.toHandle());
        m.process.toHandle().descendants().forEach(all::add);
        m.closeInput();
      }
    }
    awaitExit(all, 2);
    if (spec.remote() != null) {
      // A remote process first, through its host's shell: signalling the transport here (ssh)
      // would only close the connection and leave the process running on its host.
      stopRemote("TERM");
      awaitExit(all, 2);
      stopRemote("KILL");
      awaitExit(all, 2);
    }
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

  /**
   * Sends {@code signal} through the remote shell to every remote process whose transport still
   * runs (the process did not halt when its input closed), all at once, each command limited to
   * {@link #REMOTE_STOP} (a host cut off from the network does not answer).
   */
  private void stopRemote(String signal) {
    if (spec.remote() == null) {
      return;
    }
    List<Process> stops = new ArrayList<>();
    for (Member m : members) {
      if (m.process == null || !m.process.isAlive() || m.remotePid < 0) {
        continue;
      }
      out.println(
          "stopping "
              + m.describe()
              + " through the remote shell: kill -s "
              + signal
              + " (its process group, or it alone)");
      try {
        Process p =
            new ProcessBuilder(spec.remote().shell().command(m.host))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try (OutputStream in = p.getOutputStream()) {
          in.write(RemoteShell.stopScript(m.remotePid, signal).getBytes(StandardCharsets.UTF_8));
        }
        stops.add(p);
      } catch (IOException e) {
        out.println("  could not run the remote shell for " + m.host + ": " + e.getMessage());
      }
    }
    long deadline = System.nanoTime() + REMOTE_STOP.toNanos();
    for (Process p : stops) {
      try {
        if (!p.waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          out.println(
              "  a stop command through the remote shell took over "
                  + REMOTE_STOP.toSeconds()
                  + " s (host unreachable?); the process halts by itself when it hears nothing"
                  + " from the scheduler");
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
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
      case 255 -> "255 (ssh: the remote command was killed by a signal, or the connection failed)";
      case Node.LOST_SCHEDULER ->
          Node.LOST_SCHEDULER
              + " (it heard nothing from the scheduler for PS_HEARTBEAT_TIMEOUT seconds: its host"
              + " is cut off from the network, or the scheduler hung)";
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
