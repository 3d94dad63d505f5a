package dev.kiln.processor.write;

import com.palantir.javapoet.JavaFile;
import dev.kiln.processor.model.CheckedModel;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.tools.JavaFileObject;

/**
 * Phase three: the three classes generated for a checked model, {@code XGraph}, {@code XModel} and
 * {@code XExec}, one writer each. Writers only format what the model description says.
 */
public final class GeneratedFiles {
  private GeneratedFiles() {}

  /** The files for {@code model}, in the order they are written. */
  public static List<JavaFile> of(CheckedModel model) {
    GeneratedNames names = new GeneratedNames(model);
    return List.of(
        new GraphWriter(model, names).write(),
        new ModelWriter(model, names).write(),
        new ExecWriter(model, names).write());
  }

  /**
   * Writes the files for {@code model} through {@code filer}, each with its one originating
   * element. Lines end without trailing spaces (JavaPoet leaves one where it wraps after {@code
   * =}).
   */
  public static void write(CheckedModel model, Filer filer) throws IOException {
    for (JavaFile file : of(model)) {
      String name =
          file.packageName().isEmpty()
              ? file.typeSpec().name()
              : file.packageName() + "." + file.typeSpec().name();
      Element[] origin = file.typeSpec().originatingElements().toArray(Element[]::new);
      JavaFileObject source = filer.createSourceFile(name, origin);
      try (Writer w = source.openWriter()) {
        w.write(text(file));
      }
    }
  }

  /** The text of {@code file}, every line stripped of trailing white space. */
  static String text(JavaFile file) {
    StringBuilder b = new StringBuilder();
    for (String line : file.toString().split("\n", -1)) {
      b.append(line.stripTrailing()).append('\n');
    }
    return b.substring(0, b.length() - 1);
  }
}
