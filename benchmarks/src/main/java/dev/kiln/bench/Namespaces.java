package dev.kiln.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Several "hosts" on one Linux machine: network namespaces, each named by its own address
 * (10.A.B.1, 10.A.B.2, ... in a /24 drawn at random per run), joined by veth pairs to a bridge that
 * lives in a namespace of its own ({@code kiln-sw-A-B}), so that nothing is added to the machine's
 * own network. {@code ip netns exec <address>} runs a command on a host, which is the {@code
 * --remote-shell} of a multi-host job here.
 *
 * <p>Faults: {@link #cut} sets a host's link down at the bridge (its packets go nowhere, as if its
 * cable were pulled); {@link #limit} shapes both directions of a host's link with {@code tc tbf}
 * (this machine's kernel has no {@code netem}, so no latency or loss).
 *
 * <p>Needs root and {@code ip} ({@link #unavailable()} says why not). {@link #close()} kills what
 * still runs inside the namespaces and deletes them (the bridge and veths go with them); a shutdown
 * hook does the same if the JVM exits first.
 */
public final class Namespaces implements AutoCloseable {
  /** The most one {@code ip} or {@code tc} command may take, in seconds. */
  private static final int COMMAND_SECONDS = 20;

  private final String switchName;
  private final List<String> hosts;
  private final Thread hook;
  private boolean closed;

  private Namespaces(String switchName, List<String> hosts) {
    this.switchName = switchName;
    this.hosts = hosts;
    this.hook = new Thread(this::remove, "kiln-namespaces-cleanup");
  }

  /**
   * Why namespaces cannot be made here, or empty when they can: not Linux, no {@code ip} on the
   * {@code PATH}, not root, or a probe failed (a namespace of its own with a veth pair in it, a
   * command run inside it through {@code ip netns exec}; a container without {@code CAP_SYS_ADMIN}
   * refuses the first, one without {@code /sys} the last).
   */
  public static Optional<String> unavailable() {
    if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
      return Optional.of("network namespaces need Linux");
    }
    if (!onPath("ip")) {
      return Optional.of("no 'ip' command (iproute2) on the PATH");
    }
    try {
      String status = Files.readString(Path.of("/proc/self/status"));
      if (!status.lines().anyMatch(l -> l.matches("Uid:\\s+0\\s.*"))) {
        return Optional.of("network namespaces need root (this JVM's user is not root)");
      }
    } catch (IOException e) {
      return Optional.of("cannot read /proc/self/status: " + e.getMessage());
    }
    return probe(false);
  }

  /**
   * Why links cannot be shaped here ({@link #limit}), or empty when they can: {@link
   * #unavailable()}'s reasons, no {@code tc} on the {@code PATH}, or a probe's {@code tc qdisc add
   * ... tbf} refused.
   */
  public static Optional<String> shapingUnavailable() {
    Optional<String> why = unavailable();
    if (why.isPresent()) {
      return why;
    }
    if (!onPath("tc")) {
      return Optional.of("no 'tc' command (iproute2) on the PATH");
    }
    return probe(true);
  }

  private static boolean onPath(String command) {
    return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(":"))
        .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, command)));
  }

  /** Makes and deletes a namespace with a veth pair, running a command (or tc) inside it. */
  private static Optional<String> probe(boolean shaping) {
    String probe = "kiln-probe-" + ProcessHandle.current().pid();
    try {
      run("ip", "netns", "add", probe);
    } catch (IOException e) {
      return Optional.of("'ip netns add' failed: " + e.getMessage());
    }
    try {
      run("ip", "-n", probe, "link", "add", "probe0", "type", "veth", "peer", "name", "probe1");
      run("ip", "netns", "exec", probe, "true");
      if (shaping) {
        run(
            "ip", "netns", "exec", probe, "tc", "qdisc", "add", "dev", "probe0", "root", "tbf",
            "rate", "1mbit", "burst", "32kb", "latency", "200ms");
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("a probe namespace failed: " + e.getMessage());
    } finally {
      try {
        run("ip", "netns", "del", probe);
      } catch (IOException e) {
        // Already gone.
      }
    }
  }

  /** {@code count} hosts joined by a bridge, in a /24 of 10.0.0.0/8 no namespace here uses yet. */
  public static Namespaces create(int count) throws IOException {
    if (count < 1 || count > 250) {
      throw new IllegalArgumentException("1 to 250 hosts, got " + count);
    }
    String existing = String.join("\n", run("ip", "netns", "list"));
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int a;
    int b;
    do {
      a = 200 + random.nextInt(50);
      b = random.nextInt(256);
    } while (existing.contains("10." + a + "." + b + ".") || existing.contains("-" + a + "-" + b));
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      names.add("10." + a + "." + b + "." + i);
    }
    Namespaces n = new Namespaces("kiln-sw-" + a + "-" + b, List.copyOf(names));
    Runtime.getRuntime().addShutdownHook(n.hook);
    try {
      n.build();
    } catch (IOException | RuntimeException e) {
      n.close();
      throw e;
    }
    return n;
  }

  private void build() throws IOException {
    run("ip", "netns", "add", switchName);
    run("ip", "-n", switchName, "link", "add", "br0", "type", "bridge");
    run("ip", "-n", switchName, "link", "set", "br0", "up");
    for (int i = 0; i < hosts.size(); i++) {
      String host = hosts.get(i);
      String port = "p" + i;
      run("ip", "netns", "add", host);
      run(
          "ip",
          "-n",
          switchName,
          "link",
          "add",
          port,
          "type",
          "veth",
          "peer",
          "name",
          "eth0",
          "netns",
          host);
      run("ip", "-n", switchName, "link", "set", port, "master", "br0");
      run("ip", "-n", switchName, "link", "set", port, "up");
      run("ip", "-n", host, "addr", "add", host + "/24", "dev", "eth0");
      run("ip", "-n", host, "link", "set", "eth0", "up");
      run("ip", "-n", host, "link", "set", "lo", "up");
    }
  }

  /** The hosts' names, which are their addresses. */
  public List<String> hosts() {
    return hosts;
  }

  /** The remote shell of a job on these hosts. */
  public static String remoteShell() {
    return "ip netns exec {host}";
  }

  /** Sets {@code host}'s link down at the bridge: nothing it sends arrives, nothing reaches it. */
  public void cut(String host) throws IOException {
    run("ip", "-n", switchName, "link", "set", port(host), "down");
  }

  /** Sets {@code host}'s link up again. */
  public void restore(String host) throws IOException {
    run("ip", "-n", switchName, "link", "set", port(host), "up");
  }

  /**
   * Shapes both directions of {@code host}'s link to {@code mbit} megabits per second with {@code
   * tc tbf} (its own side for what it sends, the bridge's side for what it receives); the bucket
   * holds 128 KiB at every speed, above the 64 KiB segments veth passes and below a step's traffic
   * (a bucket of 10 ms of traffic, 1.25 MB at 1 Gbit/s, let a whole step of the MLP through
   * unshaped).
   */
  public void limit(String host, double mbit) throws IOException {
    String burst = 128 * 1024 + "b";
    String rate = Math.round(mbit * 1000) + "kbit";
    for (String[] side : new String[][] {{host, "eth0"}, {switchName, port(host)}}) {
      run(
          "ip", "netns", "exec", side[0], "tc", "qdisc", "replace", "dev", side[1], "root", "tbf",
          "rate", rate, "burst", burst, "latency", "200ms");
    }
  }

  /** Removes {@link #limit}'s shaping from {@code host}'s link, if any. */
  public void unlimit(String host) throws IOException {
    for (String[] side : new String[][] {{host, "eth0"}, {switchName, port(host)}}) {
      try {
        run("ip", "netns", "exec", side[0], "tc", "qdisc", "del", "dev", side[1], "root");
      } catch (IOException e) {
        // No shaping there: the default qdisc cannot be deleted.
      }
    }
  }

  /** The pids of the processes running in {@code host}'s namespace. */
  public List<Long> pids(String host) throws IOException {
    return run("ip", "netns", "pids", host).stream()
        .filter(l -> !l.isBlank())
        .map(l -> Long.parseLong(l.strip()))
        .toList();
  }

  private String port(String host) {
    int i = hosts.indexOf(host);
    if (i < 0) {
      throw new IllegalArgumentException(host + " is not one of " + hosts);
    }
    return "p" + i;
  }

  /** Kills what runs in the namespaces and deletes them; idempotent. */
  @Override
  public void close() {
    remove();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is shutting down: the hook runs (or ran) remove itself.
    }
  }

  private synchronized void remove() {
    if (closed) {
      return;
    }
    closed = true;
    List<String> all = new ArrayList<>(hosts);
    all.add(switchName);
    for (String ns : all) {
      try {
        for (long pid : pids(ns)) {
          ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
      } catch (IOException | RuntimeException e) {
        // Not there (never made, or already gone).
      }
    }
    for (String ns : all) {
      try {
        run("ip", "netns", "del", ns);
      } catch (IOException e) {
        // Not there.
      }
    }
  }

  /** Runs a command, returning its output lines; a failure or a status other than 0 throws. */
  static List<String> run(String... command) throws IOException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", command) + " took over " + COMMAND_SECONDS + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted: " + String.join(" ", command), e);
    }
    if (p.exitValue() != 0) {
      throw new IOException(
          String.join(" ", command) + " exited with " + p.exitValue() + ": " + out.strip());
    }
    return out.lines().toList();
  }
}
