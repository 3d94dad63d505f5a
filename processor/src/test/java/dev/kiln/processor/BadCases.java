package dev.kiln.processor;

import static dev.kiln.processor.BadCase.error;
import static dev.kiln.processor.BadCase.warning;

import java.util.List;
import java.util.stream.Stream;

/**
 * Every mistake the processor diagnoses, one model each under {@code src/test/resources/bad}, with
 * the one diagnostic it must give. {@link DiagnosticsTest} runs each under javac and ecj; {@link
 * CatalogueTest} checks that every message of the catalogue is here.
 */
final class BadCases {
  private BadCases() {}

  /** The cases of the layers before the element-wise and tensor operations. */
  private static final List<BadCase> EARLIER =
      List.of(
          // --- The model type ---

          // @Model on an abstract class instead of an interface.
          error(
              "bad/ModelOnClass",
              "abstract class ModelOnClass",
              "[kiln:ModelNotInterface] @Model must annotate an interface, but ModelOnClass is a "
                  + "class; declare it as `interface ModelOnClass`"),
          // A type parameter on the model interface.
          error(
              "bad/GenericModel",
              "interface GenericModel<T>",
              "[kiln:ModelGeneric] @Model interface GenericModel must not have type parameters"),
          // A model interface with no methods at all.
          error(
              "bad/EmptyModel",
              "interface EmptyModel",
              "[kiln:ModelEmpty] @Model interface EmptyModel has no layer to compute; add an @Input "
                  + "and at least one layer that reads it"),
          // An input and no layer: one error, not also an "unused input" warning.
          error(
              "bad/InputsOnly",
              "interface InputsOnly",
              "[kiln:ModelEmpty] @Model interface InputsOnly has no layer to compute; add an @Input "
                  + "and at least one layer that reads it"),

          // --- One method at a time ---

          // A @Dense node written as a default method with a body.
          error(
              "bad/DefaultNode",
              "default Sym hidden(Sym pixels)",
              "[kiln:NodeNotAbstract] hidden is annotated @Dense(units = 128) but has a body; a "
                  + "built-in node is declared by an abstract method (remove the body)"),
          // A node method that returns int instead of Sym.
          error(
              "bad/NodeReturnsInt",
              "int logits(Sym pixels)",
              "[kiln:NodeReturnType] node logits must return Sym, not int"),
          // A node that takes an int parameter besides its Sym input.
          error(
              "bad/IntParameter",
              "int units",
              "[kiln:NodeParamType] parameter units of node logits must be a Sym, not int"),
          // A node method whose layer annotation was forgotten.
          error(
              "bad/MethodWithoutLayer",
              "Sym logits(Sym hidden)",
              "[kiln:MissingLayer] MethodWithoutLayer.logits(): abstract method logits() is not a "
                  + "node: annotate it with a layer such as @Input or @Dense (javac shows Kiln no "
                  + "annotation it cannot resolve: if logits() has one, the compiler's error on it "
                  + "is the one to fix)"),
          // An input named finalize: the generated graph implements the model, so its finalize()
          // would override Object's, whose result is void.
          error(
                  "bad/InputNamedFinalize",
                  "Sym finalize()",
                  "[kiln:ReservedName] InputNamedFinalize.finalize(): an input cannot be named finalize: "
                      + "InputNamedFinalizeGraph implements InputNamedFinalize, and its finalize() would "
                      + "override Object.finalize(), which returns void; rename it")
              .butEcjAlsoWarns("The return type is incompatible with java.lang.Object.finalize()"),
          // @Dense and @Softmax on the same method, as if it were two layers.
          error(
              "bad/TwoLayers",
              "Sym probs(Sym pixels)",
              "[kiln:SeveralLayers] probs has 2 layer annotations (@Dense, @Softmax); a node is "
                  + "exactly one layer, declare one node per layer"),
          // Two node methods that overload one name.
          error(
              "bad/OverloadedNode",
              "@Add Sym hidden",
              "[kiln:NodeNameTaken] two methods of OverloadedNode are named hidden; every node needs "
                  + "its own name"),
          // @Dense(units = 0); the error underlines the units value, not the method.
          error(
              "bad/DenseZeroUnits",
              "units = 0",
              "[kiln:NonPositive] DenseZeroUnits.hidden() @Dense: units must be positive, got 0"),
          // @Input with no shape at all.
          error(
              "bad/InputWithoutShape",
              "@Input",
              "[kiln:InputWithoutShape] InputWithoutShape.pixels(): @Input has no shape; give it "
                  + "one, e.g. @Input(shape = {BATCH, 784})"),
          // @Input(shape = {}): a shape with no dimensions.
          error(
              "bad/InputEmptyShape",
              "@Input(shape = {})",
              "[kiln:InputWithoutShape] InputEmptyShape.pixels(): @Input has no shape; give it one, "
                  + "e.g. @Input(shape = {BATCH, 784})"),
          // An input dimension of 0.
          error(
              "bad/InputZeroDim",
              "shape = {BATCH, 0}",
              "[kiln:BadInputDim] input pixels: dimension 1 is 0; a dimension must be positive, or "
                  + "BATCH or STEPS for one fixed at bind time"),
          // @Activation(Act.NONE), an activation that does nothing.
          error(
              "bad/ActivationNone",
              "Act.NONE",
              "[kiln:BadActivation] ActivationNone.act(): @Activation needs a function such as "
                  + "Act.RELU; Act.NONE is no activation"),

          // --- Wiring ---

          // A parameter named hiden where the node is hidden.
          error(
              "bad/UnknownWireTypo",
              "Sym hiden",
              "[kiln:UnknownWire] UnknownWireTypo.logits() reads 'hiden', but UnknownWireTypo has no "
                  + "node or input of that name; did you mean 'hidden'?"),
          // A parameter named features, which is close to no node: no "did you mean".
          error(
              "bad/UnknownWireNoHint",
              "Sym features",
              "[kiln:UnknownWire] UnknownWireNoHint.logits() reads 'features', but "
                  + "UnknownWireNoHint has no node or input of that name"),
          // @From("hiden") where the node is hidden; the error is on the parameter.
          error(
              "bad/UnknownFromTypo",
              "@From(\"hiden\")",
              "[kiln:UnknownWire] UnknownFromTypo.logits() reads 'hiden', but UnknownFromTypo has no "
                  + "node or input of that name; did you mean 'hidden'?"),
          // A parameter named pixles: one error, and no "unused input" warning for pixels.
          error(
              "bad/InputNameTypo",
              "Sym pixles",
              "[kiln:UnknownWire] InputNameTypo.hidden() reads 'pixles', but InputNameTypo has no "
                  + "node or input of that name; did you mean 'pixels'?"),
          // Two nodes that read each other.
          error(
              "bad/CycleOfTwo",
              "Sym first(",
              "[kiln:Cycle] the nodes of CycleOfTwo form a cycle: first -> second -> first; a node "
                  + "cannot depend on its own output"),
          // A @Dense that reads two nodes.
          error(
              "bad/DenseTwoInputs",
              "Sym hidden(",
              "[kiln:InputCount] DenseTwoInputs.hidden(): @Dense takes exactly 1 input, but hidden "
                  + "declares 2 (pixels, mask)"),
          // An @Add of a single node.
          error(
              "bad/AddOneInput",
              "Sym skip(",
              "[kiln:InputCount] AddOneInput.skip(): @Add takes at least 2 inputs, but skip declares "
                  + "1 (hidden)"),

          // --- Shapes ---

          // @Add of [BATCH, 128] and [BATCH, 784]: both shapes, where each came from, and how to
          // make them fit.
          error(
              "bad/AddShapeMismatch",
              "@Add",
              "[kiln:ShapeMismatch] AddShapeMismatch.skip(): @Add needs equal shapes, got "
                  + "[BATCH, 128] from hidden (@Dense(units = 128)) and [BATCH, 784] from pixels "
                  + "(@Input(shape = {BATCH, 784})); project pixels to [BATCH, 128] first, with a "
                  + "node @Dense(units = 128) that reads pixels, and add that node instead"),
          // @Add of [BATCH, 16] and [BATCH, 2, 8]: the same values, another shape.
          error(
              "bad/AddReshapeable",
              "@Add",
              "[kiln:ShapeMismatch] AddReshapeable.sum(): @Add needs equal shapes, got [BATCH, 16] "
                  + "from flat (@Input(shape = {BATCH, 16})) and [BATCH, 2, 8] from grid "
                  + "(@Input(shape = {BATCH, 2, 8})); reshape grid to [BATCH, 16] first, with a node "
                  + "@Reshape(shape = {BATCH, 16}) that reads grid, and add that node instead"),
          // @Add of two images of different sizes.
          error(
              "bad/AddUnrelated",
              "@Add",
              "[kiln:ShapeMismatch] AddUnrelated.sum(): @Add needs equal shapes, got "
                  + "[BATCH, 1, 4, 4] from image (@Input(shape = {BATCH, 1, 4, 4})) and "
                  + "[BATCH, 1, 3, 3] from other (@Input(shape = {BATCH, 1, 3, 3})); give every "
                  + "input the shape of image, [BATCH, 1, 4, 4], e.g. by changing the layers that "
                  + "make other"),
          // A residual block whose convolution halves the image and doubles the channels, added
          // to its input: the usual fix is a 1x1 convolution of the skip path with that stride.
          error(
              "bad/AddResidualStride",
              "@Add",
              "[kiln:ShapeMismatch] AddResidualStride.sum(): @Add needs equal shapes, got "
                  + "[BATCH, 16, 14, 14] from conv (@Conv2D(filters = 16, kernel = 3, stride = 2, pad "
                  + "= 1)) and [BATCH, 8, 28, 28] from x (@Input(shape = {BATCH, 8, 28, 28})); "
                  + "project x to [BATCH, 16, 14, 14] first, with a 1x1 convolution @Conv2D(filters "
                  + "= 16, kernel = 1, stride = 2) that reads x, and add that node instead (the usual "
                  + "projection shortcut), or give every input the shape of conv, [BATCH, 16, 14, "
                  + "14], e.g. by changing the layers that make x"),
          // A bad @Add read by two nodes, themselves read by a third: still one error.
          error(
              "bad/BadNodeReadTwice",
              "@Add",
              "[kiln:ShapeMismatch] BadNodeReadTwice.skip(): @Add needs equal shapes, got "
                  + "[BATCH, 128] from hidden (@Dense(units = 128)) and [BATCH, 784] from pixels "
                  + "(@Input(shape = {BATCH, 784})); project pixels to [BATCH, 128] first, with a "
                  + "node @Dense(units = 128) that reads pixels, and add that node instead"),
          // @Concat along axis 1 of [BATCH, 4, 8] and [BATCH, 4, 9]: axis 2 differs.
          error(
              "bad/ConcatMismatch",
              "@Concat(axis = 1)",
              "[kiln:ConcatMismatch] ConcatMismatch.joined(): @Concat(axis = 1) needs every "
                  + "dimension but axis 1 equal, got [BATCH, 4, 8] from left (@Input(shape = "
                  + "{BATCH, 4, 8})) and [BATCH, 4, 9] from right (@Input(shape = {BATCH, 4, 9}))"),
          // @Concat of a rank-2 and a rank-3 tensor.
          error(
              "bad/ConcatRankMismatch",
              "@Concat",
              "[kiln:RankMismatch] ConcatRankMismatch.joined(): @Concat needs inputs of equal rank, "
                  + "got [BATCH, 4] from left (@Input(shape = {BATCH, 4})) and [BATCH, 4, 2] from "
                  + "right (@Input(shape = {BATCH, 4, 2}))"),
          // @Dense fed [BATCH, BATCH]: its weight shape cannot be known.
          error(
              "bad/DenseOnBatchFeatures",
              "@Dense(units = 10)",
              "[kiln:UnknownFeatures] DenseOnBatchFeatures.logits(): @Dense needs its input's "
                  + "feature dimensions known at compile time, got [BATCH, BATCH] from tokens; only "
                  + "the first (batch) dimension may be BATCH"),
          // @Softmax(axis = 5) on a rank-2 tensor.
          error(
              "bad/SoftmaxAxisFive",
              "axis = 5",
              "[kiln:BadAxis] SoftmaxAxisFive.probs(): axis 5 is out of range for [BATCH, 10] from "
                  + "logits (@Dense(units = 10)) of rank 2 (allowed: -2 to 1)"),

          // --- Classifiers ---

          // @Model(classifier = true) on a model that ends in @Dense.
          // The error is on the node at fault, the last one.
          error(
              "bad/ClassifierWithoutSoftmax",
              "@Dense(units = 10) Sym logits",
              "[kiln:ClassifierNeedsSoftmax] ClassifierWithoutSoftmax.logits(): classifier = true "
                  + "needs the last node of ClassifierWithoutSoftmax to be @Softmax (training "
                  + "replaces it with MXNet's SoftmaxOutput), but the last node logits is "
                  + "@Dense(units = 10); add a last node @Softmax Sym probs(Sym logits)"),
          // @Model(classifier = true) where a dense node nothing reads is a second output.
          error(
              "bad/ClassifierTwoOutputs",
              "Sym probe(",
              "[kiln:ClassifierOutputs] classifier = true needs the softmax probs to be the only "
                  + "output of ClassifierTwoOutputs, but probe also is read by no node; wire probe "
                  + "into the network or remove it"),
          // @Model(classifier = true) on a model with two inputs: classifier training feeds one.
          error(
              "bad/ClassifierTwoInputs",
              "classifier = true",
              "[kiln:ClassifierInputs] classifier = true needs ClassifierTwoInputs to have one input "
                  + "(classifier training feeds each batch of features to it), but it has 2: pixels, "
                  + "meta; drop classifier = true and train with forward, backward and update"),
          // @Model(classifier = true) ending in a softmax over [BATCH, 20, 10].
          error(
              "bad/ClassifierSoftmaxRank3",
              "@Softmax Sym probs",
              "[kiln:ClassifierShape] ClassifierSoftmaxRank3.probs(): classifier = true needs the "
                  + "last node of ClassifierSoftmaxRank3 to be a softmax over the classes of a "
                  + "[BATCH, classes] tensor, but probs has shape [BATCH, 20, 10] and axis -1; make "
                  + "what it reads [BATCH, classes] first, e.g. with a node @Flatten and a node "
                  + "@Dense(units = 10) before it"),
          // A classifier whose input forgot BATCH: its 784 pixels would be read as 784 examples
          // (MXNet fails in fit with "Shape inconsistent, Provided = [1], inferred shape=[784]").
          // The error is on the input.
          error(
              "bad/ClassifierWithoutBatch",
              "@Input(shape = {784})",
              "[kiln:ClassifierShape] ClassifierWithoutBatch.pixels(): classifier = true needs the "
                  + "last node of ClassifierWithoutBatch to be a softmax over the classes of a "
                  + "[BATCH, classes] tensor, but probs has shape [784, 10] and axis -1; its 784 is "
                  + "the first dimension of input pixels, which has no BATCH, so the layers read it "
                  + "as 784 examples: declare @Input(shape = {BATCH, 784})"),
          // A softmax over the examples instead of the classes: the axis is underlined.
          error(
              "bad/ClassifierSoftmaxAxis0",
              "@Softmax(axis = 0)",
              "[kiln:ClassifierShape] ClassifierSoftmaxAxis0.probs(): classifier = true needs the "
                  + "last node of ClassifierSoftmaxAxis0 to be a softmax over the classes of a "
                  + "[BATCH, classes] tensor, but probs has shape [BATCH, 10] and axis 0; a softmax "
                  + "over the classes is over axis -1, @Softmax's default: drop axis = 0"),

          // --- Loss heads ---

          // A regression model whose probe node nothing reads: a second output beside the loss.
          error(
              "bad/LossTwoOutputs",
              "Sym probe(",
              "[kiln:LossOutputs] the loss head price must be the only output of LossTwoOutputs, "
                  + "but probe also is read by no node; training minimises one loss: wire probe "
                  + "into the network or remove it"),
          // A regression model that also marks a hidden layer @Output.
          error(
              "bad/LossMarkedOutput",
              "Sym hidden(",
              "[kiln:LossOutputs] the loss head price must be the only output of LossMarkedOutput, "
                  + "but hidden also is marked @Output; training minimises one loss: remove its "
                  + "@Output (to read hidden after training, declare a second model of the same "
                  + "nodes that ends there and load the checkpoint into it)"),
          // A node that reads the loss head.
          error(
              "bad/LossRead",
              "Sym after(",
              "[kiln:LossConsumed] LossRead.after() reads the loss head fit, but a loss head ends "
                  + "the model: in training it computes the loss, which no node can read; read "
                  + "fit's input y instead"),
          // @L1Loss on a model whose input has no BATCH.
          error(
              "bad/LossWithoutBatch",
              "@L1Loss",
              "[kiln:LossShape] LossWithoutBatch.fit(): a loss head's input must be BATCH followed "
                  + "by sizes known at compile time (one loss over a fixed number of values per "
                  + "example), got [16, 4] from y (@Dense(units = 4)); its first dimension is "
                  + "not BATCH, so the model's input most likely lacks it: declare the input's "
                  + "shape with BATCH first, e.g. @Input(shape = {BATCH, ...})"),
          // @Loss over ten scores per example rather than one loss value.
          error(
              "bad/LossPerClass",
              "@Loss",
              "[kiln:LossNotScalar] LossPerClass.loss(): @Loss needs one loss value per example, "
                  + "[BATCH] or [BATCH, 1], got [BATCH, 10] from scores (@Dense(units = 10)); "
                  + "reduce it to one value per example first"),

          // --- What the compiler cannot resolve: its own error only ---

          // units = HIDEN, a misspelt constant.
          BadCase.compilerError("bad/UnknownUnitsConstant", "units = HIDEN"),
          // A parameter of type Symbol, which does not exist.
          BadCase.compilerError("bad/UnknownParameterType", "Symbol pixels"),
          // @Afine for @Affine. javac shows processors no annotation whose type it cannot resolve,
          // but its trees show it on the method, unresolved (without them, in an environment that
          // wraps javac's, Kiln adds MissingLayer: see DeferralTest).
          BadCase.compilerError("bad/MisspeltLayer", "@Afine(out = 3)").with("layers/Affine"),
          // A custom layer whose forward class does not exist: the error is in the layer's file.
          BadCase.compilerError("bad/MissingForwardNet", "Missing.class")
              .with("layers/MissingForward")
              .in("layers/MissingForward"),
          // @From(HIDEN), a misspelt string constant: javac gives processors the value "<error>",
          // which must not be read as a wire named <error>.
          BadCase.compilerError("bad/UnknownFromConstant", "@From(HIDEN)"),
          // Act.RELUU, a misspelt enum constant.
          BadCase.compilerError("bad/UnknownActivation", "Act.RELUU"),
          // A custom layer's @Param shape naming a constant that does not exist.
          BadCase.compilerError("bad/CustomUnknownDim", "shape = {INN}")
              .with("layers/UnknownDim")
              .in("layers/UnknownDim"),
          // A custom layer's input pattern naming a constant that does not exist.
          BadCase.compilerError("bad/CustomUnknownPattern", "input = {\"batch\", IN}")
              .with("layers/UnknownPattern")
              .in("layers/UnknownPattern"),
          // A custom layer from a library whose forward class is not on the class path: the
          // compiler says nothing, so Kiln does, once.
          error(
                  "bad/GoneNet",
                  "@Gone Sym y(Sym x);",
                  "[kiln:Unresolved] GoneNet.y(): the value of forward in @Layer of custom layer @Gone "
                      + "names layers.Gone.Forward, which the compiler cannot find, so Kiln generated "
                      + "nothing for GoneNet; put it on the class path, or run the annotation processor "
                      + "that generates it")
              .onClassPath("layers/Gone$Forward.class", "layers/Gone"),

          // --- Warnings: the model is still generated ---

          // An input that no node reads.
          warning(
              "bad/UnusedInput",
              "Sym weights()",
              "[kiln:UnusedInput] input weights of UnusedInput is read by no node; remove it or "
                  + "wire a node to it"),
          // An input that forgot BATCH, in a model that is no classifier.
          warning(
              "bad/InputWithoutBatch",
              "@Input(shape = {784})",
              "[kiln:InputWithoutBatch] InputWithoutBatch.pixels(): input pixels has shape [784], "
                  + "with no BATCH dimension: every call feeds exactly that shape, and the layers "
                  + "read its first dimension, 784, as the examples; to feed batches of examples of "
                  + "shape [784], declare @Input(shape = {BATCH, 784})"),
          // A dense node left dangling before the last node: it becomes an output.
          warning(
              "bad/UnusedNode",
              "Sym forgotten(",
              "[kiln:UnusedNode] node forgotten of UnusedNode is read by no node and so becomes an "
                  + "extra output; wire a node to it, or mark it @Output if it is meant as one"),

          // --- Notes: the model is still generated ---

          // A custom layer whose body the compiler does not trace (it calls a helper method): the
          // note says why, where the body is checked and with which shapes.
          BadCase.note(
                  "good/custom/OpaqueWeightNet",
                  "@OpaqueWeight(out = 10)",
                  "[kiln:CustomBodyAtBuild] OpaqueWeightNet.scores(): the forward body of @OpaqueWeight "
                      + "(OpaqueWeight.Forward.apply) is traced when the graph is built, in create() and "
                      + "load(), not checked by the compiler (its body calls affine(x, weight, bias), "
                      + "which is no operation of Sym): it reads [BATCH, 784] from pixels, with "
                      + "parameters scores_weight [784] and scores_bias [10], and must return [BATCH, "
                      + "10]")
              .with("layers/OpaqueWeight")
              .generating(
                  "custom.OpaqueWeightNetGraph",
                  "custom.OpaqueWeightNetModel",
                  "custom.OpaqueWeightNetExec")
              .butUnderEcjNotes(
                  "@OpaqueWeight(out = 10)",
                  "[kiln:CustomBodyAtBuild] OpaqueWeightNet.scores(): the forward body of @OpaqueWeight "
                      + "(OpaqueWeight.Forward.apply) is traced when the graph is built, in create() and "
                      + "load(), not checked by the compiler (this compiler shows annotation processors "
                      + "no method bodies; javac does): it reads [BATCH, 784] from pixels, with "
                      + "parameters scores_weight [784] and scores_bias [10], and must return [BATCH, "
                      + "10]"),

          // A layer from a library (a class file): the compiler shows no body, whatever the
          // compiler, so the body's mistake is left to the graph build, and the note says why.
          BadCase.note(
                  "good/custom/VectorWeightNet",
                  "@VectorWeight(out = 10)",
                  "[kiln:CustomBodyAtBuild] VectorWeightNet.scores(): the forward body of @VectorWeight "
                      + "(VectorWeight.Forward.apply) is traced when the graph is built, in create() and "
                      + "load(), not checked by the compiler (its forward method comes from a class "
                      + "file, whose body the compiler does not show): it reads [BATCH, 784] from "
                      + "pixels, with parameters ")
              // The rest names the parameters, which a class file compiled without -parameters
              // calls arg1 and arg2 (a separate matter from the body).
              .startingWith()
              .fromLibrary("layers/VectorWeight")
              .generating(
                  "custom.VectorWeightNetGraph",
                  "custom.VectorWeightNetModel",
                  "custom.VectorWeightNetExec")
              .butUnderEcjNotes(
                  "@VectorWeight(out = 10)",
                  "[kiln:CustomBodyAtBuild] VectorWeightNet.scores(): the forward body of @VectorWeight "
                      + "(VectorWeight.Forward.apply) is traced when the graph is built, in create() and "
                      + "load(), not checked by the compiler (this compiler shows annotation processors "
                      + "no method bodies; javac does): it reads [BATCH, 784] from pixels, with "
                      + "parameters "),

          // --- Failures inside the processor ---

          // A class of the user's named like a generated one, so the Filer throws: one error on
          // that model, and the other model still compiles.
          error(
                  "bad/GraphNameTaken",
                  "interface GraphNameTaken",
                  "[kiln:Internal] internal error in the Kiln processor while handling GraphNameTaken; "
                      + "please report it with this trace: javax.annotation.processing.FilerException")
              .startingWith()
              .with("good/demo/FashionMlp")
              .generating("demo.FashionMlpGraph", "demo.FashionMlpModel", "demo.FashionMlpExec"),

          // --- Imported symbol files (@Imported) ---

          // A misspelt symbol file: where Kiln looked (javac also looks beside the source).
          error(
                  "bad/imported/ImportMissing",
                  "@Imported(symbol = \"lenet-symbl.json\")",
                  "[kiln:ImportNotFound] ImportMissing.lenet(): file lenet-symbl.json not "
                      + "found: put it in src/main/resources/bad/imported (the class path) or beside "
                      + "ImportMissing.java; looked for bad/imported/lenet-symbl.json in the source "
                      + "path")
              .startingWith(),
          // A .params index written as JSON, named where the symbol belongs.
          error(
              "bad/imported/ImportNotJson",
              "@Imported(symbol = \"lenet-params.json\")",
              "[kiln:ImportNotSymbol] ImportNotJson.lenet(): lenet-params.json is not an MXNet symbol "
                  + "file: the graph has no \"nodes\" array"),
          // An import that names no file.
          error(
              "bad/onnx/ImportNeither",
              "@Imported",
              "[kiln:ImportSource] ImportNeither.net(): @Imported needs exactly one of symbol (an MXNet "
                  + "symbol file) and onnx (an ONNX model), got neither"),
          // A truncated ONNX file.
          error(
                  "bad/onnx/OnnxNotModel",
                  "@Imported(onnx = \"truncated.onnx\")",
                  "[kiln:OnnxNotModel] OnnxNotModel.net(): truncated.onnx is not an ONNX model: it breaks at "
                      + "byte 15 of 45")
              .startingWith(),
          // An operator set newer than Kiln imports.
          error(
              "bad/onnx/OnnxOpset",
              "@Imported(onnx = \"opset22.onnx\")",
              "[kiln:OnnxOpset] OnnxOpset.net(): opset22.onnx uses ONNX operator set 22; Kiln imports "
                  + "operator sets 6 to 21 (export the model again with an operator set in that range)"),
          // Operators Kiln has no translation for, listed at once.
          error(
                  "bad/onnx/OnnxUnknownOps",
                  "@Imported(onnx = \"unknown.onnx\")",
                  "[kiln:OnnxUnknownOps] OnnxUnknownOps.net(): unknown.onnx uses ONNX operators Kiln does not "
                      + "import: Hardmax (node hardmax_0), Einsum (node einsum_2) in operator set 13; it "
                      + "imports Abs, Add, AveragePool, BatchNormalization")
              .startingWith(),
          // A node whose attributes no unit computes.
          error(
              "bad/onnx/OnnxNode",
              "@Imported(onnx = \"pads.onnx\")",
              "[kiln:OnnxNode] OnnxNode.net(): node conv_0 of pads.onnx (Conv, operator set 13) cannot be "
                  + "imported: its pads [0, 0, 1, 1] pad the start and the end of an axis differently; "
                  + "Kiln pads both alike"),
          // A size beyond the batch left symbolic.
          error(
              "bad/onnx/OnnxSymbolic",
              "@Imported(onnx = \"symbolic.onnx\")",
              "[kiln:OnnxSymbolic] OnnxSymbolic.net(): input x of symbolic.onnx has shape [N, H], and "
                  + "Kiln needs every size past the first (the batch) fixed or declared when the model "
                  + "compiles: feed it from an @Input whose shape gives them, as numbers or @FreeDim "
                  + "dimensions (kiln import --input x=BATCH,3,H,W writes one, H and W free), or "
                  + "export the model with fixed sizes"),
          // A free size that the file computes with, as a number: a Shape to fold.
          error(
              "bad/onnx/OnnxFreeDim",
              "@Imported(onnx = \"freedim.onnx\")",
              "[kiln:OnnxFreeDim] OnnxFreeDim.net(): node shape_0 of freedim.onnx (Shape, operator "
                  + "set 13) computes with size H of x [BATCH, 2, H, W], a free dimension; Kiln folds "
                  + "what sizes decide into constants when the model compiles, and a free dimension "
                  + "has no size until an executor is bound: give it a fixed size in the @Input (kiln "
                  + "import --input NAME=DIMS), or export the model without computing with that size"),
          // An operator Kiln has no unit for.
          error(
                  "bad/imported/ImportUnknownOp",
                  "@Imported(symbol = \"grid-symbol.json\")",
                  "[kiln:ImportUnknownOp] ImportUnknownOp.net(): node grid of grid-symbol.json is "
                      + "MXNet operator GridGenerator, which Kiln does not import; it imports Activation, "
                      + "BatchNorm, Cast, Concat, Convolution")
              .startingWith(),
          // An attribute value the unit cannot compute: a sum pooling.
          error(
              "bad/imported/ImportAttribute",
              "@Imported(symbol = \"sum-pool-symbol.json\")",
              "[kiln:ImportAttribute] ImportAttribute.net() pool: Pooling attribute pool_type = sum "
                  + "cannot be imported: Kiln imports max, avg"),
          // A parameter named as no input of the file.
          error(
              "bad/imported/ImportUnknownInput",
              "Sym lenet(Sym dta)",
              "[kiln:ImportUnknownInput] ImportUnknownInput.lenet(): parameter dta feeds input dta, "
                  + "but /good/imported/lenet-symbol.json has no input of that name; its inputs are "
                  + "data; did you mean 'data'?"),
          // An input of the file that no parameter feeds.
          error(
              "bad/imported/ImportUnfedInput",
              "Sym lenet()",
              "[kiln:ImportUnfedInput] ImportUnfedInput.lenet(): node conv1 reads input data of "
                  + "/good/imported/lenet-symbol.json, which no parameter feeds; add a parameter Sym "
                  + "data"),
          // An output the file does not have.
          error(
              "bad/imported/ImportUnknownOutput",
              "output = \"fc3\"",
              "[kiln:ImportUnknownOutput] ImportUnknownOutput.features(): output = \"fc3\" is not "
                  + "a node of /good/imported/lenet-symbol.json (its nodes include softmax, fc2, "
                  + "tanh3, fc1, flatten, pool2, tanh2, conv2 and 3 more); did you mean 'fc1'?"),
          // A file of two outputs, and no output named.
          error(
              "bad/imported/ImportSeveralOutputs",
              "@Imported(symbol = \"two-heads-symbol.json\")",
              "[kiln:ImportSeveralOutputs] ImportSeveralOutputs.net(): two-heads-symbol.json has 2 "
                  + "outputs (relu, tanh); name the one to import: @Imported(symbol = "
                  + "\"two-heads-symbol.json\", output = \"relu\")"),
          // A node of the model named as a node of the file it imports.
          error(
              "bad/imported/ImportNameTaken",
              "output = \"fc2\"",
              "[kiln:ImportNameTaken] ImportNameTaken.features(): node fc1 of "
                  + "/good/imported/lenet-symbol.json has the name of ImportNameTaken's node fc1(); "
                  + "rename the model's node (the file's names are its parameters' names)"),
          // One variable of the file read by two dense layers at two shapes.
          error(
              "bad/imported/ImportSharedShape",
              "@Imported(symbol = \"tied-shapes-symbol.json\")",
              "[kiln:ImportSharedShape] ImportSharedShape.net() narrow: variable shared_weight is "
                  + "read by node wide as [6, 8] and by node narrow as [4, 6]; one variable has one "
                  + "shape (MXNet refuses this file too): give each reader a variable of its own"),
          // A file's Concat along the batch axis: its output is no [BATCH, ...] shape.
          error(
              "bad/imported/ConcatBatch",
              "@Imported(symbol = \"concat-batch-symbol.json\")",
              "[kiln:ConcatBatch] ConcatBatch.both() both: @Concat(axis = 0) joins along the batch "
                  + "axis, so its output holds the batches of its 2 inputs one after another "
                  + "([BATCH, 8] from relu (Activation(act_type=relu)) and [BATCH, 8] from tanh "
                  + "(Activation(act_type=tanh))), which no [BATCH, ...] shape says; join along "
                  + "another axis, or feed inputs of fixed sizes"),
          // A Gluon export whose weight declares 3 input channels, fed 1.
          error(
              "bad/imported/ImportShapeHint",
              "@Imported(symbol = \"hinted-symbol.json\")",
              "[kiln:ImportShapeHint] ImportShapeHint.net() conv0_fwd: variable conv0_weight "
                  + "declares shape [4, 3, 3, 3] in the file (__shape__), but node conv0_fwd reads "
                  + "it as [4, 1, 3, 3]; the file's graph does not fit its own parameters: check the "
                  + "input's shape (its channels) or export the file again"),
          // A declared input too small for the file's second convolution: the file's node, the
          // rule and the shapes.
          error(
              "bad/imported/ImportShapeRejected",
              "@Imported(symbol = \"/good/imported/lenet-symbol.json\")",
              "[kiln:KernelTooLarge] ImportShapeRejected.lenet() conv2: the window spans 5 along the "
                  + "height (kernel 5), more than the 4 (4 with padding) of [BATCH, 20, 4, 4] from "
                  + "pool1 (Pooling(kernel=(2, 2), pool_type=max, stride=(2, 2))); use a smaller "
                  + "kernel or dilation, or more padding"),

          // --- The layer library ---

          // An MLP's rows fed straight into a convolution.
          error(
              "bad/layers/ConvOnRows",
              "@Conv2D(filters = 6, kernel = 5)",
              "[kiln:WrongRank] ConvOnRows.conv(): @Conv2D needs a rank-4 [N, C, H, W] input, got "
                  + "[BATCH, 784] from pixels (@Input(shape = {BATCH, 784})); to read each row as a "
                  + "28x28 image, reshape it first: @Reshape(shape = {BATCH, 1, 28, 28})"),
          // A {height, width} pool over a rank-3 signal.
          error(
              "bad/layers/PoolPairOnRank3",
              "@AvgPool(kernel = {2, 2})",
              "[kiln:WrongRank] PoolPairOnRank3.pool(): @AvgPool needs a rank-4 [N, C, H, W] input, "
                  + "got [BATCH, 3, 8] from x (@Input(shape = {BATCH, 3, 8})); its window has two "
                  + "values ({height, width}): give one value to pool a rank-3 [N, C, W] input along "
                  + "its width"),
          // A pool over a rank-5 volume.
          error(
              "bad/layers/PoolOnRank5",
              "@MaxPool(kernel = 2)",
              "[kiln:WrongRank] PoolOnRank5.pool(): @MaxPool needs a rank-3 or 4 [N, C, W] or [N, C, "
                  + "H, W] input, got [BATCH, 3, 4, 4, 4] from x (@Input(shape = {BATCH, 3, 4, 4, "
                  + "4}))"),
          // A global pool over rows.
          error(
              "bad/layers/GlobalPoolOnRank2",
              "@GlobalAvgPool",
              "[kiln:WrongRank] GlobalPoolOnRank2.gap(): @GlobalAvgPool needs a rank-3 to 5 "
                  + "[N, C, ...] input, got [BATCH, 8] from x (@Input(shape = {BATCH, 8}))"),
          // A global max pool over a rank-6 tensor.
          error(
              "bad/layers/GlobalMaxPoolOnRank6",
              "@GlobalMaxPool",
              "[kiln:WrongRank] GlobalMaxPoolOnRank6.peak(): @GlobalMaxPool needs a rank-3 to 5 [N, "
                  + "C, ...] input, got [BATCH, 2, 3, 3, 3, 3] from x (@Input(shape = {BATCH, 2, 3, "
                  + "3, 3, 3}))"),
          // A convolution whose input channels are BATCH.
          error(
              "bad/layers/ConvUnknownChannels",
              "@Conv2D(filters = 4, kernel = 3)",
              "[kiln:UnknownChannels] ConvUnknownChannels.conv(): @Conv2D needs the size of axis 1 "
                  + "(its input channels) known at compile time to shape its parameters, got "
                  + "[BATCH, BATCH, 8, 8] from x (@Input(shape = {BATCH, BATCH, 8, 8})); only other "
                  + "dimensions may be BATCH"),
          // A batch norm over an axis of unknown size.
          error(
              "bad/layers/BatchNormUnknownChannels",
              "@BatchNorm(axis = -1)",
              "[kiln:UnknownChannels] BatchNormUnknownChannels.bn(): @BatchNorm needs the size of "
                  + "axis 2 (the normalised axis) known at compile time to shape its parameters, got "
                  + "[BATCH, 8, BATCH] from x (@Input(shape = {BATCH, 8, BATCH})); only other "
                  + "dimensions may be BATCH"),
          // No filters.
          error(
              "bad/layers/ConvZeroFilters",
              "@Conv2D(filters = 0, kernel = 3)",
              "[kiln:NonPositive] ConvZeroFilters.conv() @Conv2D(filters = 0, kernel = 3): filters "
                  + "must be positive, got 0"),
          // A kernel of width 0.
          error(
              "bad/layers/ConvZeroKernel",
              "@Conv2D(filters = 2, kernel = {3, 0})",
              "[kiln:NonPositive] ConvZeroKernel.conv() @Conv2D(filters = 2, kernel = {3, 0}): "
                  + "kernel must be positive, got 0"),
          // A stride of 0.
          error(
              "bad/layers/PoolZeroStride",
              "@MaxPool(kernel = 2, stride = 0)",
              "[kiln:NonPositive] PoolZeroStride.pool() @MaxPool(kernel = 2, stride = 0): stride "
                  + "must be positive, got 0"),
          // A dilation of 0.
          error(
              "bad/layers/ConvZeroDilation",
              "@Conv2D(filters = 2, kernel = 3, dilation = 0)",
              "[kiln:NonPositive] ConvZeroDilation.conv() @Conv2D(filters = 2, kernel = 3, "
                  + "dilation = 0): dilation must be positive, got 0"),
          // A negative pad.
          error(
              "bad/layers/ConvNegativePad",
              "@Conv2D(filters = 2, kernel = 3, pad = {1, -1})",
              "[kiln:Negative] ConvNegativePad.conv() @Conv2D(filters = 2, kernel = 3, pad = "
                  + "{1, -1}): pad must be 0 or more, got -1"),
          // Three kernel values for a 2-D window.
          error(
              "bad/layers/ConvThreeKernelValues",
              "@Conv2D(filters = 2, kernel = {3, 3, 3})",
              "[kiln:BadWindow] ConvThreeKernelValues.conv() @Conv2D(filters = 2, kernel = {3, 3, "
                  + "3}): kernel takes one value (used for height and width) or two ({height, "
                  + "width}), got 3"),
          // A pool's pad as large as its kernel.
          error(
              "bad/layers/PoolPadTooLarge",
              "@MaxPool(kernel = 2, pad = {0, 2})",
              "[kiln:PadTooLarge] PoolPadTooLarge.pool() @MaxPool(kernel = 2, pad = {0, 2}): pad 2 "
                  + "must be smaller than the kernel 2 along the width, or a window at the border "
                  + "covers only padding"),
          // A 1-D pool padded by its whole kernel.
          error(
              "bad/layers/Pool1DPadTooLarge",
              "pad = 2",
              "[kiln:PadTooLarge] Pool1DPadTooLarge.pool() @AvgPool(kernel = 2, pad = 2): pad 2 must "
                  + "be smaller than the kernel 2 along the width, or a window at the border covers "
                  + "only padding"),
          // A full-convention pool whose last window starts in the padding.
          error(
              "bad/layers/PoolEmptyWindow",
              "convention = PoolConvention.FULL",
              "[kiln:EmptyWindow] PoolEmptyWindow.pool() @MaxPool(kernel = 2, stride = 3, pad = 1, "
                  + "convention = PoolConvention.FULL): under the full convention the width gets 3 "
                  + "windows, and the last starts at 5, after the last of the 5 values of [BATCH, "
                  + "2, 5] from x (@Input(shape = {BATCH, 2, 5})), so it covers only padding (MXNet "
                  + "fills it with -3.4e38 or 0); use a smaller stride or padding, or convention = "
                  + "PoolConvention.VALID"),
          // A 5x5 kernel over a 4x4 image.
          error(
              "bad/layers/ConvKernelTooLarge",
              "@Conv2D(filters = 2, kernel = 5)",
              "[kiln:KernelTooLarge] ConvKernelTooLarge.conv(): the window spans 5 along the height "
                  + "(kernel 5), more than the 4 (4 with padding) of [BATCH, 1, 4, 4] from x "
                  + "(@Input(shape = {BATCH, 1, 4, 4})); use a smaller kernel or dilation, or more "
                  + "padding"),
          // A dilated kernel wider than the image.
          error(
              "bad/layers/ConvDilatedTooLarge",
              "dilation = {1, 2}",
              "[kiln:KernelTooLarge] ConvDilatedTooLarge.conv(): the window spans 5 along the width "
                  + "(kernel 3 dilated by 2), more than the 4 (4 with padding) of [BATCH, 1, 8, 4] "
                  + "from x (@Input(shape = {BATCH, 1, 8, 4})); use a smaller kernel or dilation, or "
                  + "more padding"),
          // A third pool on an image the first two shrank to 4x4.
          error(
              "bad/layers/PoolKernelTooLarge",
              "@MaxPool(kernel = 5)",
              "[kiln:KernelTooLarge] PoolKernelTooLarge.pool3(): the window spans 5 along the "
                  + "height (kernel 5), more than the 4 (4 with padding) of [BATCH, 8, 4, 4] from "
                  + "pool2 (@MaxPool(kernel = 2)); use a smaller kernel or dilation, or more "
                  + "padding"),
          // Four groups over 8 channels but 6 filters.
          error(
              "bad/layers/ConvGroupsDivide",
              "groups = 4",
              "[kiln:GroupsDivide] ConvGroupsDivide.conv() @Conv2D(filters = 6, kernel = 3, groups "
                  + "= 4): groups = 4 must divide both the input channels (8, of [BATCH, 8, 6, 6] "
                  + "from x (@Input(shape = {BATCH, 8, 6, 6}))) and the filters (6); their common "
                  + "divisors are 1, 2"),
          // A 1-D convolution over an image.
          error(
              "bad/layers/Conv1DOnImage",
              "@Conv1D(filters = 4, kernel = 3)",
              "[kiln:WrongRank] Conv1DOnImage.conv(): @Conv1D needs a rank-3 [N, C, W] input, got "
                  + "[BATCH, 1, 28, 28] from x (@Input(shape = {BATCH, 1, 28, 28}))"),
          // A transposed convolution asked to add as many columns as its stride.
          error(
              "bad/layers/DeconvOutputPadTooLarge",
              "outputPad = {1, 2}",
              "[kiln:OutputPadTooLarge] DeconvOutputPadTooLarge.up() @Deconv2D(filters = 2, kernel "
                  + "= 3, stride = 2, outputPad = {1, 2}): outputPad 2 must be smaller than the "
                  + "stride 2 along the width (MXNet's adj adds at most stride - 1 rows or "
                  + "columns)"),
          // A dilated transposed convolution to a single output channel.
          error(
              "bad/layers/DeconvDilatedOneFilter",
              "dilation = 2",
              "[kiln:DilatedOneFilter] DeconvDilatedOneFilter.up() @Deconv2D(filters = 1, kernel "
                  + "= 3, stride = 2, dilation = 2): dilation with one filter per group (filters "
                  + "1, groups 1) runs on MXNet's own deconvolution kernel, as oneDNN's fails in "
                  + "backward for such a layer, and that kernel computes dilated transposed "
                  + "convolutions wrongly in MXNet 1.9.1 (apache/mxnet#11203); use dilation 1 or "
                  + "more filters per group"),
          // A transposed convolution that cuts more than it makes.
          error(
              "bad/layers/DeconvEmptyOutput",
              "pad = 1",
              "[kiln:EmptyOutput] DeconvEmptyOutput.up(): the output would be -1 along the height "
                  + "for [BATCH, 3, 1, 4] from x (@Input(shape = {BATCH, 3, 1, 4})) (stride * "
                  + "(size - 1) + window - 2 * pad + outputPad = 1 * (1 - 1) + 1 - 2 * 1 + 0); use "
                  + "less padding or a larger kernel"),
          // --- Recurrent layers ---

          // An LSTM fed a flat [BATCH, 784] row instead of a sequence.
          error(
              "bad/recurrent/LstmOnRank2",
              "@Lstm(units = 32)",
              "[kiln:WrongRank] LstmOnRank2.encoded(): @Lstm needs a rank-3 [BATCH, steps, "
                  + "features] input, got [BATCH, 784] from pixels (@Input(shape = {BATCH, 784})); to "
                  + "read each row as 28 steps of 28 features, reshape it first: @Reshape(shape = "
                  + "{BATCH, 28, 28})"),
          // A GRU of no units.
          error(
              "bad/recurrent/GruZeroUnits",
              "units = 0",
              "[kiln:NonPositive] GruZeroUnits.states() @Gru(units = 0): units must be positive, got "
                  + "0"),
          // A stack of no layers.
          error(
              "bad/recurrent/LstmZeroLayers",
              "layers = 0",
              "[kiln:NonPositive] LstmZeroLayers.states() @Lstm(units = 16, layers = 0): layers must "
                  + "be positive, got 0"),
          // Dropping everything between stacked layers.
          error(
              "bad/recurrent/LstmDropoutOne",
              "dropout = 1.0",
              "[kiln:OutOfRange] LstmDropoutOne.states() @Lstm(units = 16, layers = 2, dropout = "
                  + "1.0): dropout must be in [0, 1) (the probability of dropping a value between "
                  + "stacked layers in training), got 1.0"),
          // A plain recurrent layer with an activation MXNet's operator does not have.
          error(
              "bad/recurrent/RnnSigmoid",
              "activation = Act.SIGMOID",
              "[kiln:RecurrentActivation] RnnSigmoid.states() @Rnn(units = 8, activation = "
                  + "Act.SIGMOID): @Rnn's activation is Act.TANH or Act.RELU (MXNet's rnn_tanh and "
                  + "rnn_relu), got Act.SIGMOID; for gates use @Lstm or @Gru"),
          // An activation on an LSTM, which has none to choose: the compiler's own error is the one
          // error. The annotation the processor sees simply lacks the attribute, so the model is
          // generated (and compiles), as if it had not been written.
          BadCase.compilerError("bad/recurrent/LstmActivation", "activation = Act.TANH")
              .generating(
                  "bad.recurrent.LstmActivationGraph",
                  "bad.recurrent.LstmActivationModel",
                  "bad.recurrent.LstmActivationExec"),
          // A stateful layer that also reads the sequence backwards.
          error(
              "bad/recurrent/StatefulBidirectional",
              "stateful = true",
              "[kiln:StatefulBidirectional] StatefulBidirectional.states() @Gru(units = 8, "
                  + "bidirectional = true, stateful = true): a stateful layer must read in one "
                  + "direction: the reverse direction starts at the end of each call's sequence, so "
                  + "it has no state to carry into the next call; drop bidirectional or stateful"),
          // A time-major sequence, as MXNet's own operator takes it.
          error(
              "bad/recurrent/TimeMajor",
              "@Lstm(units = 32)",
              "[kiln:SequenceLayout] TimeMajor.encoded(): @Lstm reads a batch-first sequence "
                  + "[BATCH, steps, features], got [STEPS, BATCH, 28] from rows (@Input(shape = "
                  + "{STEPS, BATCH, 28})): BATCH comes first (Kiln swaps to MXNet's time-major "
                  + "layout itself); declare the input as {BATCH, STEPS, 28}"),
          // Features per step that are only known at bind time.
          error(
              "bad/recurrent/UnknownFeatures",
              "@Rnn(units = 8)",
              "[kiln:SequenceLayout] UnknownFeatures.states(): @Rnn reads a batch-first sequence "
                  + "[BATCH, steps, features], got [BATCH, 10, STEPS] from x (@Input(shape = {BATCH, "
                  + "10, STEPS})): the features (the last dimension) must be known at compile time to "
                  + "shape the parameters"),

          // Dropping every value.
          error(
              "bad/layers/DropoutRateOne",
              "@Dropout(rate = 1.0)",
              "[kiln:RateOutOfRange] DropoutRateOne.dropped() @Dropout(rate = 1.0): rate must be in "
                  + "[0, 1) (the probability of dropping a value in training), got 1.0"),
          // A negative dropout rate.
          error(
              "bad/layers/DropoutNegativeRate",
              "@Dropout(rate = -0.1)",
              "[kiln:RateOutOfRange] DropoutNegativeRate.dropped() @Dropout(rate = -0.1): rate must "
                  + "be in [0, 1) (the probability of dropping a value in training), got -0.1"),
          // A batch norm with eps 0.
          error(
              "bad/layers/BatchNormZeroEps",
              "@BatchNorm(eps = 0)",
              "[kiln:OutOfRange] BatchNormZeroEps.bn() @BatchNorm(eps = 0.0): eps must be positive, "
                  + "got 0.0"),
          // A momentum above 1.
          error(
              "bad/layers/BatchNormMomentum",
              "@BatchNorm(momentum = 1.5)",
              "[kiln:OutOfRange] BatchNormMomentum.bn() @BatchNorm(momentum = 1.5): momentum must be "
                  + "in [0, 1], got 1.5"),
          // A layer norm with a negative eps.
          error(
              "bad/layers/LayerNormNegativeEps",
              "@LayerNorm(eps = -1e-5)",
              "[kiln:OutOfRange] LayerNormNegativeEps.norm() @LayerNorm(eps = -1.0E-5): eps must be "
                  + "positive, got -1.0E-5"),
          // A local response normalisation over an even number of channels.
          error(
              "bad/layers/LrnEvenSize",
              "@Lrn(size = 4)",
              "[kiln:EvenLrnSize] LrnEvenSize.norm() @Lrn(size = 4): size must be odd, got 4; "
                  + "MXNet's LRN centres its window of channels on each channel (use 3 or 5)"),
          // Upsampling by no factor at all.
          error(
              "bad/layers/UpsampleZeroScale",
              "@Upsample(scale = 0)",
              "[kiln:NonPositive] UpsampleZeroScale.larger() @Upsample(scale = 0): scale must be "
                  + "positive, got 0"),
          // Upsampling rows that are not images.
          error(
              "bad/layers/UpsampleRows",
              "@Upsample(scale = 2)",
              "[kiln:WrongRank] UpsampleRows.larger(): @Upsample needs a rank-4 [N, C, H, W] input, "
                  + "got [BATCH, 784] from pixels (@Input(shape = {BATCH, 784})); to read each row "
                  + "as a 28x28 image, reshape it first: @Reshape(shape = {BATCH, 1, 28, 28})"),
          // A window wider than the channels.
          error(
              "bad/layers/LrnSizeTooLarge",
              "@Lrn(size = 5)",
              "[kiln:LrnSizeTooLarge] LrnSizeTooLarge.norm() @Lrn(size = 5): a window of 5 channels "
                  + "is more than the 3 channels of [BATCH, 3, 8, 8] from x (@Input(shape = {BATCH, "
                  + "3, 8, 8})); MXNet's own LRN kernel refuses it (use a smaller size)"),
          // A window of no channels.
          error(
              "bad/layers/LrnZeroSize",
              "@Lrn(size = 0)",
              "[kiln:NonPositive] LrnZeroSize.norm() @Lrn(size = 0): size must be positive, got 0"),
          // k = 0 lets the denominator reach zero.
          error(
              "bad/layers/LrnZeroK",
              "k = 0",
              "[kiln:OutOfRange] LrnZeroK.norm() @Lrn(size = 3, k = 0.0): k must be positive and "
                  + "finite, got 0.0"),
          // A negative alpha lets the power's base turn negative.
          error(
              "bad/layers/LrnNegativeAlpha",
              "alpha = -1e-4",
              "[kiln:OutOfRange] LrnNegativeAlpha.norm() @Lrn(size = 3, alpha = -1.0E-4): alpha must "
                  + "be 0 or more and finite, got -1.0E-4"),
          // Rows of pixels instead of images.
          error(
              "bad/layers/LrnOnRows",
              "@Lrn(size = 5)",
              "[kiln:WrongRank] LrnOnRows.norm(): @Lrn needs a rank-4 [N, C, H, W] input, got "
                  + "[BATCH, 64] from x (@Input(shape = {BATCH, 64})); to read each row as a 8x8 "
                  + "image, reshape it first: @Reshape(shape = {BATCH, 1, 8, 8})"),
          // A parametric ReLU over a tensor without channels.
          error(
              "bad/layers/PReluOnVector",
              "@PRelu",
              "[kiln:WrongRank] PReluOnVector.act(): @PRelu needs a rank-2 or more [N, C, ...] "
                  + "input, got [BATCH] from x (@Input(shape = {BATCH}))"),
          // A parametric ReLU whose channels are not known when it compiles.
          error(
              "bad/layers/PReluUnknownChannels",
              "@PRelu",
              "[kiln:UnknownChannels] PReluUnknownChannels.act(): @PRelu needs the size of axis 1 "
                  + "(its channels) known at compile time to shape its parameters, got [BATCH, "
                  + "BATCH, 16] from x (@Input(shape = {BATCH, BATCH, 16})); only other dimensions "
                  + "may be BATCH"),
          // A batch norm over axis 4 of a rank-4 tensor.
          error(
              "bad/layers/BatchNormBadAxis",
              "@BatchNorm(axis = 4)",
              "[kiln:BadAxis] BatchNormBadAxis.bn(): axis 4 is out of range for [BATCH, 3, 8, 8] "
                  + "from x (@Input(shape = {BATCH, 3, 8, 8})) of rank 4 (allowed: -4 to 3)"),
          // A layer norm over axis -3 of a rank-2 tensor.
          error(
              "bad/layers/LayerNormBadAxis",
              "@LayerNorm(axis = -3)",
              "[kiln:BadAxis] LayerNormBadAxis.norm(): axis -3 is out of range for [BATCH, 8] from "
                  + "x (@Input(shape = {BATCH, 8})) of rank 2 (allowed: -2 to 1)"),
          // An embedding of no rows.
          error(
              "bad/layers/EmbeddingZeroInputDim",
              "@Embedding(inputDim = 0, outputDim = 8)",
              "[kiln:NonPositive] EmbeddingZeroInputDim.vectors() @Embedding(inputDim = 0, "
                  + "outputDim = 8): inputDim must be positive, got 0"),
          // An embedding of negative width.
          error(
              "bad/layers/EmbeddingZeroOutputDim",
              "@Embedding(inputDim = 100, outputDim = -2)",
              "[kiln:NonPositive] EmbeddingZeroOutputDim.vectors() @Embedding(inputDim = 100, "
                  + "outputDim = -2): outputDim must be positive, got -2"),
          // Two dimensions to infer.
          error(
              "bad/layers/ReshapeTwoInferred",
              "@Reshape(shape = {BATCH, 1, BATCH, 28})",
              "[kiln:BadReshape] ReshapeTwoInferred.image() @Reshape(shape = {BATCH, 1, BATCH, 28}): "
                  + "cannot reshape to {BATCH, 1, BATCH, 28}: only one dimension can be inferred "
                  + "(BATCH or -1), got 2"),
          // A code MXNet's reshape does not know.
          error(
              "bad/layers/ReshapeUnknownCode",
              "@Reshape(shape = {0, -5})",
              "[kiln:BadReshape] ReshapeUnknownCode.image() @Reshape(shape = {0, -5}): "
                  + "cannot reshape to {0, -5}: -5 at position 1 is neither a size nor one of MXNet's "
                  + "special values 0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 "
                  + "(split one)"),
          // SPLIT without the two sizes.
          error(
              "bad/layers/ReshapeSplitWithoutSizes",
              "@Reshape(shape = {0, Reshape.SPLIT, 28})",
              "[kiln:BadReshape] ReshapeSplitWithoutSizes.image() @Reshape(shape = {0, -4, 28}): "
                  + "cannot reshape to {0, -4, 28}: SPLIT (-4) at position 1 needs the two sizes it "
                  + "splits into after it"),
          // An empty target.
          error(
              "bad/layers/ReshapeEmpty",
              "@Reshape(shape = {})",
              "[kiln:BadReshape] ReshapeEmpty.image() @Reshape(shape = {}): cannot reshape to {}: "
                  + "the shape is empty; give at least one dimension"),
          // 784 values into 28 x 27.
          error(
              "bad/layers/ReshapeWrongSize",
              "@Reshape(shape = {BATCH, 1, 28, 27})",
              "[kiln:BadReshape] ReshapeWrongSize.image(): cannot reshape to {BATCH, 1, 28, 27}: the "
                  + "input has 784 × BATCH values, which the other dimensions (756 values) do not "
                  + "divide for every batch size (input [BATCH, 784] from pixels (@Input(shape = "
                  + "{BATCH, 784})))"),
          // A reshape that works only for even batches.
          error(
              "bad/layers/ReshapeNotEveryBatch",
              "@Reshape(shape = {8, BATCH})",
              "[kiln:BadReshape] ReshapeNotEveryBatch.pairs(): cannot reshape to {8, BATCH}: the "
                  + "input has 4 × BATCH values, which the other dimensions (8 values) do not divide "
                  + "for every batch size (input [BATCH, 4] from x (@Input(shape = {BATCH, 4})))"),
          // A reshape that drops the batch.
          error(
              "bad/layers/ReshapeDropsBatch",
              "@Reshape(shape = {4, 4})",
              "[kiln:BadReshape] ReshapeDropsBatch.square(): cannot reshape to {4, 4}: the input has "
                  + "4 × BATCH values but the target has 16; a reshape must keep the number of values "
                  + "for every batch size (input [BATCH, 4] from x (@Input(shape = {BATCH, 4})))"),
          // COPY past the input's rank.
          error(
              "bad/layers/ReshapeCopyPastRank",
              "@Reshape(shape = {0, 0, 0})",
              "[kiln:BadReshape] ReshapeCopyPastRank.copied(): cannot reshape to {0, 0, 0}: COPY (0) "
                  + "at position 2 has no input dimension 2 to copy (input [BATCH, 4] from x "
                  + "(@Input(shape = {BATCH, 4})))"),
          // MERGE past the input's rank.
          error(
              "bad/layers/ReshapeMergePastRank",
              "@Reshape(shape = {0, Reshape.MERGE})",
              "[kiln:BadReshape] ReshapeMergePastRank.merged(): cannot reshape to {0, -3}: MERGE (-3) "
                  + "at position 1 needs input dimensions 1 and 2 (input [BATCH, 4] from x "
                  + "(@Input(shape = {BATCH, 4})))"),
          // SPLIT into parts that do not divide.
          error(
              "bad/layers/ReshapeBadSplit",
              "@Reshape(shape = {0, Reshape.SPLIT, 5, BATCH})",
              "[kiln:BadReshape] ReshapeBadSplit.split(): cannot reshape to {0, -4, 5, BATCH}: SPLIT "
                  + "(-4) cannot split dimension 1 of size 12 into parts of 5 (input [BATCH, 12] from "
                  + "x (@Input(shape = {BATCH, 12})))"),
          // @Frozen on a layer without parameters.
          error(
              "bad/layers/FrozenFlatten",
              "@Frozen",
              "[kiln:FrozenWithoutParams] FrozenFlatten.flat() is @Frozen, but @Flatten has no "
                  + "parameters to freeze; remove @Frozen"),

          // --- Custom layers ---

          // An image fed straight into a layer whose input pattern is [batch, in].
          error(
                  "bad/CustomWrongRank",
                  "@Affine(out = 10)",
                  "[kiln:CustomInput] CustomWrongRank.scores(): layer @Affine takes an input of shape "
                      + "[batch, in], got [BATCH, 1, 28, 28] from image (@Input(shape = {BATCH, 1, 28, "
                      + "28})): the ranks differ")
              .with("layers/Affine"),
          // The layer's forward method was left package-private.
          error(
                  "bad/CustomNoForward",
                  "@NoForward",
                  "[kiln:CustomForward] CustomNoForward.y(): custom layer @NoForward cannot be used: its "
                      + "forward class Body must have exactly one public static method returning Sym, "
                      + "found 0")
              .with("layers/NoForward"),
          // The output pattern says "width", which is neither an element nor in the input pattern.
          error(
                  "bad/CustomUnbound",
                  "@Unbound(out = 4)",
                  "[kiln:CustomUnbound] CustomUnbound.y(): layer @Unbound uses dimension 'width' in its "
                      + "output, but it is neither an int element of @Unbound nor bound by the input "
                      + "pattern [batch, in]")
              .with("layers/Unbound"),
          // A parameter shaped by the batch dimension cannot be allocated once for every batch.
          error(
                  "bad/CustomBatchParam",
                  "@BatchParam",
                  "[kiln:CustomParamBatch] CustomBatchParam.y(): parameter scale of layer @BatchParam "
                      + "would have shape [BATCH, 8]; a parameter's dimensions must not depend on BATCH")
              .with("layers/BatchParam"),
          // A shape pattern with a dimension name that is not an identifier.
          error(
                  "bad/CustomBadToken",
                  "@BadToken",
                  "[kiln:CustomPattern] CustomBadToken.y(): custom layer @BadToken has shape token "
                      + "'in-features'; a token is a dimension name or a positive number")
              .with("layers/BadToken"),
          // Two parameters whose MXNet names, in snake case, would be the same.
          error(
                  "bad/CustomSameParamName",
                  "@SameName",
                  "[kiln:CustomForward] CustomSameParamName.y(): custom layer @SameName cannot be used: "
                      + "parameters 'gateWeight' and 'gate_weight' of Forward.apply would both be named "
                      + "y_gate_weight; rename one of them")
              .with("layers/SameName"),
          // A scale declared to start at zero (zeros = true) and at one (init = ONES).
          error(
                  "bad/CustomParamZerosAndOnes",
                  "@ZerosAndOnes",
                  "[kiln:CustomParamInit] CustomParamZerosAndOnes.y(): parameter scale of layer "
                      + "@ZerosAndOnes says @Param(zeros = true, init = ParamInit.ONES): zeros = true "
                      + "starts it at zero but init = ParamInit.ONES at one; keep the one you mean "
                      + "(zeros = true is the older spelling of init = ParamInit.ZEROS)")
              .with("layers/ZerosAndOnes"),
          // A starting value with init = ONES, where CONSTANT was meant.
          error(
                  "bad/CustomParamValueWithoutConstant",
                  "@ValueWithoutConstant",
                  "[kiln:CustomParamInit] CustomParamValueWithoutConstant.y(): parameter scale of "
                      + "layer @ValueWithoutConstant says @Param(init = ParamInit.ONES, value = 2.0): "
                      + "value sets where init = ParamInit.CONSTANT starts, but this parameter starts "
                      + "at one (init = ParamInit.ONES); for a parameter that starts at 2.0, write "
                      + "init = ParamInit.CONSTANT, value = 2.0")
              .with("layers/ValueWithoutConstant"),
          // A constant start beyond a float's range.
          error(
                  "bad/CustomParamHugeConstant",
                  "@HugeConstant",
                  "[kiln:CustomParamInit] CustomParamHugeConstant.y(): parameter scale of layer "
                      + "@HugeConstant says @Param(init = ParamInit.CONSTANT, value = 1.0E39): value "
                      + "1.0E39 is not a finite float (a parameter holds 32-bit floats)")
              .with("layers/HugeConstant"),
          // A layer dimension written as zero where the layer is used.
          error(
                  "bad/CustomNonPositiveDim",
                  "@Affine(out = 0)",
                  "[kiln:NonPositive] CustomNonPositiveDim.y() @Affine: out must be positive, got 0")
              .with("layers/Affine"),

          // A misspelt dimension name in a @Param's shape: reported on the @Param, under both
          // compilers, since it needs no body.
          error(
                  "bad/CustomParamDim",
                  "@Param(shape = {\"chanels\", \"1\", \"1\"})",
                  "[kiln:CustomParamDim] CustomParamDim.y() @MisspeltDim: parameter scale has "
                      + "@Param(shape = {\"chanels\", \"1\", \"1\"}), whose 'chanels' is neither an "
                      + "int element of @MisspeltDim nor a name of its input pattern [batch, channels, "
                      + "h, w]; did you mean 'channels'?")
              .with("layers/MisspeltDim")
              .in("layers/MisspeltDim"),

          // --- Custom layers' forward bodies, traced at compile time (javac's trees) ---

          // A per-channel scale declared {"channels"} where {"channels", "1", "1"} was meant: MXNet
          // lines it up with the image's last axis.
          error(
                  "bad/CustomParamRank",
                  "@Param(shape = {\"channels\"})",
                  "[kiln:CustomParamRank] CustomParamRank.y() @FlatScale: parameter scale, declared "
                      + "@Param(shape = {\"channels\"}) ([16]), meets x [BATCH, 16, 24, 24] in "
                      + "x.mul(scale); MXNet lines up the last axes of operands of different rank, so "
                      + "channels (16) would meet axis 3 (w, 24); declare it @Param(shape = "
                      + "{\"channels\", \"1\", \"1\"}) ([16, 1, 1]), which lines channels up with axis "
                      + "1 of x")
              .with("layers/FlatScale")
              .in("layers/FlatScale")
              .butUnderEcjNotes(
                  "@FlatScale",
                  "[kiln:CustomBodyAtBuild] CustomParamRank.y(): the forward body of @FlatScale "
                      + "(FlatScale.Forward.apply) is traced when the graph is built, in create() and "
                      + "load(), not checked by the compiler (this compiler shows annotation processors "
                      + "no method bodies; javac does): it reads [BATCH, 16, 24, 24] from x, with "
                      + "parameter y_scale [16], and must return [BATCH, 16, 24, 24]"),
          // The same scale on four channels of 3x4 images: [4] meets w, also 4, and the broadcast
          // would work, scaling columns; refused by the axes' names.
          error(
                  "bad/CustomParamRankByChance",
                  "@Param(shape = {\"channels\"})",
                  "[kiln:CustomParamRank] CustomParamRankByChance.y() @FlatScale: parameter scale, "
                      + "declared @Param(shape = {\"channels\"}) ([4]), meets x [BATCH, 4, 3, 4] in "
                      + "x.mul(scale); MXNet lines up the last axes of operands of different rank, so "
                      + "channels (4) would meet axis 3 (w, 4), which broadcasts only because both are "
                      + "4; declare it @Param(shape = {\"channels\", \"1\", \"1\"}) ([4, 1, 1]), which "
                      + "lines channels up with axis 1 of x")
              .with("layers/FlatScale")
              .in("layers/FlatScale")
              .butUnderEcjNotes(
                  "@FlatScale",
                  "[kiln:CustomBodyAtBuild] CustomParamRankByChance.y(): the forward body of "
                      + "@FlatScale (FlatScale.Forward.apply) is traced when the graph is built, in "
                      + "create() and load(), not checked by the compiler (this compiler shows "
                      + "annotation processors no method bodies; javac does): it reads [BATCH, 4, 3, "
                      + "4] from x, with parameter y_scale [4], and must return [BATCH, 4, 3, 4]"),
          // A cell's step that returns [batch, in] where its new state [batch, hidden] was meant.
          error(
                  "bad/CellWrongState",
                  "return x.add(h.dot(w));",
                  "[kiln:CustomBodyShape] CellWrongState.states() @SummingCell(hidden = 2): in "
                      + "SummingCell.Step.apply, the result x.add(h.dot(w)) of [BATCH, 3] does not "
                      + "fit: @Layer declares state [batch, hidden], [BATCH, 2] here")
              .with("layers/SummingCell")
              .in("layers/SummingCell")
              .butUnderEcjNotes(
                  "@SummingCell(hidden = 2)",
                  "[kiln:CustomBodyAtBuild] CellWrongState.states(): the step of @SummingCell "
                      + "(SummingCell.Step.apply) is traced when the graph is built, in create() and "
                      + "load(), not checked by the compiler (this compiler shows annotation processors "
                      + "no method bodies; javac does): once per step; each step reads [BATCH, 3] of "
                      + "[BATCH, 5, 3] from x and the previous state [BATCH, 2], with parameter "
                      + "states_w [2, 3], and must return the new state [BATCH, 2]"),
          // A weight declared [out, in], as PyTorch stores it, multiplied as x·W.
          error(
                  "bad/CustomDotInner",
                  "Sym y = x.dot(weight);",
                  "[kiln:CustomBodyShape] CustomDotInner.scores() @SwappedDot(out = 10): in "
                      + "SwappedDot.Forward.apply, x.dot(weight) of [BATCH, 784] and [10, 784] does not "
                      + "fit: the last dimension of the left must equal the first of the right; "
                      + "x.dot(weight.transpose()) would give [BATCH, 10]")
              .with("layers/SwappedDot")
              .in("layers/SwappedDot")
              .butUnderEcjNotes(
                  "@SwappedDot(out = 10)",
                  "[kiln:CustomBodyAtBuild] CustomDotInner.scores(): the forward body of @SwappedDot "
                      + "(SwappedDot.Forward.apply) is traced when the graph is built, in create() and "
                      + "load(), not checked by the compiler (this compiler shows annotation processors "
                      + "no method bodies; javac does): it reads [BATCH, 784] from pixels, with "
                      + "parameter scores_weight [10, 784], and must return [BATCH, 10]"),
          // A weight declared a vector where a matrix was meant: x.dot(weight) is [BATCH], which
          // the bias [10] does not broadcast with.
          error(
                  "good/custom/VectorWeightNet",
                  "return x.dot(weight).add(bias);",
                  "[kiln:CustomBodyShape] VectorWeightNet.scores() @VectorWeight(out = 10): in "
                      + "VectorWeight.Forward.apply, x.dot(weight).add(bias) of [BATCH] and [10] does "
                      + "not fit: each pair of trailing dimensions must be equal or 1, but axis 0 is "
                      + "BATCH against 10")
              .with("layers/VectorWeight")
              .in("layers/VectorWeight")
              .butUnderEcjNotes(
                  "@VectorWeight(out = 10)",
                  "[kiln:CustomBodyAtBuild] VectorWeightNet.scores(): the forward body of @VectorWeight "
                      + "(VectorWeight.Forward.apply) is traced when the graph is built, in create() and "
                      + "load(), not checked by the compiler (this compiler shows annotation processors "
                      + "no method bodies; javac does): it reads [BATCH, 784] from pixels, with "
                      + "parameters scores_weight [784] and scores_bias [10], and must return [BATCH, "
                      + "10]"),
          // Attention scores x·xᵀ written without transposing the keys.
          error(
                  "bad/CustomBatchDotInner",
                  "Sym scores = x.batchDot(x, false);",
                  "[kiln:CustomBodyShape] CustomBatchDotInner.scores() @SelfScores: in "
                      + "SelfScores.Forward.apply, x.batchDot(x, false) of [BATCH, 5, 8] and [BATCH, 5, "
                      + "8] does not fit: the last dimension of the left must equal the second last of "
                      + "the right")
              .with("layers/SelfScores")
              .in("layers/SelfScores")
              .butUnderEcjNotes(
                  "@SelfScores",
                  "[kiln:CustomBodyAtBuild] CustomBatchDotInner.scores(): the forward body of "
                      + "@SelfScores (SelfScores.Forward.apply) is traced when the graph is built, in "
                      + "create() and load(), not checked by the compiler (this compiler shows "
                      + "annotation processors no method bodies; javac does): it reads [BATCH, 5, 8] "
                      + "from x, with no parameters, and must return [BATCH, 5, 5]"),
          // The layer's elements as a reshape's sizes, from the use site: 2 heads of 3 for 8
          // values.
          error(
                  "bad/CustomHeadsMismatch",
                  "Sym split = x.reshape(BATCH, heads, size);",
                  "[kiln:CustomBodyShape] CustomHeadsMismatch.y() @Heads(heads = 2, size = 3): in "
                      + "Heads.Forward.apply, x.reshape(BATCH, heads, size) of [BATCH, 8] does not fit: "
                      + "cannot reshape to {BATCH, 2, 3}: the input has 8 × BATCH values, which the "
                      + "other dimensions (6 values) do not divide for every batch size (input [BATCH, "
                      + "8] from x (in the body))")
              .with("layers/Heads")
              .in("layers/Heads")
              .butUnderEcjNotes(
                  "@Heads(heads = 2, size = 3)",
                  "[kiln:CustomBodyAtBuild] CustomHeadsMismatch.y(): the forward body of @Heads "
                      + "(Heads.Forward.apply) is traced when the graph is built, in create() and "
                      + "load(), not checked by the compiler (this compiler shows annotation processors "
                      + "no method bodies; javac does): it reads [BATCH, 8] from x, with parameter "
                      + "y_gain [2, 3], and must return [BATCH, 8]"),
          // A reshape of 784 values into 28 rows of 27.
          error(
                  "bad/CustomReshapeCount",
                  "return x.reshape(BATCH, 28, 27).exp();",
                  "[kiln:CustomBodyShape] CustomReshapeCount.rows() @Regroup: in Regroup.Forward.apply, "
                      + "x.reshape(BATCH, 28, 27) of [BATCH, 784] does not fit: cannot reshape to "
                      + "{BATCH, 28, 27}: the input has 784 × BATCH values, which the other dimensions "
                      + "(756 values) do not divide for every batch size (input [BATCH, 784] from x (in "
                      + "the body))")
              .with("layers/Regroup")
              .in("layers/Regroup")
              .butUnderEcjNotes(
                  "@Regroup",
                  "[kiln:CustomBodyAtBuild] CustomReshapeCount.rows(): the forward body of @Regroup "
                      + "(Regroup.Forward.apply) is traced when the graph is built, in create() and "
                      + "load(), not checked by the compiler (this compiler shows annotation processors "
                      + "no method bodies; javac does): it reads [BATCH, 784] from pixels, with no "
                      + "parameters, and must return [BATCH, 28, 28]"),

          // --- Custom recurrent cells ---

          // A cell fed one flat row instead of a sequence of steps.
          error(
                  "bad/cells/CellOnRows",
                  "@GruCell(hidden = 4)",
                  "[kiln:CustomInput] CellOnRows.states(): layer @GruCell takes an input of shape "
                      + "[batch, steps, in], got [BATCH, 8] from x (@Input(shape = {BATCH, 8})): the "
                      + "ranks differ; a cell reads a sequence, one step of [batch, in] at a time, with "
                      + "the steps after the first dimension")
              .with("layers/GruCell"),
          // Steps of 3 values into a cell whose step input must have its state's 4.
          error(
                  "bad/cells/CellStepMismatch",
                  "@ResidualCell(hidden = 4)",
                  "[kiln:CustomInput] CellStepMismatch.states(): layer @ResidualCell takes an input of "
                      + "shape [batch, steps, hidden], got [BATCH, 10, 3] from x (@Input(shape = {BATCH, "
                      + "10, 3})): dimension 2 ('hidden') must be 4")
              .with("layers/ResidualCell"),
          // Two sequences of STEPS joined along the steps: a length no input gives, so no graph
          // can be unrolled for it.
          error(
                  "bad/cells/CellJoinedSteps",
                  "@GruCell(hidden = 4)",
                  "[kiln:CellSteps] CellJoinedSteps.states(): cell @GruCell reads [BATCH, BATCH, 3] from "
                      + "both (@Concat(axis = 1)), but its steps (dimension 1) are BATCH, a size that is "
                      + "not an input's Dim.STEPS (joining or reshaping sequences gives one), so no "
                      + "number of steps to unroll over is known; a cell reads a sequence whose steps, "
                      + "dimension 1, are a constant (unrolled when the graph is built) or Dim.STEPS "
                      + "(unrolled for the length an executor is bound for), and whose other dimensions "
                      + "do not depend on the steps")
              .with("layers/GruCell"),
          // STEPS inside one step's input: the step, the state and the weights would depend on it.
          error(
                  "bad/cells/CellStepsInStep",
                  "@GruCell(hidden = 4)",
                  "[kiln:CellSteps] CellStepsInStep.states(): cell @GruCell reads [BATCH, 5, STEPS] from "
                      + "x (@Input(shape = {BATCH, 5, STEPS})), but dimension 2 is Dim.STEPS, so one "
                      + "step's input would depend on the number of steps; a cell reads a sequence whose "
                      + "steps, dimension 1, are a constant (unrolled when the graph is built) or "
                      + "Dim.STEPS (unrolled for the length an executor is bound for), and whose other "
                      + "dimensions do not depend on the steps")
              .with("layers/GruCell"),
          // A cell whose output pattern is not its state's.
          error(
                  "bad/cells/CellOutputNotState",
                  "@WideCell(hidden = 4, out = 2)",
                  "[kiln:CellOutput] CellOutputNotState.states(): cell @WideCell declares output "
                      + "[batch, out] and state [batch, hidden]; a cell's output at each step is its new "
                      + "state, so the two patterns must be the same: declare output = {\"batch\", "
                      + "\"hidden\"}")
              .with("layers/WideCell"),
          // A cell whose forward method forgot the previous state.
          error(
                  "bad/cells/CellWithoutState",
                  "@StatelessStep(hidden = 4)",
                  "[kiln:CustomForward] CellWithoutState.states(): custom layer @StatelessStep cannot be "
                      + "used: Step.apply must take the previous step's state (a Sym without @Param) as "
                      + "its second parameter, after the step's input, since @StatelessStep declares a "
                      + "state")
              .with("layers/StatelessStep"),
          // A constant where the previous state goes.
          error(
                  "bad/cells/CellConstantBeforeState",
                  "@ScaleFirstCell(hidden = 4)",
                  "[kiln:CustomForward] CellConstantBeforeState.states(): custom layer @ScaleFirstCell "
                      + "cannot be used: Step.apply must take the previous step's state (a Sym without "
                      + "@Param) as its second parameter, after the step's input, since @ScaleFirstCell "
                      + "declares a state")
              .with("layers/ScaleFirstCell"),
          // A state shaped by a name that nothing binds.
          error(
                  "bad/cells/CellUnboundState",
                  "@UnboundState(hidden = 4)",
                  "[kiln:CustomUnbound] CellUnboundState.states(): layer @UnboundState uses dimension "
                      + "'memory' in its state, but it is neither an int element of @UnboundState nor "
                      + "bound by the input pattern [batch, in]")
              .with("layers/UnboundState"),
          // A cell's forward method on a layer that does not declare a state.
          error(
                  "bad/cells/CellUndeclaredState",
                  "@UndeclaredState(hidden = 4)",
                  "[kiln:CustomForward] CellUndeclaredState.states(): custom layer @UndeclaredState "
                      + "cannot be used: parameter 'h' of Step.apply is neither a @Param Sym nor an "
                      + "element of @UndeclaredState; if it is the previous step's state of a recurrent "
                      + "cell, declare the state's shape: @Layer(state = {...})")
              .with("layers/UndeclaredState"),

          // --- Attention ---

          // Five heads over a width of 64.
          error(
              "bad/attention/AttentionHeadsDivide",
              "heads = 5",
              "[kiln:AttentionHeads] AttentionHeadsDivide.mixed(): 5 heads do not divide the "
                  + "query's width 64 (each head takes width / heads of it); use a number of heads "
                  + "that divides 64 (1, 2, 4, 8, 16, 32 or 64), or give each head its size with "
                  + "keyDim"),
          // No heads.
          error(
              "bad/attention/AttentionZeroHeads",
              "heads = 0",
              "[kiln:NonPositive] AttentionZeroHeads.mixed() @MultiHeadAttention(heads = 0): heads "
                  + "must be positive, got 0"),
          // Dropping every attention weight.
          error(
              "bad/attention/AttentionDropoutOne",
              "dropout = 1.0",
              "[kiln:OutOfRange] AttentionDropoutOne.mixed() @MultiHeadAttention(heads = 4, dropout "
                  + "= 1.0): dropout must be in [0, 1) (the probability of dropping an attention "
                  + "weight in training), got 1.0"),
          // Attention over rows of features, not a sequence.
          error(
              "bad/attention/AttentionOnRows",
              "@MultiHeadAttention(heads = 4)",
              "[kiln:WrongRank] AttentionOnRows.mixed(): @MultiHeadAttention needs a rank-3 [N, "
                  + "steps, width] input, got [BATCH, 64] from features (@Input(shape = {BATCH, "
                  + "64})); a sequence of one step is @Reshape(shape = {BATCH, 1, 64})"),
          // A 0/1 mask per step where the lengths go.
          error(
              "bad/attention/AttentionMaskNotLengths",
              "@MultiHeadAttention(heads = 4)",
              "[kiln:AttentionLengths] AttentionMaskNotLengths.mixed(): the valid lengths must be "
                  + "one number per example, [BATCH]: how many of its key steps count (the rest are "
                  + "padding), got [BATCH, 10] from mask (@Input(shape = {BATCH, 10})); give each "
                  + "example's number of valid steps, not a mask of them"),
          // Cross-attention written with two inputs.
          error(
              "bad/attention/AttentionTwoSequences",
              "@MultiHeadAttention(heads = 4)",
              "[kiln:AttentionInputs] AttentionTwoSequences.read(): @MultiHeadAttention reads "
                  + "(query), (query, lengths), (query, key, value) or (query, key, value, lengths), "
                  + "but its second input is [BATCH, 12, 64] from memory (@Input(shape = {BATCH, 12, "
                  + "64})), not lengths [BATCH]; for cross-attention declare the key and the value, "
                  + "the same node for both: read(Sym query, @From(\"memory\") Sym key, "
                  + "@From(\"memory\") Sym value)"),
          // Five inputs.
          error(
              "bad/attention/AttentionFiveInputs",
              "@MultiHeadAttention(heads = 4)",
              "[kiln:AttentionInputs] AttentionFiveInputs.read(): @MultiHeadAttention reads "
                  + "(query), (query, lengths), (query, key, value) or (query, key, value, lengths), "
                  + "but it declares 5 inputs (query, key, value, lengths, more)"),
          // Keys and values of different widths.
          error(
              "bad/attention/AttentionKeyValueWidths",
              "@MultiHeadAttention(heads = 4)",
              "[kiln:KeyValueMismatch] AttentionKeyValueWidths.read(): the key and the value must "
                  + "have one shape [BATCH, keySteps, kvWidth], got [BATCH, 12, 32] from key "
                  + "(@Input(shape = {BATCH, 12, 32})) and [BATCH, 12, 48] from value (@Input(shape "
                  + "= {BATCH, 12, 48})); project value to [BATCH, 12, 32] first, with a node "
                  + "@Dense(units = 32, flatten = false) that reads value"),
          // Keys and values of different lengths.
          error(
              "bad/attention/AttentionKeyValueSteps",
              "@MultiHeadAttention(heads = 4)",
              "[kiln:KeyValueMismatch] AttentionKeyValueSteps.read(): the key and the value must "
                  + "have one shape [BATCH, keySteps, kvWidth], got [BATCH, 12, 32] from key "
                  + "(@Input(shape = {BATCH, 12, 32})) and [BATCH, 11, 32] from value (@Input(shape "
                  + "= {BATCH, 11, 32})); each key step has its value, so both need the same number "
                  + "of steps"),
          // A causal attention over a memory longer than the query.
          error(
              "bad/attention/AttentionCausalSteps",
              "causal = true",
              "[kiln:CausalSteps] AttentionCausalSteps.read(): causal = true lets query step t see "
                  + "key steps 0 to t, so it needs as many key steps as query steps, got 10 query "
                  + "steps and 12 key steps; drop causal = true, or attend to a sequence as long as "
                  + "the query"),
          // A table of fewer positions than the sequence has steps.
          error(
              "bad/attention/PositionsTooFew",
              "steps = 16",
              "[kiln:PositionSteps] PositionsTooFew.placed() @PositionalEmbedding(steps = 16): the "
                  + "table holds 16 positions, but [BATCH, 20, 64] from tokens (@Input(shape = "
                  + "{BATCH, 20, 64})) has 20 steps; give steps = 20 or more"),
          // Positions added to the patches of an image before they are a sequence.
          error(
              "bad/attention/PositionsOnImages",
              "@PositionalEmbedding(steps = 16)",
              "[kiln:WrongRank] PositionsOnImages.placed(): @PositionalEmbedding needs a rank-3 [N, "
                  + "steps, width] input, got [BATCH, 64, 4, 4] from patches (@Input(shape = "
                  + "{BATCH, 64, 4, 4})); a [N, C, H, W] image of patches is a sequence after "
                  + "@Reshape(shape = {BATCH, 64, 16}) and @Transpose(axes = {0, 2, 1})"),

          // --- Blocks ---

          // A block that is no model.
          error(
              "bad/blocks/BlockNotModel",
              "value = String.class",
              "[kiln:BlockNotModel] BlockNotModel.encoder(): @Block's value String is not a @Model "
                  + "interface; a block is a @Model interface with one @Input and one output, its "
                  + "last node"),
          // A block of two inputs.
          error(
                  "bad/blocks/BlockTwoInputs",
                  "@Block(TwoInputs.class)",
                  "[kiln:BlockEnds] BlockTwoInputs.encoder(): block TwoInputs must have one @Input "
                      + "and one output, its last node, but it has 2 inputs (a, b); a block reads "
                      + "one tensor and makes one")
              .with("bad/blocks/TwoInputs")
              .generating(
                  "bad.blocks.TwoInputsGraph",
                  "bad.blocks.TwoInputsModel",
                  "bad.blocks.TwoInputsExec"),
          // A block fed a narrower sequence than its input declares.
          error(
                  "bad/blocks/BlockWrongInput",
                  "@Block(Narrowing.class)",
                  "[kiln:BlockInput] BlockWrongInput.encoder(): block Narrowing takes [BATCH, 6, 8] "
                      + "(its input x), got [BATCH, 6, 4] from tokens (@Input(shape = {BATCH, 6, "
                      + "4})); give the block an input of that shape, or declare the block's input "
                      + "as this one")
              .with("bad/blocks/Narrowing")
              .generating(
                  "bad.blocks.NarrowingGraph",
                  "bad.blocks.NarrowingModel",
                  "bad.blocks.NarrowingExec"),
          // Copies of a block whose output is not its input's shape.
          error(
                  "bad/blocks/BlockRepeatNarrowing",
                  "repeat = 3",
                  "[kiln:BlockRepeat] BlockRepeatNarrowing.encoder(): with repeat = 3 each copy of "
                      + "block Narrowing reads the copy before it, whose output is [BATCH, 6, 4], but "
                      + "the block's input x is [BATCH, 6, 8]; use repeat = 1, or make the block's "
                      + "output the shape of its input")
              .with("bad/blocks/Narrowing")
              .generating(
                  "bad.blocks.NarrowingGraph",
                  "bad.blocks.NarrowingModel",
                  "bad.blocks.NarrowingExec"),
          // A model used as a block of itself.
          error(
              "bad/blocks/BlockInItself",
              "@Block(BlockInItself.class)",
              "[kiln:BlockCycle] BlockInItself.again(): block BlockInItself contains itself "
                  + "(BlockInItself -> BlockInItself); a block cannot be written into itself"),
          // A block node of two parameters.
          error(
                  "bad/blocks/BlockTwoParameters",
                  "Sym encoder(",
                  "[kiln:InputCount] BlockTwoParameters.encoder(): @Block takes exactly 1 input, but "
                      + "encoder declares 2 (tokens, again)")
              .with("bad/blocks/Narrowing")
              .generating(
                  "bad.blocks.NarrowingGraph",
                  "bad.blocks.NarrowingModel",
                  "bad.blocks.NarrowingExec"),
          // A block with a mistake of its own: one error, where the block is compiled.
          error(
                  "bad/blocks/BlockWithItsOwnMistake",
                  "units = 0",
                  "[kiln:NonPositive] ZeroUnits.none() @Dense: units must be positive, got 0")
              .with("bad/blocks/ZeroUnits")
              .in("bad/blocks/ZeroUnits"));

  /** Every case: these, {@link TensorOpBadCases#ALL} and {@link FreeDimBadCases#ALL}. */
  static final List<BadCase> ALL =
      Stream.of(EARLIER, TensorOpBadCases.ALL, FreeDimBadCases.ALL).flatMap(List::stream).toList();
}
