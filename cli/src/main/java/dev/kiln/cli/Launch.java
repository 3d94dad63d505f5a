package dev.kiln.cli;

import dev.kiln.cli.launch.Hosts;
import dev.kiln.cli.launch.Launcher;
import dev.kiln.cli.launch.RemoteShell;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code launch}: runs a program as a {@code dist_sync} job on MXNet's parameter server: one
 * scheduler, {@code --servers} servers and {@code --workers} workers, each the program after {@code
 * --} with ps-lite's environment (as MXNet's {@code dmlc-submit} runs one). It starts and watches
 * them on this machine (loopback), or with {@code --hosts} on the hosts of a file through {@code
 * --remote-shell}; with {@code --dry-run} it prints the commands instead.
 *
 * <p>The program is any command ({@code -- java -cp app.jar demo.Train --epochs 2}, {@code --
 * ./train.sh}); a Kiln program calls {@code Node.serveIfServer()} first and trains with {@code
 * DataParallel.distributed}. Its first word {@code train} (or no program, or one that starts with
 * an option) means the Kiln sample app's {@code train}: {@code java -cp <this program's class path>
 * dev.kiln.sample.Main train ...}, which needs the sample app on this program's class path, as
 * {@code mvn -pl cli exec:java} has it.
 */
@Command(
    name = "launch",
    mixinStandardHelpOptions = true,
    description =
        "Run a program on several worker processes (MXNet's dist_sync parameter server), on "
            + "this machine, or on several with --hosts (started through --remote-shell; "
            + "--dry-run prints the commands). Usage: launch --workers 2 --servers 1 -- PROGRAM "
            + "ARGS..., where PROGRAM is any command (e.g. java -cp app.jar demo.Train), every "
            + "process of the job runs it, and the word train means the Kiln sample app's train "
            + "(launch -- train --model mlp --epochs 2; run from the Kiln repository with mvn -pl "
            + "cli exec:java). Rank 0's result is printed here.")
final class Launch implements Callable<Integer> {
  @Spec CommandSpec command;

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
          "Seconds a worker may go without progress (Kiln's progress lines) before the job is"
              + " stopped; 0 for a program that prints none (default: ${DEFAULT-VALUE}).")
  long stall;

  @Parameters(
      paramLabel = "PROGRAM",
      description =
          "After --: the program every process runs, and its arguments (train: the sample app's"
              + " train).")
  List<String> program = new ArrayList<>();

  /** The sample app's command line, which {@code -- train ...} runs. */
  static final String SAMPLE_MAIN = "dev.kiln.sample.Main";

  @Override
  public Integer call() throws IOException {
    Values.atLeast(command, "--workers", workers, 1);
    Values.atLeast(command, "--servers", servers, 1);
    Values.inRange(command, "--port", port, 1, 65535);
    Values.atLeast(command, "--timeout", timeout, 1);
    Values.atLeast(command, "--stall", stall, 0);
    if (dryRun && hosts == null) {
      throw Values.usage(command, "--dry-run prints the commands of a --hosts job; give --hosts");
    }
    List<String> command = command(program);
    Launcher.Remote remote = null;
    if (hosts != null) {
      remote =
          new Launcher.Remote(
              Hosts.read(hosts),
              RemoteShell.parse(remoteShell),
              port,
              Path.of(System.getProperty("user.dir")).toAbsolutePath());
    }
    Launcher.Spec spec =
        new Launcher.Spec(
            workers,
            servers,
            command,
            logs,
            Map.of("OPT_OUT_TRACKING", "true"),
            Duration.ofSeconds(timeout),
            Duration.ofSeconds(stall == 0 ? 0 : Math.max(stall, 120)),
            Duration.ofSeconds(stall),
            remote);
    if (dryRun) {
      return printCommands(spec);
    }
    return Launcher.run(spec, System.out);
  }

  /**
   * The command every process runs: {@code words} as they are, or the sample app's {@code train}
   * (with {@code words} after the word {@code train} as its arguments) when they start with {@code
   * train} or an option, or are none.
   */
  static List<String> command(List<String> words) {
    boolean train = words.isEmpty() || words.get(0).equals("train") || words.get(0).startsWith("-");
    if (!train) {
      return List.copyOf(words);
    }
    try {
      Class.forName(SAMPLE_MAIN, false, Launch.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "train is the Kiln sample app's command ("
              + SAMPLE_MAIN
              + "), which is not on this program's class path: run launch from the Kiln"
              + " repository (mvn -B -q -pl cli exec:java -Dexec.args=\"launch ... -- train"
              + " ...\"), or give your own program after --, e.g. -- java -cp CLASSPATH"
              + " my.Train");
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Dai.djl.offline=true",
                "-cp",
                ProgramClassPath.get(),
                SAMPLE_MAIN,
                "train"));
    // `-- train --model mlp` names the command, as most launchers expect; `-- --model mlp` too.
    command.addAll(
        !words.isEmpty() && words.get(0).equals("train") ? words.subList(1, words.size()) : words);
    return command;
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
