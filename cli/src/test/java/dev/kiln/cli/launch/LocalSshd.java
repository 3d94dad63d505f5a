package dev.kiln.cli.launch;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * An sshd of a test's own, listening on 127.0.0.1 to 127.0.0.3 at a free port, letting in root with
 * a key made for it; the test is skipped (an assumption) where there is no sshd or ssh-keygen,
 * where the JVM is not root, or where sshd does not start (with its log as the reason). {@link
 * #close()} stops it by its pid.
 */
final class LocalSshd implements AutoCloseable {
  private final Process sshd;
  private final Path dir;
  private final int port;

  private LocalSshd(Process sshd, Path dir, int port) {
    this.sshd = sshd;
    this.dir = dir;
    this.port = port;
  }

  static LocalSshd start(Path parent) throws Exception {
    Path sshdBin = Path.of("/usr/sbin/sshd");
    assumeTrue(Files.isExecutable(sshdBin), "skipped: no /usr/sbin/sshd");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/ssh-keygen")), "skipped: no ssh-keygen");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/ssh")), "skipped: no ssh");
    assumeTrue(
        Files.readString(Path.of("/proc/self/status"))
            .lines()
            .anyMatch(l -> l.matches("Uid:\\s+0\\s.*")),
        "skipped: sshd's root login needs root");
    Path dir = Files.createDirectories(parent.resolve("sshd"));
    run(
        "/usr/bin/ssh-keygen",
        "-q",
        "-t",
        "ed25519",
        "-N",
        "",
        "-f",
        dir.resolve("host_key").toString());
    run("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("id").toString());
    Files.copy(dir.resolve("id.pub"), dir.resolve("authorized_keys"));
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Files.writeString(
        dir.resolve("sshd_config"),
        String.join(
            "\n",
            "Port " + port,
            "ListenAddress 127.0.0.1",
            "ListenAddress 127.0.0.2",
            "ListenAddress 127.0.0.3",
            "HostKey " + dir.resolve("host_key"),
            "PermitRootLogin yes",
            "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
            "StrictModes no",
            "PasswordAuthentication no",
            "UsePAM no",
            "PidFile none",
            ""));
    // sshd's privilege separation wants this directory; a package install creates it at boot.
    Files.createDirectories(Path.of("/run/sshd"));
    Process p =
        new ProcessBuilder(
                sshdBin.toString(),
                "-D",
                "-f",
                dir.resolve("sshd_config").toString(),
                "-E",
                dir.resolve("sshd.log").toString())
            .start();
    LocalSshd sshd = new LocalSshd(p, dir, port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try {
        new java.net.Socket("127.0.0.2", port).close();
        return sshd;
      } catch (IOException e) {
        if (System.nanoTime() > deadline || !p.isAlive()) {
          sshd.close();
          // An sshd this machine cannot run (no privilege separation user, addresses it may not
          // bind) says nothing about Kiln: skip, with sshd's own reason.
          String log = Files.readString(dir.resolve("sshd.log")).strip();
          assumeTrue(false, "skipped: sshd did not start: " + log);
        }
        Thread.sleep(100);
      }
    }
  }

  /** The remote shell template that logs in to this sshd. */
  String template() {
    return "ssh -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
        + " -o LogLevel=ERROR -i "
        + dir.resolve("id")
        + " -p "
        + port
        + " {host}";
  }

  @Override
  public void close() {
    sshd.destroy();
    try {
      if (!sshd.waitFor(5, TimeUnit.SECONDS)) {
        sshd.destroyForcibly();
      }
    } catch (InterruptedException e) {
      sshd.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static void run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + ": " + out);
    }
  }
}
