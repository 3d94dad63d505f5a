package dev.kiln.cli;

import dev.kiln.runtime.data.DatasetNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code kiln} command: inspects and imports MXNet symbol files, quantises, serves, load-tests
 * and benchmarks checkpoints, and launches distributed jobs.
 *
 * <p>A usage mistake (an unknown option, a bad value, options that do not go together) prints what
 * was wrong and one usage line, and exits with 2; a refused request (a missing checkpoint or file,
 * a file already there) prints one line saying why and the fix, and exits with 1.
 */
@Command(
    name = "kiln",
    mixinStandardHelpOptions = true,
    versionProvider = Kiln.Version.class,
    description =
        "Kiln's command line: import, inspect, quantize, serve and launch models on MXNet.",
    subcommands = {
      Inspect.class,
      ImportSymbol.class,
      ExportOnnx.class,
      Quantize.class,
      Serve.class,
      LoadTestCommand.class,
      Launch.class,
      BenchCommand.class
    })
public final class Kiln implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * Runs the command that {@code args} name and exits with its status.
   *
   * @param args the command and its options, e.g. {@code inspect --symbol f-symbol.json ...}
   */
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /**
   * The configured command line: the usage and failure handling above, every command printing the
   * build's version. Tests and the benchmarks run commands through it.
   *
   * @return a fresh command line
   */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Kiln());
    Version version = new Version();
    for (CommandLine sub : cl.getSubcommands().values()) {
      sub.getCommandSpec().versionProvider(version);
    }
    cl.setParameterExceptionHandler(
        (e, args) -> {
          CommandLine cmd = e.getCommandLine();
          PrintWriter err = cmd.getErr();
          String message = e.getMessage();
          if (cmd.getCommandName().equals("launch")
              && e instanceof CommandLine.UnmatchedArgumentException) {
            message +=
                "; the program and its arguments go after --: launch --workers 2 --servers 1 --"
                    + " train --model mlp";
          }
          err.println(message);
          CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
          String name = cmd.getCommandSpec().qualifiedName();
          err.println("Usage: " + name + " [OPTIONS]; `" + name + " --help` lists them");
          err.flush();
          return 2;
        });
    cl.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          String message =
              e instanceof DatasetNotFoundException || e instanceof IllegalArgumentException
                  ? e.getMessage()
                  : e instanceof UncheckedIOException u && u.getCause() != null
                      ? u.getCause().getMessage()
                      : null;
          if (message == null) {
            throw e;
          }
          cmd.getErr().println(message);
          cmd.getErr().flush();
          return 1;
        });
    return cl;
  }

  /**
   * This build's version, e.g. {@code 0.1.0-SNAPSHOT} (what {@code -V} prints).
   *
   * @return the version the build stamped into the command
   */
  public static String version() {
    Properties p = new Properties();
    try (InputStream in = Kiln.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading kiln-cli's version.properties", e);
    }
    return p.getProperty("version", "unknown");
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** The version every command prints. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"kiln " + version()};
    }
  }
}
