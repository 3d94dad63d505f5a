package dev.kiln.sample;

import dev.kiln.runtime.dist.Hosts;
import dev.kiln.runtime.dist.Launcher;
import dev.kiln.runtime.dist.RemoteShell;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code launch}: runs {@code train} as a {@code dist_sync} job of several worker processes on
 * MXNet's parameter server: one scheduler, {@code --servers} servers and {@code --workers} workers,
 * each this same program with ps-lite's environment. It starts and watches them on this machine
 * (loopback), or with {@code --hosts} on the hosts of a file through {@code --remote-shell}; with
 * {@code --dry-run} it prints the commands instead.
 */
@Command(
    name = "launch",
    mixinStandardHelpOptions = true,
    description =
        "Train on several worker processes (MXNet's dist_sync parameter server), on "
            + "this machine, or on several with --hosts (started through --remote-shell; "
            + "--dry-run prints the commands). Usage: launch --workers 2 --servers 1 -- train "
            + "--model mlp --epochs 2 (the word train may be left out). Rank 0 writes the "
            + "checkpoint and its result is printed here.")
final class Launch implements Callable<Integer> {
  @Option(
      names = "--workers",
      defaultValue = "2",
      description = "Worker processes (default: " + "${DEFAULT-VALUE}).")
  int workers;

  @Option(
      names = "--servers",
      defaultValue = "1",
      description = "Server processes (default: " + "${DEFAULT-VALUE}).")
  int servers;

  @Option(
      names = "--hosts",
      paramLabel = "FILE",
      description =
          "Run on the hosts of FILE, one host[:slots] a line (a name or address, then the most "
              + "workers it runs; # comments): the scheduler on the first, servers and workers "
              + "each round the list. Every host needs this program at the same paths.")
  Path hosts;

  @Option(
      names = "--remote-shell",
      paramLabel = "TEMPLATE",
      defaultValue = RemoteShell.DEFAULT,
      description =
          "With --hosts: the command prefix that runs a command on {host}; the launcher "
              + "appends 'sh -s' and writes the process's script to it (default: "
              + "${DEFAULT-VALUE}; e.g. 'ip netns exec {host}' for network namespaces).")
  String remoteShell;

  @Option(
      names = "--dry-run",
      description = "With --hosts: print the command for each process and start nothing.")
  boolean dryRun;

  @Option(
      names = "--port",
      defaultValue = "9091",
      description = "With --hosts: the scheduler's " + "port (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--logs",
      paramLabel = "DIR",
      defaultValue = "out/launch",
      description = "One " + "log per process (default: ${DEFAULT-VALUE}).")
  Path logs;

  @Option(
      names = "--timeout",
      defaultValue = "3600",
      description = "Seconds the whole job may " + "take (default: ${DEFAULT-VALUE}).")
  long timeout;

  @Option(
      names = "--stall",
      defaultValue = "60",
      description =
          "Seconds a worker may go without "
              + "progress before the job is stopped (default: ${DEFAULT-VALUE}).")
  long stall;

  @Parameters(
      paramLabel = "TRAIN-ARGS",
      description = "After --: train and its arguments, the same for every worker.")
  List<String> trainArgs = new ArrayList<>();

  @Override
  public Integer call() throws IOException {
    if (workers < 1 || servers < 1) {
      throw new IllegalArgumentException(
          "--workers and --servers must be at least 1, got " + workers + " and " + servers);
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Dai.djl.offline=true",
                "-cp",
                ProgramClassPath.get(),
                Main.class.getName(),
                "train"));
    // `-- train --model mlp` names the command, as most launchers expect; `-- --model mlp` too.
    List<String> args = trainArgs;
    if (!args.isEmpty() && args.get(0).equals("train")) {
      args = args.subList(1, args.size());
    }
    command.addAll(args);
    Launcher.Remote remote = null;
    if (hosts != null) {
      remote =
          new Launcher.Remote(
              Hosts.read(hosts),
              RemoteShell.parse(remoteShell),
              port,
              Path.of(System.getProperty("user.dir")).toAbsolutePath());
    } else if (dryRun) {
      throw new IllegalArgumentException("--dry-run prints the commands of a --hosts job");
    }
    Launcher.Spec spec =
        new Launcher.Spec(
            workers,
            servers,
            command,
            logs,
            Map.of("OPT_OUT_TRACKING", "true"),
            Duration.ofSeconds(timeout),
            Duration.ofSeconds(Math.max(stall, 120)),
            Duration.ofSeconds(stall),
            remote);
    if (dryRun) {
      return printCommands(spec);
    }
    return Launcher.run(spec, System.out);
  }

  /** The commands to run on each host of {@code --hosts}, the scheduler's first. */
  private int printCommands(Launcher.Spec spec) {
    System.out.println(
        "# Nothing is started. launch runs, for each process, '"
            + String.join(" ", spec.remote().shell().command("HOST"))
            + "' with the line after the host on its standard input (and KILN_LAUNCHED=1: the"
            + " process halts when that input closes). By hand: run each line on its host, the"
            + " scheduler first; every host needs the same paths.");
    for (Launcher.Planned p : Launcher.plan(spec)) {
      String vars =
          p.environment().entrySet().stream()
              .map(e -> quote(e.getKey() + "=" + e.getValue()))
              .collect(Collectors.joining(" "));
      System.out.println(
          p.host()
              + ": cd "
              + quote(spec.remote().directory().toString())
              + " && env "
              + vars
              + " "
              + String.join(" ", spec.command().stream().map(Launch::quote).toList()));
    }
    return 0;
  }

  private static String quote(String arg) {
    return RemoteShell.quote(arg);
  }
}
