package dev.kiln.cli.launch;

import dev.kiln.runtime.dist.Node;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One process of a {@link Launcher}'s job: its role, host, log and what its output has said so far
 * (rank, progress, results, the dead nodes the scheduler named). The reader thread copies the
 * output to the log and, for a job on several hosts, to the console with a {@code [role rank host]}
 * prefix.
 */
final class Member {
  private static final Pattern NODE = Pattern.compile("^KILN NODE role=(\\w+) rank=(-?\\d+).*");
  private static final Pattern RANK = Pattern.compile("^KILN RANK role=server rank=(\\d+)$");
  private static final Pattern SHELL = Pattern.compile("^KILN SHELL pid=(\\d+)$");
  private static final Pattern STEP = Pattern.compile("^KILN (STEP|EPOCH) .*");
  private static final Pattern RESULT = Pattern.compile("^KILN RESULT rank=(\\d+) (.*)$");
  private static final Pattern DEAD =
      Pattern.compile("^KILN DEAD .*worker-ranks=([\\d,]*) server-ranks=([\\d,]*).*$");

  final String role;
  final int index;
  final String host;

  /** Whether it runs through a remote shell (its process here is the shell's transport). */
  final boolean remote;

  volatile Path log;
  Process process;
  volatile int rank = -1;

  /** A server's rank as ps-lite numbers servers; -1 until it says. */
  volatile int serverRank = -1;

  /** The pid on its host, as its remote shell reported it; -1 until then. */
  volatile long remotePid = -1;

  final List<String> results = new CopyOnWriteArrayList<>();

  /** In the scheduler: the worker and server ranks it last reported dead. */
  volatile List<Integer> deadWorkers = List.of();

  volatile List<Integer> deadServers = List.of();

  /** The last line the scheduler printed about dead nodes. */
  volatile String deadLine;

  volatile long lastProgress;
  volatile boolean progressed;
  Thread reader;

  Member(String role, int index, String host, boolean remote, Path log) {
    this.role = role;
    this.index = index;
    this.host = host;
    this.remote = remote;
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
    return who + " on " + host + ", pid " + pid();
  }

  /** The prefix of its lines on the console: {@code [role rank host]}. */
  String prefix() {
    String id =
        switch (role) {
          case "worker" -> rank >= 0 ? Integer.toString(rank) : "?";
          case "server" -> Integer.toString(index);
          default -> "0";
        };
    return "[" + role + " " + id + " " + host + "] ";
  }

  /** Its pid on its host: the remote shell's report, or the local process's. */
  String pid() {
    if (remote) {
      return remotePid >= 0 ? Long.toString(remotePid) : "? (its shell had not started)";
    }
    return process == null ? "?" : Long.toString(process.pid());
  }

  /** Starts the thread that copies the output to {@code file} and, with {@code console}, there. */
  void startReader(Writer file, PrintStream console) {
    reader = new Thread(() -> copy(file, console), "kiln-log-" + role + "-" + index);
    reader.setDaemon(true);
    reader.start();
  }

  /** Closes its standard input: a launched process halts at once ({@link Node}). */
  void closeInput() {
    try {
      OutputStream in = process.getOutputStream();
      in.close();
    } catch (IOException e) {
      // Already closed: the signals stop it.
    }
  }

  /** Copies the output to the log (and the console), reading the protocol lines on the way. */
  private void copy(Writer file, PrintStream console) {
    try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Writer w = file) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        Matcher shell = SHELL.matcher(line);
        if (remote && shell.matches()) {
          remotePid = Long.parseLong(shell.group(1));
          continue;
        }
        w.write(line);
        w.write('\n');
        w.flush();
        read(line);
        if (console != null && !line.startsWith("KILN STEP ")) {
          console.println(prefix() + line);
        }
      }
    } catch (IOException e) {
      // The process is gone; its log has everything it printed.
    }
  }

  private void read(String line) throws IOException {
    Matcher m;
    if ((m = NODE.matcher(line)).matches()) {
      rank = Integer.parseInt(m.group(2));
      if (role.equals("worker") && rank >= 0) {
        // The open file moves with its name.
        Path ranked = log.resolveSibling("worker-" + rank + ".log");
        Files.move(log, ranked, StandardCopyOption.REPLACE_EXISTING);
        log = ranked;
      }
    } else if ((m = RANK.matcher(line)).matches()) {
      serverRank = Integer.parseInt(m.group(1));
    } else if ((m = RESULT.matcher(line)).matches()) {
      results.add(m.group(2));
    } else if ((m = DEAD.matcher(line)).matches()) {
      deadWorkers = numbers(m.group(1));
      deadServers = numbers(m.group(2));
      deadLine = line;
    } else if (STEP.matcher(line).matches()) {
      progressed = true;
      lastProgress = System.nanoTime();
    }
  }

  private static List<Integer> numbers(String list) {
    return list.isEmpty()
        ? List.of()
        : java.util.Arrays.stream(list.split(",")).map(Integer::valueOf).toList();
  }
}
