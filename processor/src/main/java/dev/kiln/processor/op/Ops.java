package dev.kiln.processor.op;

import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.TShape;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;

/**
 * The built-in operators: every layer annotation of {@code dev.kiln.annotations} with the reader of
 * its op, registered here and nowhere else. A test checks that every layer annotation has a reader.
 */
public final class Ops {
  /** Every built-in layer's reader, in the order the annotations are documented. */
  public static final List<OpReader<?>> ALL =
      List.of(
          InputOp.READER,
          DenseOp.READER,
          ActivationOp.READER,
          PReluOp.READER,
          SoftmaxOp.READER,
          LossOp.L2_READER,
          LossOp.L1_READER,
          LossOp.LOGISTIC_READER,
          LossOp.LOSS_READER,
          FlattenOp.READER,
          AddOp.READER,
          ConcatOp.READER,
          ConvOp.CONV1D_READER,
          ConvOp.CONV2D_READER,
          DeconvOp.READER,
          PoolOp.MAX_READER,
          PoolOp.AVG_READER,
          GlobalPoolOp.AVG_READER,
          GlobalPoolOp.MAX_READER,
          ReshapeOp.READER,
          DropoutOp.READER,
          BatchNormOp.READER,
          LayerNormOp.READER,
          LrnOp.READER,
          EmbeddingOp.READER,
          RecurrentOp.RNN_READER,
          RecurrentOp.LSTM_READER,
          RecurrentOp.GRU_READER,
          BroadcastOp.MULTIPLY_READER,
          BroadcastOp.SUBTRACT_READER,
          BroadcastOp.DIVIDE_READER,
          BroadcastOp.MAXIMUM_READER,
          ClipOp.READER,
          MatMulOp.READER,
          TransposeOp.READER,
          SliceOp.READER,
          ReduceOp.MEAN_READER,
          ReduceOp.SUM_READER);

  private Ops() {}

  /** The reader of the built-in layer {@code mirror} is, or null when it is another annotation. */
  public static OpReader<?> of(AnnotationMirror mirror) {
    String name =
        ((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().toString();
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

  /** Whether {@code mirror} is {@code @Input}, whose shape messages write with BATCH and STEPS. */
  public static boolean isInput(AnnotationMirror mirror) {
    return of(mirror) == InputOp.READER;
  }
}
