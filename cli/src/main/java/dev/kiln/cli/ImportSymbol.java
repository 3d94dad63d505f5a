package dev.kiln.cli;

import dev.kiln.processor.Inspector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import javax.lang.model.SourceVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code import}: writes the {@code @Model} interface that imports an ONNX or symbol file, with the
 * file beside it, after checking it as the processor will.
 */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description =
        "Write DIR/<PKG as folders>/TYPE.java, a @Model interface that imports an ONNX model "
            + "or an MXNet symbol file (@Imported), copy the file beside it, and print the layer "
            + "table.")
final class ImportSymbol implements Callable<Integer> {
  @Mixin SymbolOptions symbol;

  @Option(
      names = "--package",
      paramLabel = "PKG",
      defaultValue = "",
      description = "The interface's package (default: none).")
  String pkg;

  @Option(
      names = "--name",
      paramLabel = "TYPE",
      description = "The interface's name (default: from the file's, e.g. Resnet18).")
  String name;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = ".",
      description = "The source folder to write into (default: the current folder).")
  Path out;

  @Option(
      names = "--overwrite",
      description = "Replace TYPE.java and the copied file if they exist.")
  boolean overwrite;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Path file = symbol.file(spec.commandLine());
    String type = name == null ? symbol.typeName(spec.commandLine()) : name;
    if (!SourceVersion.isIdentifier(type) || SourceVersion.isKeyword(type)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "Invalid value for option '--name': '" + type + "' is not a Java type name");
    }
    if (!pkg.isEmpty() && !SourceVersion.isName(pkg)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "Invalid value for option '--package': '" + pkg + "' is not a Java package name");
    }
    Inspector.Inspection found = symbol.inspect(spec.commandLine(), type, pkg);
    found.warnings().forEach(w -> System.err.println("warning: " + w));
    SymbolOptions.requireClean(found);
    Path dir = pkg.isEmpty() ? out : out.resolve(pkg.replace('.', '/'));
    Path source = dir.resolve(type + ".java");
    Path copy = dir.resolve(symbol.fileName(spec.commandLine()));
    for (Path p : new Path[] {source, copy}) {
      if (Files.exists(p) && !overwrite && !(p.equals(copy) && same(file, copy))) {
        throw new IllegalArgumentException(
            p
                + " exists; kiln import replaces nothing: remove it, choose another --name "
                + "or --out, or pass --overwrite");
      }
    }
    try {
      Files.createDirectories(dir);
      Files.writeString(source, found.source(), StandardCharsets.UTF_8);
      if (!same(file, copy)) {
        Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(new IOException("cannot write " + dir + ": " + e, e));
    }
    System.out.print(found.table());
    System.out.println("wrote " + source + " and " + copy);
    return 0;
  }

  /** Whether {@code a} and {@code b} are one file, or files of the same bytes. */
  private static boolean same(Path a, Path b) {
    try {
      return Files.exists(b) && (Files.isSameFile(a, b) || Files.mismatch(a, b) == -1);
    } catch (IOException e) {
      return false;
    }
  }
}
