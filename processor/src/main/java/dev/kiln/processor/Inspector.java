package dev.kiln.processor;

import dev.kiln.onnx.OnnxFile;
import dev.kiln.onnx.OnnxFormatException;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.ops.rule.Message;
import dev.kiln.processor.check.ModelChecker;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.read.DeclaredModel;
import dev.kiln.processor.read.SymbolSource;
import dev.kiln.processor.write.InterfaceWriter;
import dev.kiln.processor.write.LayerTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.tools.Diagnostic;

/**
 * The processor's checks of an imported symbol or ONNX file, run outside a compiler: what {@code
 * kiln inspect} prints (the layer table, or the errors) and the interface {@code kiln import}
 * writes. The file is read and checked exactly as an {@code @Imported} node of that interface is
 * when it compiles.
 */
public final class Inspector {
  private Inspector() {}

  /**
   * What the checks found.
   *
   * @param errors the errors, as the compiler would print them; empty when the model is clean
   * @param warnings the warnings
   * @param table the layer table, when there is no error
   * @param source the interface's source, when there is no error
   * @param classifier whether the model is a classifier (its head is a softmax over classes)
   */
  public record Inspection(
      List<String> errors, List<String> warnings, String table, String source, boolean classifier) {
    /** Copies the lists. */
    public Inspection {
      errors = List.copyOf(errors);
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * Checks the model {@code type} of package {@code pkg} that imports {@code symbolText} (named
   * {@code symbol} beside the interface) with {@code inputs}, cut at {@code outputs} (none: the
   * file's one output).
   */
  public static Inspection inspect(
      String type,
      String pkg,
      String symbol,
      String symbolText,
      List<DeclaredModel.Input> inputs,
      List<String> outputs) {
    return inspect(type, pkg, symbol, symbolText, inputs, List.of(), outputs);
  }

  /**
   * Checks the model {@code type} as {@link #inspect(String, String, String, String, List, List)}
   * does, with the free dimensions {@code dims} that the inputs' shapes name.
   */
  public static Inspection inspect(
      String type,
      String pkg,
      String symbol,
      String symbolText,
      List<DeclaredModel.Input> inputs,
      List<DeclaredModel.Dim> dims,
      List<String> outputs) {
    Report report = new Report();
    SymbolSource files = (name, p) -> symbolText;
    List<DeclaredModel.Import> imports = DeclaredModel.imports(symbolText, outputs);
    ModelSpec spec =
        DeclaredModel.read(type, pkg, symbol, false, files, inputs, dims, imports, report);
    return finish(type, symbol, spec, report, cuts(imports));
  }

  /**
   * Checks the model {@code type} of package {@code pkg} that imports the ONNX model {@code bytes}
   * (named {@code file} beside the interface) with {@code inputs} (none: the file's data inputs at
   * the shapes it declares, a symbolic first dimension read as {@code BATCH}), cut at {@code
   * outputs} (none: the whole graph, every output of the file an output of the model).
   */
  public static Inspection inspectOnnx(
      String type,
      String pkg,
      String file,
      byte[] bytes,
      List<DeclaredModel.Input> inputs,
      List<String> outputs) {
    return inspectOnnx(type, pkg, file, bytes, inputs, List.of(), outputs);
  }

  /**
   * Checks the model {@code type} as {@link #inspectOnnx(String, String, String, byte[], List,
   * List)} does, with the free dimensions {@code dims} that the inputs' shapes name; without
   * inputs, the file's own, each {@code dim_param} past the first a free dimension.
   */
  public static Inspection inspectOnnx(
      String type,
      String pkg,
      String file,
      byte[] bytes,
      List<DeclaredModel.Input> inputs,
      List<DeclaredModel.Dim> dims,
      List<String> outputs) {
    Report report = new Report();
    ModelProto model;
    try {
      model = OnnxFile.parse(bytes, file);
    } catch (OnnxFormatException e) {
      report.add(Message.ONNX_NOT_MODEL, null, type, e.getMessage());
      return new Inspection(report.texts(Diagnostic.Kind.ERROR), List.of(), null, null, false);
    }
    DeclaredModel.Inputs declared =
        inputs.isEmpty()
            ? DeclaredModel.onnxInputs(model, file, type, report)
            : new DeclaredModel.Inputs(inputs, dims);
    List<DeclaredModel.Import> imports = DeclaredModel.onnxImports(model, outputs);
    ModelSpec spec = null;
    if (declared != null) {
      SymbolSource files =
          new SymbolSource() {
            @Override
            public String read(String name, String p) {
              throw new IllegalStateException("an ONNX file is read as bytes");
            }

            @Override
            public byte[] bytes(String name, String p) {
              return bytes;
            }
          };
      spec =
          DeclaredModel.read(
              type, pkg, file, true, files, declared.inputs(), declared.dims(), imports, report);
    }
    return finish(type, file, spec, report, cuts(imports));
  }

  /**
   * The outputs the imports name (those given, or each head of a file of several), by the method of
   * the import that ends there; empty when the one import is the whole file.
   */
  private static Map<String, String> cuts(List<DeclaredModel.Import> imports) {
    Map<String, String> cuts = new LinkedHashMap<>();
    imports.stream()
        .filter(i -> !i.output().isEmpty())
        .forEach(i -> cuts.put(i.method(), i.output()));
    return cuts;
  }

  private static Inspection finish(
      String type, String file, ModelSpec spec, Report report, Map<String, String> cuts) {
    CheckedModel checked =
        spec == null || report.hasErrors() ? null : new ModelChecker(report).check(spec);
    List<String> errors = report.texts(Diagnostic.Kind.ERROR);
    List<String> warnings = report.texts(Diagnostic.Kind.WARNING);
    if (checked == null || !errors.isEmpty()) {
      return new Inspection(errors, warnings, null, null, false);
    }
    return new Inspection(
        errors,
        warnings,
        type + "\n" + LayerTable.render(checked),
        InterfaceWriter.write(checked, file, cuts),
        checked.classifierHead() != null);
  }
}
