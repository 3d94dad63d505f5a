package dev.kiln.processor.check;

import dev.kiln.annotations.Act;
import dev.kiln.processor.model.LayerSpec;
import dev.kiln.processor.model.TShape;
import java.util.List;

/**
 * Compile-time cost estimates per example (every {@code BATCH} dimension counted as 1): the
 * floating point operations of a node's forward pass, a multiply-add counting 2. Layers that only
 * move or look up values cost 0; a custom layer's body is not visible to the processor, so its cost
 * is unknown (-1).
 */
final class Costs implements LayerSpec.Visitor<Long> {
  private final List<TShape> in;
  private final long outElems;

  private Costs(List<TShape> in, TShape out) {
    this.in = in;
    this.outElems = out.perExample();
  }

  /** Forward FLOPs per example of {@code layer} from inputs {@code in} to {@code out}. */
  static long flops(LayerSpec layer, List<TShape> in, TShape out) {
    return layer.accept(new Costs(in, out));
  }

  @Override
  public Long visitInput(LayerSpec.Input i) {
    return 0L;
  }

  @Override
  public Long visitDense(LayerSpec.Dense d) {
    TShape x = in.get(0);
    long features = d.flatten() ? x.product(1) : x.dim(x.rank() - 1);
    return 2 * outElems * features + (d.noBias() ? 0 : outElems) + activation(d.activation());
  }

  @Override
  public Long visitActivation(LayerSpec.Activation a) {
    return outElems;
  }

  @Override
  public Long visitSoftmax(LayerSpec.Softmax s) {
    return 3 * outElems; // exponent, sum and division per element
  }

  @Override
  public Long visitFlatten(LayerSpec.Flatten f) {
    return 0L; // a view
  }

  @Override
  public Long visitAdd(LayerSpec.Add a) {
    return (in.size() - 1) * outElems;
  }

  @Override
  public Long visitConcat(LayerSpec.Concat c) {
    return 0L; // copies only
  }

  @Override
  public Long visitConv2D(LayerSpec.Conv2D c) {
    int[] k = LayerSpec.pair(c.kernel());
    long channels = in.get(0).dim(1);
    long macs = outElems * channels * k[0] * k[1];
    return 2 * macs + (c.noBias() ? 0 : outElems) + activation(c.activation());
  }

  @Override
  public Long visitPool(LayerSpec.Pool p) {
    int[] k = LayerSpec.pair(p.kernel());
    return outElems * k[0] * k[1];
  }

  @Override
  public Long visitGlobalAvgPool(LayerSpec.GlobalAvgPool g) {
    return in.get(0).perExample();
  }

  @Override
  public Long visitReshape(LayerSpec.Reshape r) {
    return 0L; // a view
  }

  @Override
  public Long visitDropout(LayerSpec.Dropout d) {
    return outElems; // training mode; the identity in inference
  }

  @Override
  public Long visitBatchNorm(LayerSpec.BatchNorm b) {
    return 4 * outElems; // (x - mean) / std * gamma + beta, statistics precomputed
  }

  @Override
  public Long visitLayerNorm(LayerSpec.LayerNorm l) {
    return 7 * outElems; // mean, variance, normalise, scale and shift per element
  }

  @Override
  public Long visitEmbedding(LayerSpec.Embedding e) {
    return 0L; // a row lookup
  }

  /**
   * Per step, each layer and direction multiplies the input and the previous state by its gate
   * matrices ({@code 2 · gates · units · (in + units)}), adds the biases and applies its gates and
   * cell ({@code ~ 4 · gates · units}); steps unknown at compile time count as one.
   */
  @Override
  public Long visitRecurrent(LayerSpec.Recurrent r) {
    TShape x = in.get(0);
    long steps = Math.max(1, x.dim(1));
    long gu = (long) r.gates() * r.units();
    long total = 0;
    for (int l = 0; l < r.layers(); l++) {
      long input = l == 0 ? x.dim(2) : (long) r.directions() * r.units();
      total += r.directions() * (2 * gu * (input + r.units()) + 4 * gu);
    }
    return steps * total;
  }

  @Override
  public Long visitCustom(LayerSpec.Custom c) {
    return -1L; // the body is traced only when the graph is built
  }

  private long activation(Act act) {
    return act == Act.NONE ? 0 : outElems;
  }
}
