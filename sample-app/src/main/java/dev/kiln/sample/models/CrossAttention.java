package dev.kiln.sample.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Add;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.FreeDim;
import dev.kiln.annotations.From;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.MultiHeadAttention;
import dev.kiln.annotations.Sym;

/**
 * A decoder layer over two sequences of different lengths: each of the {@code T} target steps
 * attends, with four heads, over the {@code S} steps of an encoded source, then a residual sum,
 * layer norm and a feed-forward layer; both lengths are free dimensions, so one model (one set of
 * weights) reads any pair of lengths, and the compiler checks that the sum adds {@code [BATCH, T,
 * 32]} to {@code [BATCH, T, 32]}, not to the source's {@code S} steps.
 */
@Model
public interface CrossAttention {
  /** The target sequence's length. */
  @FreeDim int T = -10;

  /** The source sequence's length. */
  @FreeDim int S = -11;

  /** The target so far, 12 features a step. */
  @Input(shape = {BATCH, T, 12})
  Sym target();

  /** The source, 20 features a step. */
  @Input(shape = {BATCH, S, 20})
  Sym source();

  @Dense(units = 32, flatten = false)
  Sym queries(Sym target);

  @Dense(units = 32, flatten = false, activation = Act.TANH)
  Sym encoded(Sym source);

  /** {@code [BATCH, T, 32]}: each target step's mix of the source's steps. */
  @MultiHeadAttention(heads = 4)
  Sym attended(Sym queries, @From("encoded") Sym key, @From("encoded") Sym value);

  @Add
  Sym residual(Sym queries, Sym attended);

  @LayerNorm
  Sym norm(Sym residual);

  /** {@code [BATCH, T, 8]}. */
  @Dense(units = 8, flatten = false)
  Sym out(Sym norm);
}
