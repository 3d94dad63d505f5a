package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Add;
import dev.kiln.annotations.FreeDim;
import dev.kiln.annotations.From;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.MultiHeadAttention;
import dev.kiln.annotations.Sym;

/**
 * Test model: a narrow cross-attention of {@code T} query steps over {@code S} key steps, both free,
 * with a residual sum, small enough for finite differences.
 */
@Model
public interface TwoLengths {
  @FreeDim int T = -10;

  @FreeDim int S = -11;

  @Input(shape = {BATCH, T, 4})
  Sym query();

  @Input(shape = {BATCH, S, 4})
  Sym memory();

  @MultiHeadAttention(heads = 2)
  Sym attended(Sym query, @From("memory") Sym key, @From("memory") Sym value);

  @Add
  Sym sum(Sym query, Sym attended);
}
