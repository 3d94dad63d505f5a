/**
 * Inference-only models: {@link dev.kiln.runtime.infer.Predictor} binds a symbol over its own copy
 * of the weights without gradients, fused by MXNet's oneDNN graph pass ({@link
 * dev.kiln.runtime.infer.FusedNode} reports what it fused), and saves and loads itself as an MXNet
 * checkpoint; {@link dev.kiln.runtime.infer.Quantizer} turns one into an int8 model with MXNet's
 * post-training quantisation flow. Nothing here trains, and nothing here speaks HTTP.
 */
package dev.kiln.runtime.infer;
