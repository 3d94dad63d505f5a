package dev.kiln.sample;

import dev.kiln.runtime.data.DatasetNotFoundException;
import dev.kiln.runtime.dist.Node;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The Kiln sample app: trains, evaluates, predicts with, exports and summarises Fashion-MNIST
 * models from the command line. The {@code kiln} command (module {@code kiln-cli}) inspects,
 * imports, quantises, serves and launches; the benchmarks are module {@code kiln-benchmarks}'s.
 *
 * <p>A usage mistake (an unknown option or model, a bad value, options that do not go together)
 * prints what was wrong and one usage line, and exits with 2; a refused request (a missing
 * checkpoint, a checkpoint of another model, a file already there) prints why and the fix, and
 * exits with 1. Every option is checked before any data is read or any file written.
 */
@Command(
    name = "kiln-sample",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Train and use Kiln models on Fashion-MNIST, on MXNet.",
    subcommands = {Train.class, Eval.class, Predict.class, Export.class, Summary.class})
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * Entry point. In the scheduler or a server of a distributed job (see {@code kiln launch}) it
   * serves the job and exits; a distributed worker halts at the end (see {@link Node}).
   */
  public static void main(String[] args) {
    Node.serveIfServer();
    int code = commandLine().execute(args);
    if (Node.isWorker()) {
      Node.halt(code);
    }
    System.exit(code);
  }

  /** The configured command line (also used by tests). */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.registerConverter(
        SampleModel.Kind.class,
        name -> {
          try {
            return SampleModel.Kind.parse(name);
          } catch (IllegalArgumentException e) {
            // picocli prints a conversion error's own message, without the exception's class.
            throw new CommandLine.TypeConversionException(e.getMessage());
          }
        });
    // Every command prints the same version (the build's), -V included.
    Version version = new Version();
    for (CommandLine sub : cl.getSubcommands().values()) {
      sub.getCommandSpec().versionProvider(version);
      for (CommandLine subsub : sub.getSubcommands().values()) {
        subsub.getCommandSpec().versionProvider(version);
      }
    }
    cl.setParameterExceptionHandler(
        (e, args) -> {
          CommandLine cmd = e.getCommandLine();
          PrintWriter err = cmd.getErr();
          report(err, e.getMessage());
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
          report(cmd.getErr(), message);
          cmd.getErr().flush();
          return 1;
        });
    return cl;
  }

  /**
   * Prints {@code message} for the user; in a launched process, also as the protocol's error line,
   * which the launcher shows when the job fails.
   */
  private static void report(PrintWriter err, String message) {
    if (Node.launched()) {
      // The log's one line for it; the launcher shows it when the job fails.
      err.flush();
      Node.say("ERROR " + message.lines().findFirst().orElse(message));
      message.lines().skip(1).forEach(err::println);
    } else {
      err.println(message);
    }
  }

  /** This build's version, e.g. {@code 0.1.0-SNAPSHOT} (what {@code -V} prints). */
  public static String version() {
    return Version.version();
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** The version the build stamped into {@code version.properties}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"kiln-sample " + version()};
    }

    /** This build's version, e.g. {@code 0.1.0-SNAPSHOT}. */
    static String version() {
      Properties p = new Properties();
      try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          p.load(in);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("reading the sample app's version.properties", e);
      }
      return p.getProperty("version", "unknown");
    }
  }
}
