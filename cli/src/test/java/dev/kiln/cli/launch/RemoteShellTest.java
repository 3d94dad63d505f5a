package dev.kiln.cli.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hosts files, the remote shell's words and scripts, and the launcher's way of stopping a remote
 * process that ignores the end of its input, through a stand-in remote shell on this machine. No
 * MXNet.
 */
class RemoteShellTest {
  @TempDir Path dir;

  @Test
  void aTemplateSplitsAsAShellSplitsItAndNeedsAHost() {
    RemoteShell ssh = RemoteShell.parse(RemoteShell.DEFAULT);
    assertEquals(List.of("ssh", "-o", "BatchMode=yes", "h1", "sh", "-s"), ssh.command("h1"));
    assertEquals(
        List.of("ssh", "-o", "ProxyJump=a b", "-p", "22", "x", "sh", "-s"),
        RemoteShell.parse("ssh -o 'ProxyJump=a b' -p \"2\"2 {host}").command("x"));
    assertEquals(
        List.of("ip", "netns", "exec", "10.1.2.3", "sh", "-s"),
        RemoteShell.parse("ip netns exec {host}").command("10.1.2.3"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RemoteShell.parse("ssh -x"));
    assertEquals(
        "--remote-shell 'ssh -x' has no {host}: write where the host name goes, e.g. ssh -o "
            + "BatchMode=yes {host} or ip netns exec {host}",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> RemoteShell.parse("ssh '{host}"));
  }

  @Test
  void hostsPlaceTheSchedulerFirstAndWorkersWithinTheirSlots() {
    Hosts hosts =
        Hosts.parse(List.of("# first the scheduler", "a:0", "", "b  # two", "c:1"), "hosts");
    assertEquals("a:0, b, c:1", hosts.describe());
    Hosts.Placement p = hosts.place(4, 2);
    assertEquals("a", p.scheduler());
    assertEquals(List.of("a", "b"), p.servers());
    assertEquals(List.of("b", "c", "b", "b"), p.workers());
    IllegalArgumentException full =
        assertThrows(
            IllegalArgumentException.class,
            () -> Hosts.parse(List.of("a:1", "b:1"), "h").place(3, 1));
    assertEquals(
        "3 workers but the hosts have slots for 2 (a:1, b:1); raise a host's :slots or start "
            + "fewer workers",
        full.getMessage());
    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class, () -> Hosts.parse(List.of("a", "b:x"), "hosts.txt"));
    assertEquals(
        "hosts.txt:2: 'b:x' is not host or host:slots (a name or address, then the most workers"
            + " it runs)",
        bad.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Hosts.parse(List.of("# none"), "h"));
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void theScriptRunsInTheDirectoryWithTheEnvironmentAndKeepsTheInputOpen() throws Exception {
    Path work = Files.createDirectories(dir.resolve("a dir with 'quotes'"));
    Map<String, String> env = new LinkedHashMap<>();
    env.put("KILN_A", "one two");
    env.put("KILN_B", "it's");
    String script =
        RemoteShell.script(
            work,
            env,
            List.of(
                "sh",
                "-c",
                "echo \"$PWD|$KILN_A|$KILN_B|$1\"; cat; echo input-closed",
                "x",
                "a b"));
    Process p =
        new ProcessBuilder(RemoteShell.parse("env FAKE={host}").command("h"))
            .redirectErrorStream(true)
            .start();
    OutputStream in = p.getOutputStream();
    in.write(script.getBytes(StandardCharsets.UTF_8));
    in.flush();
    var out = p.inputReader(StandardCharsets.UTF_8);
    String shell = out.readLine();
    assertTrue(shell.matches("KILN SHELL pid=" + p.pid()), shell + " (exec keeps the pid)");
    assertEquals(work + "|one two|it's|a b", out.readLine());
    // What comes after the script goes to the program: its input stays open until closed.
    in.write("more\n".getBytes(StandardCharsets.UTF_8));
    in.flush();
    assertEquals("more", out.readLine());
    in.close();
    assertEquals("input-closed", out.readLine());
    assertEquals(0, p.waitFor());
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void theStopScriptSignalsTheGroupAProcessLeadsOrTheProcessAlone() throws Exception {
    // A group leader with a child: both stop.
    Process leader = new ProcessBuilder("setsid", "sh", "-c", "sleep 300 & echo $!; wait").start();
    long child = Long.parseLong(leader.inputReader().readLine().strip());
    run(RemoteShell.stopScript(leader.pid(), "KILL"));
    assertTrue(leader.waitFor(10, TimeUnit.SECONDS));
    awaitGone(child);
    // A process in the launcher's group: it alone (the group would be this JVM's).
    Process plain = new ProcessBuilder("sleep", "300").start();
    run(RemoteShell.stopScript(plain.pid(), "TERM"));
    assertTrue(plain.waitFor(10, TimeUnit.SECONDS));
    assertEquals(143, plain.exitValue());
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void aRemoteProcessThatIgnoresItsInputAndSigtermIsKilledThroughTheRemoteShell() throws Exception {
    Path hosts = Files.writeString(dir.resolve("hosts"), "127.0.0.1:0\n127.0.0.2\n");
    // Ignores SIGTERM and never reads its input: only a SIGKILL stops it.
    List<String> command = List.of("sh", "-c", "trap '' TERM; echo started; exec sleep 300");
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    int status =
        Launcher.run(
            new Launcher.Spec(
                1,
                1,
                command,
                dir.resolve("logs"),
                Map.of(),
                Duration.ofSeconds(40),
                Duration.ofSeconds(3),
                Duration.ofSeconds(3),
                new Launcher.Remote(
                    Hosts.read(hosts), RemoteShell.parse("env KILN_FAKE_HOST={host}"), 1, dir)),
            new PrintStream(text, true, StandardCharsets.UTF_8));
    String out = text.toString(StandardCharsets.UTF_8);
    assertEquals(Launcher.STALLED, status, out);
    assertTrue(out.contains("[worker ? 127.0.0.2] started"), out);
    assertTrue(out.contains("FAILED: worker unranked-0"), out);
    assertTrue(
        out.contains("on 127.0.0.2, pid ")
            && out.contains(
                " through the remote shell: kill -s TERM (its process group, or it alone)"),
        out);
    assertTrue(out.contains(" through the remote shell: kill -s KILL"), out);
    for (String line : out.lines().filter(l -> l.startsWith("stopping ")).toList()) {
      long pid = Long.parseLong(line.replaceAll(".*, pid (\\d+) through.*", "$1"));
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), line);
    }
    assertEquals(
        List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList());
  }

  /**
   * The same through real ssh: an sshd of the test's own on loopback (port drawn per run, keys made
   * here), skipped where there is no sshd, ssh-keygen or root. Signalling the local ssh would only
   * close the connection: the launcher must stop the remote processes, and their children, through
   * ssh itself.
   */
  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void throughSshAProcessThatIgnoresItsInputAndSigtermIsKilledWithItsChildren() throws Exception {
    try (LocalSshd sshd = LocalSshd.start(dir)) {
      Path hosts = Files.writeString(dir.resolve("hosts"), "127.0.0.1:0\n127.0.0.2\n");
      // Ignores SIGTERM and SIGHUP, never reads its input, and has a child.
      List<String> command =
          List.of("sh", "-c", "trap '' TERM HUP; echo started $$; sleep 300 & echo child $!; wait");
      ByteArrayOutputStream text = new ByteArrayOutputStream();
      int status =
          Launcher.run(
              new Launcher.Spec(
                  1,
                  1,
                  command,
                  dir.resolve("ssh-logs"),
                  Map.of(),
                  Duration.ofSeconds(60),
                  Duration.ofSeconds(4),
                  Duration.ofSeconds(4),
                  new Launcher.Remote(
                      Hosts.read(hosts), RemoteShell.parse(sshd.template()), 1, dir)),
              new PrintStream(text, true, StandardCharsets.UTF_8));
      String out = text.toString(StandardCharsets.UTF_8);
      assertEquals(Launcher.STALLED, status, out);
      assertTrue(out.contains(" through the remote shell: kill -s KILL"), out);
      List<Long> pids = new java.util.ArrayList<>();
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("\\] (?:started|child) (\\d+)").matcher(out);
      while (m.find()) {
        pids.add(Long.parseLong(m.group(1)));
      }
      assertEquals(6, pids.size(), out);
      for (long pid : pids) {
        awaitGone(pid);
      }
    }
  }

  private static void run(String script) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(RemoteShell.parse("env H={host}").command("h")).start();
    try (OutputStream in = p.getOutputStream()) {
      in.write(script.getBytes(StandardCharsets.UTF_8));
    }
    assertEquals(0, p.waitFor());
  }

  private static void awaitGone(long pid) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      assertTrue(System.nanoTime() < deadline, "pid " + pid + " still runs");
      Thread.sleep(50);
    }
  }
}
