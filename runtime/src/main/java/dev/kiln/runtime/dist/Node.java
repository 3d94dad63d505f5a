package dev.kiln.runtime.dist;

import dev.kiln.runtime.mxnet.MxException;
import dev.kiln.runtime.mxnet.NativeProcess;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * This process's part in a {@code dist_sync} job: its role (ps-lite's {@code DMLC_ROLE}), the
 * server and scheduler loop, and the protocol the {@code kiln launch} command's launcher (module
 * {@code kiln-cli}) watches.
 *
 * <p>Every process of a job runs the same program; a program that trains with {@link
 * DataParallel#distributed} calls {@link #serveIfServer()} first thing in {@code main}: in the
 * scheduler and the servers it serves until the job ends and then exits, in a worker it returns at
 * once. Lines starting with {@code KILN } on standard output are for the launcher: {@code NODE}
 * (role, rank, pid), {@code STEP} (progress), {@code EPOCH} (a hash of the parameters, the same on
 * every worker), {@code RESULT} (a line of a worker's result), {@code ERROR}, {@code DONE}.
 *
 * <p>ps-lite has no failure handling of its own: a process that dies leaves the others waiting for
 * ever. So a launched process halts as soon as its launcher goes away (its standard input closes),
 * the scheduler halts when ps-lite's heartbeats say a node is dead, and a worker that fails halts
 * at once ({@link #fail}) rather than waiting in the final barrier; the launcher then stops the
 * rest of the job.
 */
public final class Node {
  /** The environment variable {@code kiln launch} sets in the processes it starts. */
  public static final String LAUNCHED = "KILN_LAUNCHED";

  /** Exit status of the scheduler when a worker or server stopped sending heartbeats. */
  public static final int DEAD_NODE = 42;

  /** Exit status of a process whose launcher went away. */
  public static final int ORPHANED = 43;

  /**
   * Exit status of a worker or server that heard no heartbeat from the scheduler for {@code
   * PS_HEARTBEAT_TIMEOUT} seconds: its host is cut off, or the scheduler hung or died.
   */
  public static final int LOST_SCHEDULER = 44;

  /** Exit status of a worker that failed. */
  public static final int FAILED = 1;

  // Kept reachable: MXNet calls the store's controller and updater from the server thread for as
  // long as the server loop runs.
  private static KvStore served;
  private static ServerUpdates updates;

  private Node() {}

  /** {@code worker}, {@code server}, {@code scheduler}, or null outside a job. */
  public static String role() {
    return System.getenv("DMLC_ROLE");
  }

  /** Whether this process is a worker of a {@code dist_sync} job. */
  public static boolean isWorker() {
    return "worker".equals(role());
  }

  /**
   * The number of workers of this process's job, as its environment ({@code DMLC_NUM_WORKER}) says
   * before any store connects; 1 outside a job.
   */
  public static int workers() {
    String n = System.getenv("DMLC_NUM_WORKER");
    if (role() == null || n == null) {
      return 1;
    }
    try {
      return Integer.parseInt(n.strip());
    } catch (NumberFormatException e) {
      throw new IllegalStateException("DMLC_NUM_WORKER is not a number: '" + n + "'", e);
    }
  }

  /** Whether {@code kiln launch} started this process. */
  public static boolean launched() {
    return System.getenv(LAUNCHED) != null;
  }

  /**
   * In a job's scheduler or server: creates the {@code dist_sync} store, serves until every worker
   * has closed its own, frees it and exits the process. In a worker, or outside a job: returns at
   * once (a launched worker also starts watching its launcher).
   */
  public static void serveIfServer() {
    String role = role();
    if (role == null) {
      return;
    }
    if (launched()) {
      watchLauncher();
    }
    if (role.equals("worker")) {
      return;
    }
    if (!role.equals("server") && !role.equals("scheduler")) {
      say("ERROR role=" + role + " DMLC_ROLE must be worker, server or scheduler");
      halt(FAILED);
    }
    say(
        "NODE role="
            + role
            + " rank="
            + (role.equals("scheduler") ? 0 : -1)
            + " pid="
            + ProcessHandle.current().pid());
    KvStore store = KvStore.create("dist_sync");
    served = store;
    if (heartbeats()) {
      if (role.equals("scheduler")) {
        watchHeartbeats(store, heartbeatTimeout());
      } else {
        reportServerRank(store);
      }
    }
    try {
      store.handleForServing().runServer(Node::control);
    } catch (MxException e) {
      say("ERROR role=" + role + " " + e.mxnetMessage());
      halt(FAILED);
    }
    if (updates != null) {
      updates.close();
    }
    store.close();
    say("DONE role=" + role);
    halt(0);
  }

  /**
   * A worker's command, on the server's thread: {@link ServerUpdates#COMMAND} installs the
   * optimizer on this server (MXNet accepts an updater only from here, once the server runs).
   */
  private static void control(int head, String body) {
    try {
      if (head != ServerUpdates.COMMAND) {
        throw new IllegalArgumentException("unknown server command " + head);
      }
      ServerUpdates u = ServerUpdates.parse(body);
      served.handleForServing().setUpdater(u);
      updates = u;
      say("UPDATES role=server " + body);
    } catch (Throwable t) {
      say("ERROR role=server command " + head + ": " + t);
      t.printStackTrace(System.out);
      halt(FAILED);
    }
  }

  /** A line of the launcher's protocol: {@code KILN <what>}. */
  public static void say(String what) {
    System.out.println("KILN " + what);
    System.out.flush();
  }

  /**
   * A line of this process's result ({@code KILN RESULT rank=<rank> <line>}), which the launcher
   * prints on its console when the job succeeds, for rank 0; outside a launched job it prints
   * {@code line} alone.
   */
  public static void result(int rank, String line) {
    if (launched()) {
      say("RESULT rank=" + rank + " " + line);
    } else {
      System.out.println(line);
    }
  }

  /**
   * Reports {@code error} and halts: a worker that cannot go on cannot leave the job cleanly either
   * (closing its store would wait for the others at the final barrier for ever).
   */
  public static void fail(Throwable error) {
    say("ERROR " + error);
    error.printStackTrace(System.out);
    System.out.flush();
    halt(FAILED);
  }

  /**
   * Ends the process at once with {@code status}, running no shutdown hooks: DJL's would wait for
   * MXNet's pending work, which in a broken job never ends, and ps-lite aborts in C++'s static
   * destructors.
   */
  public static void halt(int status) {
    System.out.flush();
    System.err.flush();
    // _exit: no C++ static destructors, in which ps-lite aborts.
    NativeProcess.exit(status);
  }

  /** Halts the process when its standard input closes: its launcher is gone. */
  private static void watchLauncher() {
    Thread t =
        new Thread(
            () -> {
              InputStream in = System.in;
              try {
                while (in.read() >= 0) {
                  // The launcher writes nothing; any byte is ignored.
                }
              } catch (IOException e) {
                // Closed either way.
              }
              System.err.println(
                  "KILN launcher gone or stopping the job (standard input closed): halting");
              halt(ORPHANED);
            },
            "kiln-launcher-watch");
    t.setDaemon(true);
    t.start();
  }

  /** Whether ps-lite's heartbeats are on ({@code PS_HEARTBEAT_INTERVAL} above 0). */
  private static boolean heartbeats() {
    String interval = System.getenv("PS_HEARTBEAT_INTERVAL");
    return interval != null && !interval.isBlank() && !interval.strip().equals("0");
  }

  private static int heartbeatTimeout() {
    return Integer.parseInt(System.getenv().getOrDefault("PS_HEARTBEAT_TIMEOUT", "5").strip());
  }

  private static int count(String variable) {
    return Integer.parseInt(System.getenv().getOrDefault(variable, "0").strip());
  }

  /**
   * Polls that must find a node silent, a second apart, before it counts as dead. ps-lite reports a
   * node silent for a moment when the job becomes ready (after every node has registered) and
   * before the node's first heartbeat since arrives, a second later: a slow start would otherwise
   * read as a death.
   */
  private static final int CONFIRMATIONS = 3;

  /**
   * In the scheduler: polls ps-lite's heartbeat table every second and halts the scheduler, naming
   * the dead by role and rank ({@code KILN DEAD workers=1 servers=0 worker-ranks=1 server-ranks=
   * ...}), when a worker or server has sent none for {@code timeoutSeconds} ({@link #CONFIRMATIONS}
   * polls in a row; the launcher sees the scheduler exit and stops the job, naming the dead process
   * and its host).
   */
  private static void watchHeartbeats(KvStore store, int timeoutSeconds) {
    int workers = count("DMLC_NUM_WORKER");
    int servers = count("DMLC_NUM_SERVER");
    watch(
        "kiln-heartbeat-watch",
        timeoutSeconds,
        () -> dead(store, 2 + 4, timeoutSeconds),
        () -> {
          List<Integer> deadWorkers = new ArrayList<>();
          List<Integer> deadServers = new ArrayList<>();
          for (int r = 0; r < workers; r++) {
            if (dead(store, 9 + 2 * r, timeoutSeconds) > 0) {
              deadWorkers.add(r);
            }
          }
          for (int r = 0; r < servers; r++) {
            if (dead(store, 8 + 2 * r, timeoutSeconds) > 0) {
              deadServers.add(r);
            }
          }
          say(
              "DEAD workers="
                  + deadWorkers.size()
                  + " servers="
                  + deadServers.size()
                  + " worker-ranks="
                  + join(deadWorkers)
                  + " server-ranks="
                  + join(deadServers)
                  + " (no heartbeat for "
                  + timeoutSeconds
                  + " s)");
          halt(DEAD_NODE);
        });
  }

  /**
   * In a worker (once its store is created, when the job is ready) or a server (once it has a
   * rank): halts the process ({@link #LOST_SCHEDULER}) when it has heard no heartbeat from the
   * scheduler for {@code PS_HEARTBEAT_TIMEOUT} seconds ({@link #CONFIRMATIONS} polls in a row), so
   * that a process on a host cut off from the others (whose launcher cannot reach it either) does
   * not wait for ever. Stops when the store closes. Does nothing when heartbeats are off.
   */
  static void watchScheduler(KvStore store) {
    if (!heartbeats()) {
      return;
    }
    int timeoutSeconds = heartbeatTimeout();
    watch(
        "kiln-scheduler-watch",
        timeoutSeconds,
        () -> dead(store, 1, timeoutSeconds),
        () -> {
          say(
              "LOST role="
                  + role()
                  + " (no heartbeat from the scheduler for "
                  + timeoutSeconds
                  + " s)");
          System.err.println(
              "KILN no heartbeat from the scheduler for "
                  + timeoutSeconds
                  + " s: this host is cut off from the job, or the scheduler died; halting");
          halt(LOST_SCHEDULER);
        });
  }

  /**
   * Polls {@code silent} every second, from {@code timeoutSeconds + 2} seconds on, and runs {@code
   * dead} once it has returned more than 0 {@link #CONFIRMATIONS} times in a row; stops when it
   * returns -1 (the store is closing).
   */
  private static void watch(String name, int timeoutSeconds, IntSupplier silent, Runnable dead) {
    daemon(
        name,
        () -> {
          sleep((timeoutSeconds + 2) * 1000L);
          int seen = 0;
          while (true) {
            int n = silent.getAsInt();
            if (n < 0) {
              return;
            }
            seen = n > 0 ? seen + 1 : 0;
            if (seen >= CONFIRMATIONS) {
              dead.run();
              return;
            }
            sleep(1000);
          }
        });
  }

  /**
   * In a server: once ps-lite has given it a rank (every node has registered and the job is ready),
   * prints it ({@code KILN RANK role=server rank=R}, so that the launcher can name a server the
   * scheduler reports dead) and starts watching the scheduler's heartbeats.
   */
  private static void reportServerRank(KvStore store) {
    int servers = count("DMLC_NUM_SERVER");
    daemon(
        "kiln-server-rank",
        () -> {
          while (true) {
            sleep(500);
            int rank;
            try {
              rank = store.rankWhileOpen();
            } catch (MxException e) {
              // ps-lite CHECK-fails "call Start() first" until the node is ready: ask again.
              continue;
            }
            if (rank == -2) {
              return; // the store is closed
            }
            if (rank >= 0 && rank < servers) {
              say("RANK role=server rank=" + rank);
              watchScheduler(store);
              return;
            }
          }
        });
  }

  /**
   * ps-lite's count of dead nodes ({@link KvStore#deadNodes}); 0 when it cannot tell (asked again).
   */
  private static int dead(KvStore store, int nodeId, int timeoutSeconds) {
    try {
      return store.deadNodes(nodeId, timeoutSeconds);
    } catch (MxException e) {
      return 0;
    }
  }

  private static String join(List<Integer> ranks) {
    return String.join(",", ranks.stream().map(String::valueOf).toList());
  }

  private static void daemon(String name, Runnable body) {
    Thread t = new Thread(body, name);
    t.setDaemon(true);
    t.start();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
