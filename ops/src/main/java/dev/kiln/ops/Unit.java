package dev.kiln.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * How one operator unit is found: the layer annotations that declare it and the operators of MXNet
 * symbol files that are it. Each unit holds its own ({@code static final Unit UNIT}); {@link Ops}
 * lists every unit once, and the annotation readers and the symbol-file table are made from that
 * list.
 *
 * @param annotations the readers of its annotations (none for an operator only files have)
 * @param files the symbol-file operators it reads
 * @param natives the MXNet operators it emits whose kernels have quirks Kiln works with
 */
record Unit(List<OpReader<?>> annotations, List<FileReader> files, List<Native> natives) {
  /** Copies the lists. */
  Unit {
    annotations = List.copyOf(annotations);
    files = List.copyOf(files);
    natives = List.copyOf(natives);
  }

  /** A unit declared by {@code readers}' annotations, read from no file yet. */
  static Unit of(OpReader<?>... readers) {
    return new Unit(List.of(readers), List.of(), List.of());
  }

  /** This unit, which emits the MXNet operators {@code kernels} with the quirks they declare. */
  Unit natives(Native... kernels) {
    List<Native> more = new ArrayList<>(natives);
    more.addAll(List.of(kernels));
    return new Unit(annotations, files, more);
  }

  /**
   * This unit also read from a symbol file's operator {@code name} (MXNet 1.9's), or any of its
   * {@code older} names, by {@code mapper}.
   */
  Unit file(String name, List<String> older, Function<FileAttrs, FileOps.Mapped> mapper) {
    List<FileReader> more = new ArrayList<>(files);
    more.add(new FileReader(name, older, mapper));
    return new Unit(annotations, more, natives);
  }

  /**
   * One symbol-file operator a unit reads.
   *
   * @param name its name in MXNet 1.9
   * @param older the names older MXNet versions wrote for it ({@code _Plus})
   * @param mapper what a node of it with given attributes is
   */
  record FileReader(String name, List<String> older, Function<FileAttrs, FileOps.Mapped> mapper) {
    /** Copies the older names. */
    FileReader {
      older = List.copyOf(older);
    }
  }
}
