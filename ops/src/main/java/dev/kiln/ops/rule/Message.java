package dev.kiln.ops.rule;

/**
 * Every diagnostic the processor can report, with its stable id and wording. A message states the
 * rule that was broken and what to do about it; its id ({@code [kiln:ShapeMismatch]}) stays the
 * same across versions so that users and tests can rely on it.
 */
public enum Message {
  MODEL_NOT_INTERFACE(
      "ModelNotInterface",
      "@Model must annotate an interface, but %s is %s; declare it as `interface %s`"),
  MODEL_GENERIC("ModelGeneric", "@Model interface %s must not have type parameters"),
  MODEL_EMPTY(
      "ModelEmpty",
      "@Model interface %s has no layer to compute; add an @Input and at least one layer that "
          + "reads it"),
  NODE_NOT_ABSTRACT(
      "NodeNotAbstract",
      "%s is annotated %s but has a body; a built-in node is declared by an abstract method "
          + "(remove the body)"),
  NODE_RETURN_TYPE("NodeReturnType", "node %s must return Sym, not %s"),
  NODE_PARAM_TYPE("NodeParamType", "parameter %s of node %s must be a Sym, not %s"),
  RESERVED_NAME(
      "ReservedName",
      "%s: an input cannot be named finalize: %s implements %s, and its finalize() would "
          + "override Object.finalize(), which returns void; rename it"),
  NODE_NAME_TAKEN("NodeNameTaken", "two methods of %s are named %s; every node needs its own name"),
  MISSING_LAYER(
      "MissingLayer",
      "%1$s.%2$s(): abstract method %2$s() is not a node: annotate it with a layer such as "
          + "@Input or @Dense (javac shows Kiln no annotation it cannot resolve: if %2$s() has one, the "
          + "compiler's error on it is the one to fix)"),
  SEVERAL_LAYERS(
      "SeveralLayers",
      "%s has %d layer annotations (%s); a node is exactly one layer, declare one node per layer"),
  NON_POSITIVE("NonPositive", "%s: %s must be positive, got %d"),
  INPUT_WITHOUT_SHAPE(
      "InputWithoutShape",
      "%s: @Input has no shape; give it one, e.g. @Input(shape = {BATCH, 784})"),
  BAD_INPUT_DIM(
      "BadInputDim",
      "input %s: dimension %d is %d; a dimension must be positive, or BATCH or STEPS for one "
          + "fixed at bind time"),
  UNKNOWN_WIRE("UnknownWire", "%s reads '%s', but %s has no node or input of that name%s"),
  CYCLE("Cycle", "the nodes of %s form a cycle: %s; a node cannot depend on its own output"),
  INPUT_COUNT("InputCount", "%s: %s takes %s, but %s declares %d (%s)"),
  SHAPE_MISMATCH("ShapeMismatch", "%s: %s needs equal shapes, got %s; %s"),
  FREE_DIM_VALUE(
      "FreeDimValue",
      "%s: free dimension %s is %d; its value is a placeholder from -10 to -999 that no other "
          + "dimension of the model uses%s"),
  FREE_DIM_DECLARATION("FreeDimDeclaration", "%s: @FreeDim on %s: %s"),
  FREE_DIM_UNDECLARED(
      "FreeDimUndeclared",
      "input %s: dimension %d is %d, which no @FreeDim constant of %s declares; declare the free "
          + "dimension (@FreeDim int %s = %3$d;), or give a positive size, BATCH or STEPS"),
  FREE_DIM_ATTRIBUTE(
      "FreeDimAttribute",
      "%s %s: %s is free dimension %s, but a layer's attributes are the same at every size (its "
          + "parameters are shared by all of them); give it a constant, or compute the size with "
          + "the layers"),
  FREE_DIM_UNUSED(
      "FreeDimUnused",
      "%s: free dimension %s is declared but no @Input's shape has it, so no call could give its "
          + "size; use it in an input's shape, or remove it"),
  FREE_DIM_UNSUPPORTED(
      "FreeDimUnsupported",
      "%s: %s does not take free dimensions, got %s from %s; give those dimensions constant sizes "
          + "before this node (the layers in docs/dimensions.md take free dimensions)"),
  FREE_DIM_UNEQUAL(
      "FreeDimUnequal", "%s: %s needs %s, but axis %d is %s in %s and %s in %s, which %s"),
  FREE_DIM_IMPOSSIBLE(
      "FreeDimImpossible",
      "%s: needs %s (%s), which no size the declarations allow meets (%s); change the layer or the "
          + "declared bounds"),
  CONCAT_MISMATCH(
      "ConcatMismatch", "%s: @Concat(axis = %d) needs every dimension but axis %d equal, got %s"),
  CONCAT_BATCH(
      "ConcatBatch",
      "%s: @Concat(axis = %d) joins along the batch axis, so its output holds the batches of its "
          + "%d inputs one after another (%s), which no [BATCH, ...] shape says; join along "
          + "another axis, or feed inputs of fixed sizes"),
  RANK_MISMATCH("RankMismatch", "%s: %s needs inputs of equal rank, got %s"),
  BAD_AXIS("BadAxis", "%s: axis %d is out of range for %s of rank %d (allowed: %d to %d)"),
  UNKNOWN_FEATURES(
      "UnknownFeatures",
      "%s: @Dense needs its input's feature dimensions known at compile time, got %s from %s; %s"),
  BAD_ACTIVATION(
      "BadActivation",
      "%s: @Activation needs a function such as Act.RELU; Act.NONE is no activation"),
  CLASSIFIER_NEEDS_SOFTMAX(
      "ClassifierNeedsSoftmax",
      "%s: classifier = true needs the last node of %s to be @Softmax (training replaces it "
          + "with MXNet's SoftmaxOutput), but the last node %s is %s; add a last node @Softmax Sym "
          + "probs(Sym %s)"),
  CLASSIFIER_OUTPUTS(
      "ClassifierOutputs",
      "classifier = true needs the softmax %s to be the only output of %s, but %s also %s; %s"),
  LOSS_OUTPUTS(
      "LossOutputs",
      "the loss head %s must be the only output of %s, but %s also %s; training minimises one "
          + "loss: %s"),
  LOSS_CONSUMED(
      "LossConsumed",
      "%s.%s() reads the loss head %s, but a loss head ends the model: in training it computes the "
          + "loss, which no node can read; read %s's input %s instead"),
  CLASSIFIER_INPUTS(
      "ClassifierInputs",
      "classifier = true needs %s to have one input (classifier training feeds each batch of "
          + "features to it), but it has %d: %s; drop classifier = true and train with forward, "
          + "backward and update"),
  CLASSIFIER_SHAPE(
      "ClassifierShape",
      "%s: classifier = true needs the last node of %s to be a softmax over the classes of a "
          + "[BATCH, classes] tensor, but %s has shape %s and axis %d; %s"),
  CUSTOM_FORWARD("CustomForward", "%s: custom layer @%s cannot be used: %s"),
  CUSTOM_PATTERN(
      "CustomPattern",
      "%s: custom layer @%s has shape token '%s'; a token is a dimension name or a positive "
          + "number"),
  CUSTOM_INPUT("CustomInput", "%s: layer @%s takes an input of shape %s, got %s: %s"),
  CUSTOM_UNBOUND(
      "CustomUnbound",
      "%s: layer @%s uses dimension '%s' in %s, but it is neither an int element of @%s nor "
          + "bound by the input pattern %s"),
  CUSTOM_PARAM_BATCH(
      "CustomParamBatch",
      "%s: parameter %s of layer @%s would have shape %s; a parameter's dimensions must not "
          + "depend on BATCH"),
  CUSTOM_PARAM_DIM(
      "CustomParamDim",
      "%s: parameter %s has @Param(shape = %s), whose '%s' is neither an int element of @%s nor a "
          + "name of its input pattern %s%s"),
  CUSTOM_PARAM_RANK(
      "CustomParamRank",
      "%s: parameter %s, declared @Param(shape = %s) (%s), meets %s in %s; MXNet lines up the last "
          + "axes of operands of different rank, so %s; %s"),
  CUSTOM_BODY_SHAPE("CustomBodyShape", "%s: in %s, %s of %s does not fit: %s"),
  CUSTOM_PARAM_INIT("CustomParamInit", "%s: parameter %s of layer @%s says @Param(%s): %s"),
  CELL_OUTPUT(
      "CellOutput",
      "%s: cell @%s declares output %s and state %s; a cell's output at each step is its new "
          + "state, so the two patterns must be the same: declare output = %s"),
  CELL_STEPS(
      "CellSteps",
      "%s: cell @%s reads %s, but %s; a cell reads a sequence whose steps, dimension 1, are a "
          + "constant (unrolled when the graph is built) or Dim.STEPS (unrolled for the length an "
          + "executor is bound for), and whose other dimensions do not depend on the steps"),
  WRONG_RANK("WrongRank", "%s: %s needs a rank-%s %s input, got %s%s"),
  UNKNOWN_CHANNELS(
      "UnknownChannels",
      "%s: %s needs the size of axis %d (%s) known at compile time to shape its parameters, "
          + "got %s; only other dimensions may be BATCH"),
  BAD_WINDOW(
      "BadWindow",
      "%s: %s takes one value (used for height and width) or two ({height, width}), got %d"),
  NEGATIVE("Negative", "%s: %s must be 0 or more, got %d"),
  PAD_TOO_LARGE(
      "PadTooLarge",
      "%s: pad %d must be smaller than the kernel %d along the %s, or a window at the border "
          + "covers only padding"),
  EMPTY_WINDOW(
      "EmptyWindow",
      "%s: under the full convention the %s gets %d windows, and the last starts at %d, after the "
          + "last of the %d values of %s, so it covers only padding (MXNet fills it with -3.4e38 "
          + "or 0); use a smaller stride or padding, or convention = PoolConvention.VALID"),
  KERNEL_TOO_LARGE(
      "KernelTooLarge",
      "%s: the window spans %d along the %s (%s), more than the %d (%d with padding) of %s; "
          + "use a smaller kernel or dilation, or more padding"),
  LOSS_SHAPE(
      "LossShape",
      "%s: a loss head's input must be BATCH followed by sizes known at compile time (one loss "
          + "over a fixed number of values per example), got %s%s"),
  LOSS_NOT_SCALAR(
      "LossNotScalar",
      "%s: @Loss needs one loss value per example, [BATCH] or [BATCH, 1], got %s; reduce it to "
          + "one value per example first"),
  GROUPS_DIVIDE(
      "GroupsDivide",
      "%s: groups = %d must divide both the input channels (%d, of %s) and the filters (%d); "
          + "their common divisors are %s"),
  OUTPUT_PAD_TOO_LARGE(
      "OutputPadTooLarge",
      "%s: outputPad %d must be smaller than the stride %d along the %s (MXNet's adj adds at most "
          + "stride - 1 rows or columns)"),
  DILATED_ONE_FILTER(
      "DilatedOneFilter",
      "%s: dilation with one filter per group (filters %d, groups %d) runs on MXNet's own "
          + "deconvolution kernel, as oneDNN's fails in backward for such a layer, and that "
          + "kernel computes dilated transposed convolutions wrongly in MXNet 1.9.1 "
          + "(apache/mxnet#11203); use dilation 1 or more filters per group"),
  EMPTY_OUTPUT(
      "EmptyOutput",
      "%s: the output would be %d along the %s for %s (stride * (size - 1) + window - 2 * pad + "
          + "outputPad = %s); use less padding or a larger kernel"),
  RECURRENT_ACTIVATION(
      "RecurrentActivation",
      "%s: @Rnn's activation is Act.TANH or Act.RELU (MXNet's rnn_tanh and rnn_relu), got Act.%s;"
          + " for gates use @Lstm or @Gru"),
  STATEFUL_BIDIRECTIONAL(
      "StatefulBidirectional",
      "%s: a stateful layer must read in one direction: the reverse direction starts at the end "
          + "of each call's sequence, so it has no state to carry into the next call; drop "
          + "bidirectional or stateful"),
  SEQUENCE_LAYOUT(
      "SequenceLayout", "%s: %s reads a batch-first sequence [BATCH, steps, features], got %s: %s"),
  EVEN_LRN_SIZE(
      "EvenLrnSize",
      "%s: size must be odd, got %d; MXNet's LRN centres its window of channels on each channel "
          + "(use %d or %d)"),
  LRN_SIZE_TOO_LARGE(
      "LrnSizeTooLarge",
      "%s: a window of %d channels is more than the %d channels of %s; MXNet's own LRN kernel "
          + "refuses it (use a smaller size)"),
  RATE_OUT_OF_RANGE(
      "RateOutOfRange",
      "%s: rate must be in [0, 1) (the probability of dropping a value in training), got %s"),
  OUT_OF_RANGE("OutOfRange", "%s: %s must be %s, got %s"),
  BAD_RESHAPE("BadReshape", "%s: cannot reshape to %s: %s"),
  ATTENTION_HEADS(
      "AttentionHeads",
      "%s: %d heads do not divide the query's width %d (each head takes width / heads of it); use "
          + "a number of heads that divides %d (%s), or give each head its size with keyDim"),
  ATTENTION_INPUTS(
      "AttentionInputs",
      "%s: @MultiHeadAttention reads (query), (query, lengths), (query, key, value) or (query, "
          + "key, value, lengths), but %s"),
  ATTENTION_LENGTHS(
      "AttentionLengths",
      "%s: the valid lengths must be one number per example, [BATCH]: how many of its key steps "
          + "count (the rest are padding), got %s%s"),
  KEY_VALUE_MISMATCH(
      "KeyValueMismatch",
      "%s: the key and the value must have one shape [BATCH, keySteps, kvWidth], got %s and %s; "
          + "%s"),
  CAUSAL_STEPS(
      "CausalSteps",
      "%s: causal = true lets query step t see key steps 0 to t, so it needs as many key steps "
          + "as query steps, got %s query steps and %s key steps; drop causal = true, or attend to "
          + "a sequence as long as the query"),
  POSITION_STEPS(
      "PositionSteps",
      "%s: the table holds %d positions, but %s has %d steps; give steps = %d or more"),
  BLOCK_NOT_MODEL(
      "BlockNotModel",
      "%s: @Block's value %s is not a @Model interface; a block is a @Model interface with one "
          + "@Input and one output, its last node"),
  BLOCK_ENDS(
      "BlockEnds",
      "%s: block %s must have one @Input and one output, its last node, but it has %s; a block "
          + "reads one tensor and makes one"),
  BLOCK_INPUT(
      "BlockInput",
      "%s: block %s takes %s (its input %s), got %s; give the block an input of that shape, or "
          + "declare the block's input as this one"),
  BLOCK_REPEAT(
      "BlockRepeat",
      "%s: with repeat = %d each copy of block %s reads the copy before it, whose output is %s, "
          + "but the block's input %s is %s; use repeat = 1, or make the block's output the shape "
          + "of its input"),
  BLOCK_CYCLE(
      "BlockCycle", "%s: block %s contains itself (%s); a block cannot be written into itself"),
  // Element-wise and tensor operations.
  BROADCAST_RANK(
      "BroadcastRank",
      "%s: %s broadcasts only between inputs of equal rank (MXNet would match a missing axis from "
          + "the right, so [C] against [N, C, H, W] would meet W, not C), got %s; %s"),
  BROADCAST_MISMATCH(
      "BroadcastMismatch",
      "%s: %s needs the sizes along each axis equal, or 1 in one of its inputs (MXNet's "
          + "broadcasting), but axis %d is %s against %s in %s; %s"),
  BROADCAST_RUNS(
      "BroadcastRuns",
      "%s: %s of %s needs %d runs of axes that broadcast alike, and MXNet 1.9.1's kernels take at "
          + "most %d (they fail with \"Too many broadcast dimensions\" when run); merge "
          + "neighbouring axes with @Reshape first"),
  MATMUL_INNER(
      "MatMulInner",
      "%s: %s needs the columns of the left matrices (axis %d of %s) to agree with the rows of the "
          + "right ones (axis %d of %s), got %s against %s; %s"),
  MATMUL_BATCH(
      "MatMulBatch",
      "%s: %s multiplies its inputs' matrices pair by pair, so every axis before the last two must "
          + "be equal (MXNet's batch_dot does not broadcast), but axis %d is %s against %s in %s"),
  ACROSS_BATCH(
      "AcrossBatch",
      "%s: %s would %s axis %d of %s, the batch: each example keeps values of its own (a loss "
          + "head needs one per example); %s"),
  BAD_PERMUTATION(
      "BadPermutation",
      "%s: axes must list each of the %d axes of %s once (0 to %d, or negative from the end), or "
          + "none to reverse them, but %s"),
  REPEATED_AXIS("RepeatedAxis", "%s: axes lists axis %d of %s twice (as %d and %d); name it once"),
  SLICE_UNKNOWN_SIZE(
      "SliceUnknownSize",
      "%s: @Slice needs the size of axis %d known at compile time to check begin and end, but it "
          + "is %s in %s (fixed only when an executor is bound); slice an axis of constant size"),
  BAD_SLICE("BadSlice", "%s: cannot take indices %s of axis %d of %s, of size %d: %s"),
  FROZEN_WITHOUT_PARAMS(
      "FrozenWithoutParams", "%s is @Frozen, but %s has no parameters to freeze; remove @Frozen"),
  INPUT_WITHOUT_BATCH(
      "InputWithoutBatch",
      Kind.WARNING,
      "%s: input %s has shape %s, with no BATCH dimension: every call feeds exactly that shape, "
          + "and the layers read its first dimension, %d, as the examples; to feed batches of "
          + "examples of shape %s, declare @Input(shape = {BATCH, %s})"),
  UNUSED_INPUT(
      "UnusedInput",
      Kind.WARNING,
      "input %s of %s is read by no node; remove it or wire a node to it"),
  UNUSED_NODE(
      "UnusedNode",
      Kind.WARNING,
      "node %s of %s is read by no node and so becomes an extra output; wire a node to it, "
          + "or mark it @Output if it is meant as one"),
  CUSTOM_BODY_AT_BUILD(
      "CustomBodyAtBuild",
      Kind.NOTE,
      "%s: the %s of @%s (%s) is traced when the graph is built, in create() and load(), not "
          + "checked by the compiler (%s): %s, with %s, and must return %s"),
  UNRESOLVED(
      "Unresolved",
      "%s: %s names %s, which the compiler cannot find, so Kiln generated nothing for %s; put "
          + "it on the class path, or run the annotation processor that generates it"),
  // Imported symbol files (@Imported), kept together.
  IMPORT_NOT_FOUND(
      "ImportNotFound",
      "%s: file %s not found: put it in src/main/resources%s (the class path) or beside %s; "
          + "looked for %s in %s"),
  IMPORT_NOT_SYMBOL("ImportNotSymbol", "%s: %s is not an MXNet symbol file: %s"),
  IMPORT_SOURCE(
      "ImportSource",
      "%s: @Imported needs exactly one of symbol (an MXNet symbol file) and onnx (an ONNX model), "
          + "got %s"),
  ONNX_NOT_MODEL("OnnxNotModel", "%s: %s"),
  ONNX_OPSET(
      "OnnxOpset",
      "%s: %s uses ONNX operator set %d; Kiln imports operator sets %d to %d (export the model "
          + "again with an operator set in that range)"),
  ONNX_UNKNOWN_OPS(
      "OnnxUnknownOps", "%s: %s uses ONNX operators Kiln does not import: %s; it imports %s"),
  ONNX_NODE("OnnxNode", "%s: node %s of %s (%s, operator set %d) cannot be imported: %s"),
  ONNX_SYMBOLIC(
      "OnnxSymbolic",
      "%s: input %s of %s has shape %s, and Kiln needs every size past the first (the batch) "
          + "fixed or declared when the model compiles: feed it from an @Input whose shape gives "
          + "them, as numbers or @FreeDim dimensions (kiln import --input %s=BATCH,3,H,W writes "
          + "one, H and W free), or export the model with fixed sizes"),
  ONNX_FREE_DIM(
      "OnnxFreeDim",
      "%s: node %s of %s (%s, operator set %d) computes with size %s of %s %s, a free dimension; "
          + "Kiln folds what sizes decide into constants when the model compiles, and a free "
          + "dimension has no size until an executor is bound: give it a fixed size in the @Input "
          + "(kiln import --input NAME=DIMS), or export the model without computing with that "
          + "size"),
  IMPORT_UNKNOWN_OP(
      "ImportUnknownOp",
      "%s: node %s of %s is MXNet operator %s, which Kiln does not import; it imports %s (and the "
          + "older names %s)"),
  IMPORT_ATTRIBUTE("ImportAttribute", "%s: %s attribute %s = %s cannot be imported: %s"),
  IMPORT_UNKNOWN_INPUT(
      "ImportUnknownInput",
      "%s: parameter %s feeds input %s, but %s has no input of that name; its inputs are %s%s"),
  IMPORT_UNFED_INPUT(
      "ImportUnfedInput",
      "%s: %s reads input %s of %s, which no parameter feeds; add a parameter Sym %s"),
  IMPORT_UNKNOWN_OUTPUT(
      "ImportUnknownOutput", "%s: output = \"%s\" is not a node of %s%s (its nodes include %s)%s"),
  IMPORT_SEVERAL_OUTPUTS(
      "ImportSeveralOutputs",
      "%s: %s has %d outputs (%s); name the one to import: @Imported(symbol = \"%s\", output = "
          + "\"%s\")"),
  IMPORT_NAME_TAKEN(
      "ImportNameTaken",
      "%s: node %s of %s has the name of %s's %s; rename the model's node (the file's names are "
          + "its parameters' names)"),
  IMPORT_SHAPE_HINT(
      "ImportShapeHint",
      "%s: variable %s declares shape %s in the file (__shape__), but node %s reads it as %s; the "
          + "file's graph does not fit its own parameters: check the input's shape (its channels) "
          + "or export the file again"),
  IMPORT_SHARED_SHAPE(
      "ImportSharedShape",
      "%s: variable %s is read by node %s as %s and by node %s as %s; one variable has one shape "
          + "(MXNet refuses this file too): give each reader a variable of its own"),
  // Reasons: wordings that are not diagnostics of their own but reach the user inside one or in
  // generated Javadoc (why a model is not a classifier).
  REASON_NO_NODES("ReasonNoNodes", Kind.OTHER, "it has no nodes"),
  REASON_LAST_NODE_FAILED("ReasonLastNodeFailed", Kind.OTHER, "its last node %s has an error"),
  REASON_LAST_NOT_SOFTMAX(
      "ReasonLastNotSoftmax", Kind.OTHER, "its last node %s is %s, not a @Softmax"),
  REASON_LOSS_HEAD(
      "ReasonLossHead",
      Kind.OTHER,
      "its last node %s is the loss head %s, not a @Softmax; train it with trainer()"),
  REASON_SOFTMAX_NOT_OVER_CLASSES(
      "ReasonSoftmaxNotOverClasses",
      Kind.OTHER,
      "its softmax %s over axis %d of %s is not over the classes of a [BATCH, classes] tensor"),
  REASON_SEVERAL_INPUTS(
      "ReasonSeveralInputs",
      Kind.OTHER,
      "it has %d inputs (%s), and classifier training feeds one batch of features to one input"),
  REASON_OTHER_OUTPUT(
      "ReasonOtherOutput", Kind.OTHER, "besides its softmax %s it has the output %s, which %s"),
  REASON_MARKED_OUTPUT("ReasonMarkedOutput", Kind.OTHER, "is marked @Output"),
  REASON_READ_BY_NONE("ReasonReadByNone", Kind.OTHER, "is read by no node"),
  FIX_MARKED_OUTPUT(
      "FixMarkedOutput",
      Kind.OTHER,
      "remove its @Output (to read %s after training, declare a second model of the same nodes "
          + "that ends there and load the checkpoint into it)"),
  FIX_READ_BY_NONE("FixReadByNone", Kind.OTHER, "wire %s into the network or remove it"),
  INTERNAL(
      "Internal",
      "internal error in the Kiln processor while handling %s; please report it with this "
          + "trace: %s");

  /** What a message is: a diagnostic of some severity, or a reason used inside other text. */
  public enum Kind {
    /** An error: the model generates nothing. */
    ERROR,
    /** A warning. */
    WARNING,
    /** A note. */
    NOTE,
    /** A reason or a fix, which is no diagnostic of its own. */
    OTHER
  }

  private final String id;
  private final Kind kind;
  private final String format;

  Message(String id, String format) {
    this(id, Kind.ERROR, format);
  }

  Message(String id, Kind kind, String format) {
    this.id = id;
    this.kind = kind;
    this.format = format;
  }

  /** The stable id, e.g. {@code ShapeMismatch}. */
  public String id() {
    return id;
  }

  /** Error, warning or note; {@code OTHER} for a reason, which is no diagnostic of its own. */
  public Kind kind() {
    return kind;
  }

  /** Whether this is a diagnostic (error, warning or note), not a reason. */
  public boolean isDiagnostic() {
    return kind != Kind.OTHER;
  }

  /** The wording with its placeholders ({@code %s}, {@code %d}), as the catalogue holds it. */
  public String template() {
    return format;
  }

  /** The formatted wording without the id: how a reason reads inside other text. */
  public String text(Object... args) {
    return String.format(format, args);
  }

  /** The full text: {@code [kiln:Id] } followed by the formatted message. */
  public String format(Object... args) {
    return "[kiln:" + id + "] " + String.format(format, args);
  }
}
