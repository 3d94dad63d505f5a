package dev.kiln.runtime.io;

import ai.djl.mxnet.jna.JnaUtils;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.mxnet.TestHandles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** MXNet's own {@code MXNDArraySave}/{@code MXNDArrayLoad}, for comparing with Kiln's files. */
public final class MxnetFiles {
  private MxnetFiles() {}

  /** Saves {@code arrays} with {@code MXNDArraySave} as new MXNet arrays. */
  public static void save(Path file, List<NamedArray> arrays) {
    save(
        file,
        arrays.stream().map(NamedArray::key).toList(),
        arrays.stream().map(NamedArray::shape).toList(),
        arrays.stream().map(NamedArray::data).toList());
  }

  /**
   * Saves arrays {@code i} of shape {@code shapes[i]} and values {@code values[i]} under key {@code
   * keys[i]}, whatever the key (Gluon's {@code save_parameters} writes plain names), with {@code
   * MXNDArraySave}.
   */
  public static void save(Path file, List<String> names, List<Shape> shapes, List<float[]> values) {
    List<Tensor> tensors = new ArrayList<>();
    try {
      Pointer[] handles = new Pointer[names.size()];
      String[] keys = new String[names.size()];
      for (int i = 0; i < handles.length; i++) {
        Tensor t = Tensor.zeros(shapes.get(i));
        tensors.add(t);
        t.copyFrom(values.get(i));
        handles[i] = TestHandles.pointer(t.handle());
        keys[i] = names.get(i);
      }
      Mx.check(
          Mx.api().MXNDArraySave(file.toString(), handles.length, handles, keys), "MXNDArraySave");
    } finally {
      tensors.forEach(Tensor::close);
    }
  }

  /** Loads {@code file} with {@code MXNDArrayLoad}; throws MXNet's error if it refuses. */
  public static List<NamedArray> load(Path file) {
    IntByReference n = new IntByReference();
    PointerByReference arrays = new PointerByReference();
    IntByReference nNames = new IntByReference();
    PointerByReference names = new PointerByReference();
    Mx.check(Mx.api().MXNDArrayLoad(file.toString(), n, arrays, nNames, names), "MXNDArrayLoad");
    Pointer[] handles =
        n.getValue() == 0 ? new Pointer[0] : arrays.getValue().getPointerArray(0, n.getValue());
    String[] keys = Mx.strings(names, nNames.getValue());
    List<NamedArray> out = new ArrayList<>();
    for (int i = 0; i < handles.length; i++) {
      try (Tensor t = Tensor.wrapOwned(TestHandles.adopt(handles[i]))) {
        out.add(new NamedArray(keys[i], t.shape(), t.toFloatArray()));
      }
    }
    return out;
  }

  /**
   * Runs {@code body} with MXNet's NumPy shape semantics off, as in classic MXNet, then turns them
   * globally on again, as DJL's engine (and so Kiln) runs MXNet.
   */
  static <T> T withNumpyShapeOff(Callable<T> body) throws Exception {
    Mx.api();
    JnaUtils.setNumpyMode(JnaUtils.NumpyMode.OFF);
    try {
      return body.call();
    } finally {
      JnaUtils.setNumpyMode(JnaUtils.NumpyMode.GLOBAL_ON);
    }
  }

  /**
   * Runs {@code body} with NumPy shape semantics on for this thread only, as Python's {@code
   * npx.set_np()} turns them on, then turns them globally on again.
   */
  static <T> T withThreadLocalNumpyShape(Callable<T> body) throws Exception {
    Mx.api();
    JnaUtils.setNumpyMode(JnaUtils.NumpyMode.OFF);
    JnaUtils.setNumpyMode(JnaUtils.NumpyMode.THREAD_LOCAL_ON);
    try {
      return body.call();
    } finally {
      JnaUtils.setNumpyMode(JnaUtils.NumpyMode.GLOBAL_ON);
    }
  }

  /** MXNet's current NumPy shape mode: 0 off, 1 thread-local on, 2 global on. */
  static int numpyShapeMode() {
    IntByReference mode = new IntByReference();
    Mx.check(Mx.api().MXIsNumpyShape(mode), "MXIsNumpyShape");
    return mode.getValue();
  }
}
