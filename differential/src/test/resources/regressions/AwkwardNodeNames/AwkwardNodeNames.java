package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Add;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Sym;

/**
 * The processor's AwkwardNames (good/names) on MXNet, without its LSTM (the second JVM runs
 * without oneDNN, which recurrent layers need): nodes and inputs named like the members, locals
 * and parameters of the generated classes and like the methods of Object. Most of them made
 * javac reject the generated code until the writers kept generated names apart from the nodes';
 * all of them must compile and run.
 */
@Model
public interface AwkwardNodeNames {
  // Inputs: XGraph has build(GraphBuilder) and a field builder; build(GraphBuilder) has locals
  // builder and graph; XModel has a field runtime and locals out and grads; XExec a field
  // executor; records cannot have a component named clone.
  @Input(shape = {BATCH, 4}) Sym build();
  @Input(shape = {BATCH, 4}) Sym buildClassifier();
  @Input(shape = {BATCH, 4}) Sym builder();
  @Input(shape = {BATCH, 4}) Sym graph();
  @Input(shape = {BATCH, 4}) Sym runtime();
  @Input(shape = {BATCH, 4}) Sym out();
  @Input(shape = {BATCH, 4}) Sym grads();
  @Input(shape = {BATCH, 4}) Sym executor();
  @Input(shape = {BATCH, 4}) Sym clone();
  @Input(shape = {BATCH, 4}) Sym params();
  @Input(shape = {BATCH, 4}) Sym inputs();
  @Input(shape = {BATCH, 4}) Sym create();

  // Outputs, each marked: the Outputs record cannot have components named like Object methods.
  @Output @Add Sym hashCode(Sym build, Sym buildClassifier);
  @Output @Add Sym toString(Sym builder, Sym graph);
  @Output @Add Sym getClass(Sym runtime, Sym out);
  @Output @Add Sym wait(Sym grads, Sym executor);
  @Output @Add Sym notify(Sym clone, Sym params);
  @Output @Add Sym notifyAll(Sym inputs, Sym create);
  @Output @Add Sym equals(Sym hashCode, Sym toString);
  @Output @Add Sym finalize(Sym getClass, Sym wait);
  @Dense(units = 4) Sym forward(Sym notify);
  @Dense(units = 4) Sym backward(Sym notifyAll);

  // Parameters: hash_code is hashCode(), auxiliary_states auxiliaryStates(), to_string
  // toString().
  @Output @Named Sym hash(Sym equals);
  @Output @Named Sym auxiliary(Sym finalize);
  @Output @Named Sym to(Sym forward);
  @Output @Named Sym a(Sym backward);
}
