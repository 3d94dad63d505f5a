package dev.kiln.runtime.dist;

import dev.kiln.runtime.mxnet.KvStoreHandle;
import dev.kiln.runtime.mxnet.MxException;
import dev.kiln.runtime.mxnet.NativeProcess;
import java.io.IOException;
import java.io.InputStream;

/**
 * This process's part in a {@code dist_sync} job: its role (ps-lite's {@code DMLC_ROLE}), the
 * server and scheduler loop, and the protocol a {@link Launcher} watches.
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
  /** The environment variable a {@link Launcher} sets in the processes it starts. */
  public static final String LAUNCHED = "KILN_LAUNCHED";

  /** Exit status of the scheduler when a worker or server stopped sending heartbeats. */
  public static final int DEAD_NODE = 42;

  /** Exit status of a process whose launcher went away. */
  public static final int ORPHANED = 43;

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

  /** Whether a {@link Launcher} started this process. */
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
    if (role.equals("scheduler") && System.getenv("PS_HEARTBEAT_INTERVAL") != null) {
      watchHeartbeats(
          store, Integer.parseInt(System.getenv().getOrDefault("PS_HEARTBEAT_TIMEOUT", "5")));
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

  /**
   * In the scheduler: polls ps-lite's heartbeat table every second and halts the scheduler, naming
   * the dead, when a worker or server has sent none for {@code timeoutSeconds} (the launcher sees
   * the scheduler exit and stops the job).
   */
  private static void watchHeartbeats(KvStore store, int timeoutSeconds) {
    Thread t =
        new Thread(
            () -> {
              sleep((timeoutSeconds + 2) * 1000L);
              while (true) {
                KvStoreHandle h = store.handleForServing();
                if (deadNodes(h, 2 + 4, timeoutSeconds) > 0) {
                  int workers = deadNodes(h, 4, timeoutSeconds);
                  int servers = deadNodes(h, 2, timeoutSeconds);
                  say(
                      "DEAD workers="
                          + workers
                          + " servers="
                          + servers
                          + " (no heartbeat for "
                          + timeoutSeconds
                          + " s)");
                  halt(DEAD_NODE);
                }
                sleep(1000);
              }
            },
            "kiln-heartbeat-watch");
    t.setDaemon(true);
    t.start();
  }

  /** ps-lite's count of dead nodes of kind {@code nodeId}; 0 when it cannot tell (polled again). */
  private static int deadNodes(KvStoreHandle h, int nodeId, int timeoutSeconds) {
    try {
      return h.deadNodes(nodeId, timeoutSeconds);
    } catch (MxException e) {
      return 0;
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
