package dev.kiln.processor;

import static dev.kiln.processor.BadCase.error;

import java.util.List;

/**
 * The mistakes of models with free dimensions ({@code @FreeDim}), one model each under {@code
 * src/test/resources/bad/dims}; part of {@link BadCases#ALL}. Written before the checks they test,
 * from the mistakes a user makes.
 */
final class FreeDimBadCases {
  private FreeDimBadCases() {}

  static final List<BadCase> ALL =
      List.of(
          // Height and width swapped in the second input: equal only for square images.
          error(
              "bad/dims/FreeDimSwapped",
              "@Add",
              "[kiln:FreeDimUnequal] FreeDimSwapped.sum(): @Add needs equal shapes, but axis 2 is H "
                  + "- 4 in a and W - 4 in b, which differ for some sizes of the free dimensions; if "
                  + "they are always equal, declare it (e.g. @FreeDim(equals = \"W\") on H), else "
                  + "change the layers that make them"),
          // An image joined with its own convolution: the sizes differ by 2 whatever H is.
          error(
              "bad/dims/FreeDimNeverEqual",
              "@Concat(axis = 1)",
              "[kiln:FreeDimUnequal] FreeDimNeverEqual.both(): @Concat(axis = 1) needs every axis "
                  + "but 1 equal, but axis 2 is H in image and H - 2 in conv, which differ by 2 for "
                  + "every size; crop or pad one of them, or change the layers that make them"),
          // A pooled branch added to the unpooled one: H / 2 and H, which no declaration equates
          // (a newcomer followed the old hint, equals = "H / 2" on H, into FreeDimDeclaration).
          error(
              "bad/dims/FreeDimScaledBranch",
              "@Add",
              "[kiln:FreeDimUnequal] FreeDimScaledBranch.sum(): @Add needs equal shapes, but axis 2 "
                  + "is H in image and H / 2 in pooled, which differ for some sizes of the free "
                  + "dimensions, and no @FreeDim declaration can make them equal; change the layers "
                  + "that make them so that both branches scale the same way (pool, stride or "
                  + "upsample both alike)"),
          // A classifier head over a flattened image of free size: no weight fits every size.
          error(
              "bad/dims/FreeDimFlatDense",
              "@Dense(units = 10)",
              "[kiln:UnknownFeatures] FreeDimFlatDense.logits(): @Dense needs its input's feature "
                  + "dimensions known at compile time, got [BATCH, 8 * H * W - 16 * H - 16 * W + 32] "
                  + "from flat; a width written in free dimensions changes with the input's size, "
                  + "so no weight fits it: pool to a fixed size first (e.g. @GlobalAvgPool, then "
                  + "@Flatten)"),
          // A U-Net's skip connection: pooled by 2 and upsampled by 2 is H only for even H, and W
          // only for even W; one error names both declarations, so that one fix compiles.
          error(
              "bad/dims/FreeDimSkip",
              "@Add",
              "[kiln:FreeDimUnequal] FreeDimSkip.sum(): @Add needs equal shapes, but axis 2 is H in "
                  + "image and 2 * (H / 2) in back, which differ for some sizes but are equal where "
                  + "H % 2 is 0 (and axis 3 where W % 2 is 0); declare H and W multiples of 2 "
                  + "(multipleOf = 2 in their @FreeDim), or crop or pad one of them"),
          // A pooling by 2 against a strided convolution: H / 2 and (H + 1) / 2, equal for even H
          // (W is declared even already, so only H is named).
          error(
              "bad/dims/FreeDimStrided",
              "@Add",
              "[kiln:FreeDimUnequal] FreeDimStrided.sum(): @Add needs equal shapes, but axis 2 is H "
                  + "/ 2 in pooled and (H + 1) / 2 in strided, which differ for some sizes but are "
                  + "equal where H % 2 is 0; declare H a multiple of 2 (multipleOf = 2 in its "
                  + "@FreeDim), or crop or pad one of them"),
          // A dimension declared but read by no input.
          error(
              "bad/dims/FreeDimUnused",
              "@FreeDim",
              "[kiln:FreeDimUnused] FreeDimUnused.W: free dimension W is declared but no @Input's "
                  + "shape has it, so no call could give its size; use it in an input's shape, or "
                  + "remove it"),
          // A placeholder in the range of Kiln's and MXNet's own codes.
          error(
              "bad/dims/FreeDimValue",
              "int H = -3;",
              "[kiln:FreeDimValue] FreeDimValue.H: free dimension H is -3; its value is a "
                  + "placeholder from -10 to -999 that no other dimension of the model uses; e.g. H "
                  + "= -10"),
          // Two dimensions copied with one value: the suggestion is a value no constant has.
          error(
              "bad/dims/FreeDimTaken",
              "int W = -10;",
              "[kiln:FreeDimValue] FreeDimTaken.W: free dimension W is -10; its value is a "
                  + "placeholder from -10 to -999 that no other dimension of the model uses (H is -10 "
                  + "too); e.g. W = -12"),
          // equals naming a dimension the model does not declare.
          error(
              "bad/dims/FreeDimDeclaration",
              "@FreeDim(equals = \"Q\")",
              "[kiln:FreeDimDeclaration] FreeDimDeclaration.H: @FreeDim on H: equals = \"Q\" "
                  + "names Q, which is not a free dimension of FreeDimDeclaration (declared: H, W)"),
          // A constant used as a dimension without @FreeDim.
          error(
              "bad/dims/FreeDimUndeclared",
              "@Input(shape = {BATCH, 3, H, W})",
              "[kiln:FreeDimUndeclared] input image: dimension 3 is -11, which no @FreeDim "
                  + "constant of FreeDimUndeclared declares; declare the free dimension (@FreeDim "
                  + "int W = -11;), or give a positive size, BATCH or STEPS"),
          // A layer whose rule cannot follow free dimensions.
          error(
              "bad/dims/FreeDimUnsupported",
              "@Reshape(shape = {BATCH, 4, 4})",
              "[kiln:FreeDimUnsupported] FreeDimUnsupported.grid(): @Reshape does not take free "
                  + "dimensions, got [BATCH, T, 16] from tokens; give those dimensions constant "
                  + "sizes before this node (the layers in docs/dimensions.md take free dimensions)"),
          // A model width as a free dimension: the weights would change shape with it.
          error(
              "bad/dims/FreeDimAttribute",
              "@Dense(units = D, flatten = false)",
              "[kiln:FreeDimAttribute] FreeDimAttribute.hidden() @Dense(units = D, flatten = "
                  + "false): units is free dimension D, but a layer's attributes are the same at "
                  + "every size (its parameters are shared by all of them); give it a constant, or "
                  + "compute the size with the layers"),
          // A kernel of 5 over images declared at most 4 high.
          error(
              "bad/dims/FreeDimImpossible",
              "@Conv2D(filters = 8, kernel = 5)",
              "[kiln:FreeDimImpossible] FreeDimImpossible.conv(): needs H >= 5 (@Conv2D(filters = "
                  + "8, kernel = 5): its window (kernel 5) must fit the height), which no size the "
                  + "declarations allow meets (1 <= H <= 4); change the layer or the declared bounds"));
}
