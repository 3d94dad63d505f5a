package dev.kiln.processor.read;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.Add;
import dev.kiln.annotations.AvgPool;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Concat;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Dropout;
import dev.kiln.annotations.Embedding;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.Gru;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.Lstm;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Rnn;
import dev.kiln.annotations.Softmax;
import dev.kiln.processor.model.LayerSpec;
import dev.kiln.processor.model.TShape;
import java.lang.annotation.Annotation;
import java.util.Arrays;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * Every built-in layer annotation: how to read it into its {@link LayerSpec}, and the order in
 * which its attributes are written in messages, tables and generated code. Compilers list the
 * elements of an annotation read from a class file in different orders (ecj is not javac), so
 * nothing may depend on theirs. A test checks that every layer annotation of {@code
 * dev.kiln.annotations} has a constant here and every built-in {@link LayerSpec} a reader.
 */
enum BuiltinLayer {
  INPUT(Input.class, LayerSpec.Input.class, "shape") {
    @Override
    LayerSpec read(ExecutableElement method) {
      return new LayerSpec.Input(TShape.of(method.getAnnotation(Input.class).shape()));
    }
  },
  DENSE(Dense.class, LayerSpec.Dense.class, "units", "activation", "noBias", "flatten") {
    @Override
    LayerSpec read(ExecutableElement method) {
      Dense d = method.getAnnotation(Dense.class);
      return new LayerSpec.Dense(d.units(), d.activation(), d.noBias(), d.flatten());
    }
  },
  ACTIVATION(Activation.class, LayerSpec.Activation.class, "value") {
    @Override
    LayerSpec read(ExecutableElement method) {
      return new LayerSpec.Activation(method.getAnnotation(Activation.class).value());
    }
  },
  SOFTMAX(Softmax.class, LayerSpec.Softmax.class, "axis") {
    @Override
    LayerSpec read(ExecutableElement method) {
      return new LayerSpec.Softmax(method.getAnnotation(Softmax.class).axis());
    }
  },
  FLATTEN(Flatten.class, LayerSpec.Flatten.class) {
    @Override
    LayerSpec read(ExecutableElement method) {
      return new LayerSpec.Flatten();
    }
  },
  ADD(Add.class, LayerSpec.Add.class) {
    @Override
    LayerSpec read(ExecutableElement method) {
      return new LayerSpec.Add();
    }
  },
  CONCAT(Concat.class, LayerSpec.Concat.class, "axis") {
    @Override
    LayerSpec read(ExecutableElement method) {
      return new LayerSpec.Concat(method.getAnnotation(Concat.class).axis());
    }
  },
  CONV2D(
      Conv2D.class,
      LayerSpec.Conv2D.class,
      "filters",
      "kernel",
      "stride",
      "pad",
      "dilation",
      "activation",
      "noBias") {
    @Override
    LayerSpec read(ExecutableElement method) {
      Conv2D c = method.getAnnotation(Conv2D.class);
      return new LayerSpec.Conv2D(
          c.filters(),
          list(c.kernel()),
          list(c.stride()),
          list(c.pad()),
          list(c.dilation()),
          c.activation(),
          c.noBias());
    }
  },
  MAX_POOL(MaxPool.class, LayerSpec.Pool.class, "kernel", "stride", "pad") {
    @Override
    LayerSpec read(ExecutableElement method) {
      MaxPool p = method.getAnnotation(MaxPool.class);
      return new LayerSpec.Pool("max", list(p.kernel()), list(p.stride()), list(p.pad()));
    }
  },
  AVG_POOL(AvgPool.class, LayerSpec.Pool.class, "kernel", "stride", "pad") {
    @Override
    LayerSpec read(ExecutableElement method) {
      AvgPool p = method.getAnnotation(AvgPool.class);
      return new LayerSpec.Pool("avg", list(p.kernel()), list(p.stride()), list(p.pad()));
    }
  },
  GLOBAL_AVG_POOL(GlobalAvgPool.class, LayerSpec.GlobalAvgPool.class) {
    @Override
    LayerSpec read(ExecutableElement method) {
      return new LayerSpec.GlobalAvgPool();
    }
  },
  RESHAPE(Reshape.class, LayerSpec.Reshape.class, "shape") {
    @Override
    LayerSpec read(ExecutableElement method) {
      return new LayerSpec.Reshape(list(method.getAnnotation(Reshape.class).shape()));
    }
  },
  DROPOUT(Dropout.class, LayerSpec.Dropout.class, "rate") {
    @Override
    LayerSpec read(ExecutableElement method) {
      return new LayerSpec.Dropout(method.getAnnotation(Dropout.class).rate());
    }
  },
  BATCH_NORM(BatchNorm.class, LayerSpec.BatchNorm.class, "eps", "momentum", "axis") {
    @Override
    LayerSpec read(ExecutableElement method) {
      BatchNorm b = method.getAnnotation(BatchNorm.class);
      return new LayerSpec.BatchNorm(b.eps(), b.momentum(), b.axis());
    }
  },
  LAYER_NORM(LayerNorm.class, LayerSpec.LayerNorm.class, "axis", "eps") {
    @Override
    LayerSpec read(ExecutableElement method) {
      LayerNorm l = method.getAnnotation(LayerNorm.class);
      return new LayerSpec.LayerNorm(l.axis(), l.eps());
    }
  },
  EMBEDDING(Embedding.class, LayerSpec.Embedding.class, "inputDim", "outputDim") {
    @Override
    LayerSpec read(ExecutableElement method) {
      Embedding e = method.getAnnotation(Embedding.class);
      return new LayerSpec.Embedding(e.inputDim(), e.outputDim());
    }
  },
  RNN(
      Rnn.class,
      LayerSpec.Recurrent.class,
      "units",
      "activation",
      "layers",
      "bidirectional",
      "dropout",
      "returnSequences",
      "stateful") {
    @Override
    LayerSpec read(ExecutableElement method) {
      Rnn r = method.getAnnotation(Rnn.class);
      String mode = r.activation() == Act.RELU ? "rnn_relu" : "rnn_tanh";
      return new LayerSpec.Recurrent(
          mode,
          r.units(),
          r.layers(),
          r.bidirectional(),
          r.dropout(),
          r.returnSequences(),
          r.stateful(),
          r.activation());
    }
  },
  LSTM(
      Lstm.class,
      LayerSpec.Recurrent.class,
      "units",
      "layers",
      "bidirectional",
      "dropout",
      "returnSequences",
      "stateful") {
    @Override
    LayerSpec read(ExecutableElement method) {
      Lstm l = method.getAnnotation(Lstm.class);
      return new LayerSpec.Recurrent(
          "lstm",
          l.units(),
          l.layers(),
          l.bidirectional(),
          l.dropout(),
          l.returnSequences(),
          l.stateful(),
          Act.TANH);
    }
  },
  GRU(
      Gru.class,
      LayerSpec.Recurrent.class,
      "units",
      "layers",
      "bidirectional",
      "dropout",
      "returnSequences",
      "stateful") {
    @Override
    LayerSpec read(ExecutableElement method) {
      Gru g = method.getAnnotation(Gru.class);
      return new LayerSpec.Recurrent(
          "gru",
          g.units(),
          g.layers(),
          g.bidirectional(),
          g.dropout(),
          g.returnSequences(),
          g.stateful(),
          Act.TANH);
    }
  };

  private final Class<? extends Annotation> annotation;
  private final Class<? extends LayerSpec> spec;
  private final List<String> attributes;

  BuiltinLayer(
      Class<? extends Annotation> annotation,
      Class<? extends LayerSpec> spec,
      String... attributes) {
    this.annotation = annotation;
    this.spec = spec;
    this.attributes = List.of(attributes);
  }

  /** Reads the layer from {@code method}, which carries this annotation with valid values. */
  abstract LayerSpec read(ExecutableElement method);

  /** The annotation type. */
  Class<? extends Annotation> annotation() {
    return annotation;
  }

  /** The description it reads into. */
  Class<? extends LayerSpec> spec() {
    return spec;
  }

  /** Its attributes in the order they are written. */
  List<String> attributes() {
    return attributes;
  }

  /** The built-in layer {@code mirror} is, or null when it is another annotation. */
  static BuiltinLayer of(AnnotationMirror mirror) {
    String name =
        ((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().toString();
    for (BuiltinLayer layer : values()) {
      if (layer.annotation.getCanonicalName().equals(name)) {
        return layer;
      }
    }
    return null;
  }

  private static List<Integer> list(int[] values) {
    return Arrays.stream(values).boxed().toList();
  }
}
