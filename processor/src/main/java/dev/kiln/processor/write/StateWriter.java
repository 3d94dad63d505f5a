package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.TypeSpec;
import dev.kiln.names.StateRole;
import dev.kiln.processor.model.CheckedNode;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Modifier;

/**
 * Writes the state methods of a model with stateful recurrent layers: {@code resetState()}, the
 * {@code State} record, {@code state()} and {@code setState(State)}.
 */
final class StateWriter {
  private final ClassName type;

  /** A writer for the model class {@code type}. */
  StateWriter(ClassName type) {
    this.type = type;
  }

  /** {@code resetState()}, the {@code State} record, {@code state()} and {@code setState}. */
  void addTo(TypeSpec.Builder t, List<CheckedNode.CarriedState> states) {
    ClassName state = type.nestedClass("State");
    NameAllocator names = new NameAllocator();
    names.newName("batch");
    List<String> fields = new ArrayList<>();
    MethodSpec.Builder ctor = MethodSpec.constructorBuilder().addParameter(int.class, "batch");
    Javadoc recordDoc =
        Javadoc.member()
            .paragraph(
                "The state every stateful recurrent layer "
                    + "carries into the next {@link #forward}: one array per layer and state, row-major "
                    + "{@code [layers, batch, units]}.")
            .param("batch", "the batch size of the sequences it belongs to");
    for (CheckedNode.CarriedState s : states) {
      String f = names.newName(Names.camel(s.name()));
      fields.add(f);
      ctor.addParameter(float[].class, f);
      recordDoc.param(
          f,
          (s.role() == StateRole.CELL ? "the cell state" : "the hidden state")
              + " {@code "
              + s.name()
              + "}");
    }
    t.addType(
        TypeSpec.recordBuilder(state)
            .addModifiers(Modifier.PUBLIC)
            .addJavadoc("$L", recordDoc.build())
            .recordConstructor(ctor.build())
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("resetState")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "Starts new sequences: the next {@link "
                            + "#forward} starts every stateful layer from zeros, and may have any batch size.")
                    .build())
            .addStatement("runtime.resetState()")
            .build());
    addStateAccess(t, state, states, fields);
  }

  /** {@code state()} and {@code setState(State)}. */
  private void addStateAccess(
      TypeSpec.Builder t,
      ClassName state,
      List<CheckedNode.CarriedState> states,
      List<String> fields) {
    CodeBlock.Builder read = CodeBlock.builder().add("return new $T(runtime.stateBatch()", state);
    for (int i = 0; i < states.size(); i++) {
      read.add(",$Wstate.get($S)", states.get(i).name());
    }
    t.addMethod(
        MethodSpec.methodBuilder("state")
            .addModifiers(Modifier.PUBLIC)
            .returns(state)
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "The state the next {@link #forward} "
                            + "starts from, copied out; null when no call ran since the last reset (the state "
                            + "is then zeros).")
                    .build())
            .addStatement(
                "$T<$T, float[]> state = runtime.readState()", java.util.Map.class, String.class)
            .beginControlFlow("if (state.isEmpty())")
            .addStatement("return null")
            .endControlFlow()
            .addStatement(read.add(")").build())
            .build());
    CodeBlock.Builder write = CodeBlock.builder();
    for (int i = 0; i < states.size(); i++) {
      write.add(
          i == 0 ? "$S, state.$N()" : ",$W$S, state.$N()", states.get(i).name(), fields.get(i));
    }
    t.addMethod(
        MethodSpec.methodBuilder("setState")
            .addModifiers(Modifier.PUBLIC)
            .addParameter(state, "state")
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "Makes the next {@link #forward} start "
                            + "from {@code state} (from {@link #state()}); that call must have its batch size.")
                    .param("state", "every stateful layer's state")
                    .build())
            .addStatement(
                "runtime.writeState(state.batch(), $T.of($L))", java.util.Map.class, write.build())
            .build());
  }
}
