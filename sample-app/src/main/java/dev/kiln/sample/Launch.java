package dev.kiln.sample;

import dev.kiln.runtime.dist.Launcher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * each this same program with ps-lite's environment. On this machine (loopback) it starts and
 * watches them; with {@code --hosts} it prints the command for every host instead.
 */
@Command(
    name = "launch",
    mixinStandardHelpOptions = true,
    description =
        "Train on several worker processes (MXNet's dist_sync parameter server), on "
            + "this machine, or print the commands for several machines with --hosts. Usage: "
            + "launch --workers 2 --servers 1 -- train --model mlp --epochs 2 (the word train "
            + "may be left out). Rank 0 writes the checkpoint and its result is printed here.")
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
          "A file with one host name or "
              + "address per line: print the command to start on each (the scheduler on the first, "
              + "servers and workers each round the list) instead of running the job here.")
  Path hosts;

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
    if (hosts != null) {
      return printCommands(command);
    }
    int status =
        Launcher.run(
            new Launcher.Spec(
                workers,
                servers,
                command,
                logs,
                Map.of("OPT_OUT_TRACKING", "true"),
                Duration.ofSeconds(timeout),
                Duration.ofSeconds(Math.max(stall, 120)),
                Duration.ofSeconds(stall)),
            System.out);
    return status;
  }

  /** The commands to run on each host of {@code --hosts}, the scheduler's first. */
  private int printCommands(List<String> command) throws IOException {
    List<String> names =
        Files.readAllLines(hosts, StandardCharsets.UTF_8).stream()
            .map(String::strip)
            .filter(l -> !l.isEmpty() && !l.startsWith("#"))
            .toList();
    if (names.isEmpty()) {
      throw new IllegalArgumentException("--hosts " + hosts + " lists no host");
    }
    String root = names.get(0);
    System.out.println(
        "# Start these, the scheduler first, each on its host (e.g. over ssh);"
            + " the same class path must exist on every host. Nothing is started by this command.");
    print("scheduler", root, root, command);
    for (int i = 0; i < servers; i++) {
      print("server", root, names.get(i % names.size()), command);
    }
    for (int i = 0; i < workers; i++) {
      print("worker", root, names.get(i % names.size()), command);
    }
    return 0;
  }

  private void print(String role, String root, String host, List<String> command) {
    Map<String, String> env = Launcher.environment(role, root, port, workers, servers, host);
    String vars =
        env.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(" "));
    System.out.println(
        host
            + ": env "
            + vars
            + " OMP_NUM_THREADS=1 OPT_OUT_TRACKING=true "
            + String.join(" ", command.stream().map(Launch::quote).toList()));
  }

  private static String quote(String arg) {
    return arg.matches("[A-Za-z0-9_./=:,+-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'";
  }
}
