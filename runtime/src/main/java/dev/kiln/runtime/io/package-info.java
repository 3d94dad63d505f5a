/**
 * Checkpoints in MXNet's own format: {@link dev.kiln.runtime.io.ParamsFile} writes and reads the
 * {@code .params} NDArray list in plain Java (validated before anything is allocated, written
 * atomically), and {@link dev.kiln.runtime.io.Checkpoint} saves and loads a model's symbol and
 * arrays as {@code prefix-symbol.json} and {@code prefix-0000.params}. Problems with a file are
 * {@link dev.kiln.runtime.io.CheckpointException}s naming the file.
 */
package dev.kiln.runtime.io;
