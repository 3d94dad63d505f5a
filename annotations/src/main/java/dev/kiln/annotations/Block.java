package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A block of layers written once, as a {@code @Model} interface of its own with one {@code @Input}
 * and one output (its last node), used as a node of another model {@link #repeat()} times in a row:
 *
 * <pre>{@code
 * @Model
 * interface EncoderBlock {
 *   @Input(shape = {BATCH, 17, 64}) Sym x();
 *   @LayerNorm Sym norm(Sym x);
 *   @MultiHeadAttention(heads = 4) Sym attention(Sym norm);
 *   @Add Sym mixed(Sym x, Sym attention);
 *   // ...
 * }
 *
 * @Block(value = EncoderBlock.class, repeat = 4) Sym encoder(Sym tokens);
 * }</pre>
 *
 * <p>Kiln writes the block's nodes into the model once per copy, copy {@code i} of node {@code
 * norm} as node {@code encoder<i>_norm} with parameters of its own ({@code encoder0_norm_gamma},
 * {@code params().encoder0NormGamma()}). Copy 0 reads the node's one parameter, which must have the
 * shape the block's input declares ({@code BATCH} matches any batch, {@code STEPS} any number of
 * steps); each later copy reads the copy before it, so with {@code repeat} above 1 the block's
 * output must have its input's shape. The node's output is the last copy's. Shapes are checked and
 * listed per copy, and the block's own {@code XModel} is generated too, to try it alone.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Block {
  /** The block: a {@code @Model} interface with one {@code @Input} and one output. */
  Class<?> value();

  /** How many copies, one after the other, each with its own parameters; positive. */
  int repeat() default 1;
}
