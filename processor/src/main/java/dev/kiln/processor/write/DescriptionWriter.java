package dev.kiln.processor.write;

import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.stream.Collectors;
import javax.annotation.processing.Filer;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * The optional fourth output, written only when the compiler is given {@code -Akiln.describe}: what
 * the processor inferred for a model, as a properties file {@code <Model>.kiln.properties} beside
 * its classes, for tools (the {@code kiln-testing} artifact reads it). Dimensions are written as
 * numbers, {@code -1} for {@code BATCH} and {@code -5} for {@code STEPS}; a free dimension
 * ({@code @FreeDim}) as its constant's value ({@code -10}), and a size derived from free dimensions
 * as {@code free}, its expression being in the shape's text ({@code shapeText}):
 *
 * <pre>
 * model=demo.FashionMlp
 * nodes=pixels,hidden,logits,probs
 * inputs=pixels
 * outputs=probs
 * params=101770
 * node.hidden.layer=@Dense(units = 128, activation = Act.RELU)
 * node.hidden.shape=-1,128
 * node.hidden.shapeText=[BATCH, 128]
 * node.hidden.params=100480
 * node.hidden.paramNames=hidden_weight,hidden_bias
 * node.hidden.auxNames=
 * param.hidden_weight=128,784
 * aux.bn1_moving_mean=6
 * </pre>
 */
public final class DescriptionWriter {
  /** The processor option that asks for the description. */
  public static final String OPTION = "kiln.describe";

  /** What the file's name ends with, after the model's simple name. */
  public static final String SUFFIX = ".kiln.properties";

  private DescriptionWriter() {}

  /** The text of the description of {@code model}, every line ending in a newline. */
  public static String text(CheckedModel model) {
    StringBuilder b = new StringBuilder();
    String pkg = model.packageName();
    line(b, "model", pkg.isEmpty() ? model.name() : pkg + "." + model.name());
    line(b, "nodes", names(model.nodes()));
    line(b, "inputs", names(model.inputs()));
    line(b, "outputs", names(model.outputs()));
    line(b, "params", Long.toString(model.paramCount()));
    for (CheckedNode n : model.nodes()) {
      line(b, "node." + n.name() + ".layer", n.spec().layerText());
      line(b, "node." + n.name() + ".shape", dims(n.shape(), model));
      line(b, "node." + n.name() + ".shapeText", n.shape().toString());
      line(b, "node." + n.name() + ".params", Long.toString(n.paramCount()));
      line(b, "node." + n.name() + ".paramNames", paramNames(n.params()));
      line(b, "node." + n.name() + ".auxNames", paramNames(n.aux()));
      for (ParamInfo p : n.params()) {
        line(b, "param." + p.name(), dims(p.shape(), model));
      }
      for (ParamInfo a : n.aux()) {
        line(b, "aux." + a.name(), dims(a.shape(), model));
      }
    }
    return b.toString();
  }

  /** Writes the description of {@code model} through {@code filer}, beside its classes. */
  public static void write(CheckedModel model, Filer filer) throws IOException {
    FileObject file =
        filer.createResource(
            StandardLocation.CLASS_OUTPUT,
            model.packageName(),
            model.name() + SUFFIX,
            model.spec().element());
    try (Writer w = file.openWriter()) {
      w.write(text(model));
    }
  }

  private static String names(List<CheckedNode> nodes) {
    return nodes.stream().map(CheckedNode::name).collect(Collectors.joining(","));
  }

  private static String paramNames(List<ParamInfo> params) {
    return params.stream().map(ParamInfo::name).collect(Collectors.joining(","));
  }

  /** {@code -1,16,-10,free}: free dimensions as their placeholders, derived sizes as free. */
  private static String dims(TShape shape, CheckedModel model) {
    return shape.dims().stream()
        .map(
            d -> {
              if (!TShape.isFree(d)) {
                return String.valueOf(d);
              }
              String name = TShape.expression(d).dimName();
              return model.spec().dims().stream()
                  .filter(f -> f.name().equals(name))
                  .map(f -> String.valueOf(f.placeholder()))
                  .findFirst()
                  .orElse("free");
            })
        .collect(Collectors.joining(","));
  }

  /** One {@code key=value} line, the value escaped as {@code Properties.load} reads it. */
  private static void line(StringBuilder b, String key, String value) {
    b.append(key).append('=');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('\n');
  }
}
