package dev.kiln.runtime.graph;

import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.mxnet.MxException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps MXNet operator names back to the model nodes that emitted them, and MXNet errors back to the
 * declaration at fault.
 */
public final class SourceMap {
  private static final Pattern OPERATOR = Pattern.compile("[Oo]perator ([A-Za-z_$][\\w$]*)");

  private final String model;
  private final Map<String, NodeSource> byOperator;

  SourceMap(String model, Map<String, NodeSource> byOperator) {
    this.model = model;
    this.byOperator = Map.copyOf(byOperator);
  }

  /** The node that emitted MXNet operator {@code operatorName}, or null. */
  public NodeSource find(String operatorName) {
    return byOperator.get(operatorName);
  }

  /**
   * Wraps an MXNet failure: when MXNet's text names an operator Kiln emitted, the message starts
   * with that node's declaration, e.g. {@code FashionMlp.hidden() @Dense(units = 128): Error in
   * operator hidden: ...}; otherwise with the model name and what Kiln was doing.
   */
  public ModelException trace(String doing, MxException e) {
    String text = e.mxnetMessage();
    Matcher m = OPERATOR.matcher(text);
    while (m.find()) {
      NodeSource src = byOperator.get(m.group(1));
      if (src != null) {
        return new ModelException(
            src,
            src + ": MXNet rejected node '" + src.node() + "' while " + doing + ": " + text,
            e);
      }
    }
    return new ModelException(null, model + ": MXNet failed while " + doing + ": " + text, e);
  }
}
