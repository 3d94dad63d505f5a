package dev.kiln.ops;

import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * The built-in operators: every operator unit, with the layer annotations of {@code
 * dev.kiln.annotations} that declare it and the symbol-file operators it reads, registered here and
 * nowhere else. A test checks that every layer annotation has a reader.
 */
public final class Ops {
  /**
   * Every operator unit, registered here and nowhere else, in the order the layers are documented:
   * the annotation readers ({@link #ALL}) and the symbol-file table ({@link FileOps}) are made from
   * this list. A new operator is its annotation, its unit and one line here.
   */
  static final List<Unit> UNITS =
      List.of(
          InputOp.UNIT,
          DenseOp.UNIT,
          ActivationOp.UNIT,
          PReluOp.UNIT,
          SoftmaxOp.UNIT,
          LossOp.UNIT,
          FlattenOp.UNIT,
          AddOp.UNIT,
          ConcatOp.UNIT,
          ConvOp.UNIT,
          DeconvOp.UNIT,
          PoolOp.UNIT,
          UpsampleOp.UNIT,
          GlobalPoolOp.UNIT,
          ReshapeOp.UNIT,
          DropoutOp.UNIT,
          BatchNormOp.UNIT,
          LayerNormOp.UNIT,
          InstanceNormOp.UNIT,
          LrnOp.UNIT,
          EmbeddingOp.UNIT,
          RecurrentOp.UNIT,
          AttentionOp.UNIT,
          PositionalEmbeddingOp.UNIT,
          BroadcastOp.UNIT,
          ClipOp.UNIT,
          MatMulOp.UNIT,
          TransposeOp.UNIT,
          SliceOp.UNIT,
          ReduceOp.UNIT,
          SplitOp.UNIT,
          SwapOp.UNIT,
          ScalarOp.UNIT,
          CropOp.UNIT,
          CastOp.UNIT,
          SoftmaxActivationOp.UNIT,
          MathOp.UNIT,
          LogSoftmaxOp.UNIT,
          TileOp.UNIT,
          PadOp.UNIT,
          ValueOp.UNIT);

  /** Every built-in layer's reader, in the order the annotations are documented. */
  public static final List<OpReader<?>> ALL =
      UNITS.stream().flatMap(u -> u.annotations().stream()).toList();

  private Ops() {}

  /**
   * The reader of the built-in layer whose annotation type is named {@code name} (qualified, e.g.
   * {@code dev.kiln.annotations.Dense}), or null when it is another annotation.
   */
  public static OpReader<?> of(String name) {
    for (OpReader<?> reader : ALL) {
      if (reader.annotation().getCanonicalName().equals(name)) {
        return reader;
      }
    }
    return null;
  }

  /**
   * The op of {@code @Input(shape = shape)}, for a model declared without a source file (the
   * command line's {@code inspect} and {@code import}); {@code -1} is {@code BATCH}.
   */
  public static Op input(int... shape) {
    return new InputOp(TShape.of(shape));
  }

  /**
   * Whether the annotation type named {@code name} is {@code @Input}, whose shape messages write
   * with BATCH and STEPS.
   */
  public static boolean isInput(String name) {
    return of(name) == InputOp.READER;
  }
}
