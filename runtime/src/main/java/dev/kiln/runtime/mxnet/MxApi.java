package dev.kiln.runtime.mxnet;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.Buffer;

/**
 * The part of MXNet's C API ({@code include/mxnet/c_api.h}, 1.9.1) that Kiln calls, declared with
 * plain JNA types. Handle arrays ({@code T*}) are {@code Pointer[]}, string arrays are {@code
 * String[]}, {@code uint32_t} is {@code int} and {@code size_t} is {@code long} (LP64).
 *
 * <p>Every function returns 0 on success and -1 on failure, with the reason in {@link
 * #MXGetLastError()}. Call through {@link Mx}, which checks the code. Only this package calls it
 * (and, until it moves onto the typed handles, the graph layer): the rest of Kiln holds {@link
 * NDArrayHandle}s, {@link ExecutorHandle}s, {@link KvStoreHandle}s and {@link PreparedOp}s.
 */
public interface MxApi extends Library {
  String MXGetLastError();

  int MXGetVersion(IntByReference out);

  int MXListAllOpNames(IntByReference outSize, PointerByReference outArray);

  int MXRandomSeed(int seed);

  int MXSetNumOMPThreads(int threads);

  int MXIsNumpyShape(IntByReference out);

  int MXSetIsNumpyShape(int isNpShape, IntByReference previous);

  // --- engine --------------------------------------------------------------------------

  /**
   * Pushes the native function {@code syncFunc}, {@code void (*)(void* runContext, void* param)},
   * to MXNet's engine, to run once the arrays {@code constNds} may be read and {@code mutableNds}
   * written; {@code ctx} points at a {@code Context} ({@code int32} device type, {@code int32} id),
   * {@code prop} at an {@code int32} {@code FnProperty} or is null. The native function {@code
   * deleter}, {@code void (*)(void* param)}, runs once the operation is done, also when MXNet
   * skipped it because an earlier operation on its arrays failed.
   */
  int MXEnginePushSyncND(
      Pointer syncFunc,
      Pointer param,
      Pointer deleter,
      Pointer ctx,
      Pointer[] constNds,
      int numConstNds,
      Pointer[] mutableNds,
      int numMutableNds,
      Pointer prop,
      int priority,
      String oprName);

  /**
   * Same C function, with the arrays as native blocks of handles and the operation's name as a C
   * string, all kept by the caller: nothing is converted per call.
   */
  int MXEnginePushSyncND(
      Pointer syncFunc,
      Pointer param,
      Pointer deleter,
      Pointer ctx,
      Pointer constNds,
      int numConstNds,
      Pointer mutableNds,
      int numMutableNds,
      Pointer prop,
      int priority,
      Pointer oprName);

  // --- operators -----------------------------------------------------------------------

  int NNGetOpHandle(String opName, PointerByReference opOut);

  int MXImperativeInvoke(
      Pointer creator,
      int numInputs,
      Pointer[] inputs,
      IntByReference numOutputs,
      PointerByReference outputs,
      int numParams,
      String[] paramKeys,
      String[] paramVals);

  /** Same C function, with the inputs and outputs passed as native blocks the caller keeps. */
  int MXImperativeInvoke(
      Pointer creator,
      int numInputs,
      Pointer inputs,
      IntByReference numOutputs,
      PointerByReference outputs,
      int numParams,
      String[] paramKeys,
      String[] paramVals);

  /**
   * Same C function, with the inputs, the outputs and the attributes' keys and values (arrays of C
   * strings) passed as native blocks the caller keeps: nothing is converted per call.
   */
  int MXImperativeInvoke(
      Pointer creator,
      int numInputs,
      Pointer inputs,
      IntByReference numOutputs,
      PointerByReference outputs,
      int numParams,
      Pointer paramKeys,
      Pointer paramVals);

  // --- symbols -------------------------------------------------------------------------

  int MXSymbolCreateVariable(String name, PointerByReference out);

  int MXSymbolCreateAtomicSymbol(
      Pointer creator, int numParam, String[] keys, String[] vals, PointerByReference out);

  int MXSymbolCompose(Pointer sym, String name, int numArgs, String[] keys, Pointer[] args);

  int MXSymbolCreateGroup(int numSymbols, Pointer[] symbols, PointerByReference out);

  int MXSymbolListArguments(Pointer sym, IntByReference outSize, PointerByReference outStrArray);

  int MXSymbolListOutputs(Pointer sym, IntByReference outSize, PointerByReference outStrArray);

  int MXSymbolListAuxiliaryStates(
      Pointer sym, IntByReference outSize, PointerByReference outStrArray);

  int MXSymbolInferShapeEx(
      Pointer sym,
      int numArgs,
      String[] keys,
      int[] argIndPtr,
      int[] argShapeData,
      IntByReference inShapeSize,
      PointerByReference inShapeNdim,
      PointerByReference inShapeData,
      IntByReference outShapeSize,
      PointerByReference outShapeNdim,
      PointerByReference outShapeData,
      IntByReference auxShapeSize,
      PointerByReference auxShapeNdim,
      PointerByReference auxShapeData,
      IntByReference complete);

  int MXSymbolGetInternals(Pointer sym, PointerByReference out);

  /** A new symbol for output {@code index} of {@code sym}; the caller frees it. */
  int MXSymbolGetOutput(Pointer sym, int index, PointerByReference out);

  int MXSymbolSaveToJSON(Pointer sym, PointerByReference outJson);

  int MXSymbolCreateFromJSON(String json, PointerByReference out);

  int MXSymbolFree(Pointer sym);

  int MXReducePrecisionSymbol(
      Pointer sym,
      PointerByReference out,
      int numArgs,
      int[] argTypes,
      int numIndPtr,
      int[] indPtr,
      int[] targetDtype,
      int castOptionalParams,
      int numTargetOps,
      int numFp32Ops,
      int numWidestOps,
      int numConditionalOps,
      int numExcluded,
      int numModelParams,
      String[] targetOps,
      String[] fp32Ops,
      String[] widestOps,
      String[] conditionalOps,
      String[] excluded,
      String[] conditionalParamNames,
      String[] conditionalParamValues,
      String[] modelParams,
      String[] argNames);

  // --- graph passes: fusion and quantisation -----------------------------------------------

  /**
   * A copy of {@code sym} with every subgraph property of backend {@code backend} applied (e.g.
   * {@code MKLDNN}: convolution with batch norm, activation and sum, fully connected with an
   * element-wise activation; {@code MKLDNN_QUANTIZE}: the same for quantisation).
   */
  int MXGenBackendSubgraph(Pointer sym, String backend, PointerByReference out);

  /**
   * The int8 version of {@code sym}: every operator with a quantised kernel, except those named in
   * {@code excludedSymbols} or of a type in {@code excludedOps}, runs quantised; {@code
   * outCalibNames} lists the outputs whose ranges calibration should measure.
   */
  int MXQuantizeSymbol(
      Pointer sym,
      PointerByReference out,
      IntByReference devType,
      int numExcludedSymbols,
      String[] excludedSymbols,
      int numExcludedOps,
      String[] excludedOps,
      int numOffline,
      String[] offlineParams,
      String quantizedDtype,
      boolean calibQuantize,
      String quantizeMode,
      String quantizeGranularity,
      IntByReference outNumCalibNames,
      PointerByReference outCalibNames);

  /** A copy of quantised {@code qsym} with the measured ranges of the named outputs set. */
  int MXSetCalibTableToQuantizedSymbol(
      Pointer qsym,
      int numLayers,
      String[] layerNames,
      float[] lowQuantiles,
      float[] highQuantiles,
      PointerByReference out);

  // --- executors -----------------------------------------------------------------------

  int MXExecutorBindEX(
      Pointer sym,
      int devType,
      int devId,
      int numMapKeys,
      String[] mapKeys,
      int[] mapDevTypes,
      int[] mapDevIds,
      int len,
      Pointer[] inArgs,
      Pointer[] argGradStore,
      int[] gradReqType,
      int auxStatesLen,
      Pointer[] auxStates,
      Pointer sharedExec,
      PointerByReference out);

  int MXExecutorForward(Pointer exec, int isTrain);

  int MXExecutorBackwardEx(Pointer exec, int len, Pointer[] headGrads, int isTrain);

  /** Same C function, with the head gradients as a native block of handles the caller keeps. */
  int MXExecutorBackwardEx(Pointer exec, int len, Pointer headGrads, int isTrain);

  int MXExecutorOutputs(Pointer exec, IntByReference outSize, PointerByReference out);

  int MXExecutorFree(Pointer exec);

  /** The symbol an executor runs, after the graph passes MXNet applied at bind. */
  int MXExecutorGetOptimizedSymbol(Pointer exec, PointerByReference out);

  // --- arrays --------------------------------------------------------------------------

  int MXNDArrayCreateEx(
      int[] shape,
      int ndim,
      int devType,
      int devId,
      int delayAlloc,
      int dtype,
      PointerByReference out);

  int MXNDArraySyncCopyFromCPU(Pointer handle, float[] data, long size);

  int MXNDArraySyncCopyFromCPU(Pointer handle, Buffer data, long size);

  int MXNDArraySyncCopyToCPU(Pointer handle, float[] data, long size);

  int MXNDArraySyncCopyToCPU(Pointer handle, Buffer data, long size);

  int MXNDArraySyncCopyFromNDArray(Pointer dst, Pointer src, int i);

  /**
   * The array's data pointer; an array in a oneDNN layout is first reordered back to the default
   * row-major layout (and waited for), which is what Kiln calls it for.
   */
  int MXNDArrayGetData(Pointer handle, PointerByReference outData);

  int MXNDArrayGetShapeEx(Pointer handle, IntByReference outDim, PointerByReference outData);

  int MXNDArrayGetDType(Pointer handle, IntByReference outDtype);

  int MXNDArraySlice(Pointer handle, int sliceBegin, int sliceEnd, PointerByReference out);

  int MXNDArrayReshape(Pointer handle, int ndim, int[] dims, PointerByReference out);

  int MXNDArrayWaitToRead(Pointer handle);

  int MXNDArrayWaitAll();

  int MXNDArrayFree(Pointer handle);

  int MXNDArraySave(String fname, int numArgs, Pointer[] args, String[] keys);

  int MXNDArrayLoad(
      String fname,
      IntByReference outSize,
      PointerByReference outArr,
      IntByReference outNameSize,
      PointerByReference outNames);

  // --- key-value store (data parallelism) ----------------------------------------------------

  /** {@code MXKVStoreUpdater}: merges a pushed value into the stored one. */
  interface KvUpdater extends com.sun.jna.Callback {
    /** Called with the key, the pushed value and the stored value (the updater frees both). */
    void invoke(int key, Pointer recv, Pointer local, Pointer handle);
  }

  /** {@code MXKVStoreStrUpdater}: as {@link KvUpdater}, for string keys. */
  interface KvStrUpdater extends com.sun.jna.Callback {
    /** Called with the key, the pushed value and the stored value (the updater frees both). */
    void invoke(String key, Pointer recv, Pointer local, Pointer handle);
  }

  /** {@code MXKVStoreServerController}: a command a worker sent to the servers. */
  interface KvController extends com.sun.jna.Callback {
    /** Called on a server's thread with the command's head and body. */
    void invoke(int head, String body, Pointer handle);
  }

  int MXInitPSEnv(int numVars, String[] keys, String[] vals);

  int MXKVStoreCreate(String type, PointerByReference out);

  int MXKVStoreFree(Pointer handle);

  int MXKVStoreInit(Pointer handle, int num, int[] keys, Pointer[] vals);

  int MXKVStorePush(Pointer handle, int num, int[] keys, Pointer[] vals, int priority);

  int MXKVStorePull(Pointer handle, int num, int[] keys, Pointer[] vals, int priority);

  int MXKVStorePushPull(
      Pointer handle,
      int vnum,
      int[] vkeys,
      int onum,
      int[] okeys,
      Pointer[] vals,
      Pointer[] outs,
      int priority);

  int MXKVStoreSetUpdater(Pointer handle, KvUpdater updater, Pointer updaterHandle);

  int MXKVStoreSetUpdaterEx(
      Pointer handle, KvUpdater updater, KvStrUpdater strUpdater, Pointer updaterHandle);

  int MXKVStoreGetType(Pointer handle, PointerByReference type);

  int MXKVStoreGetRank(Pointer handle, IntByReference ret);

  int MXKVStoreGetGroupSize(Pointer handle, IntByReference ret);

  int MXKVStoreIsWorkerNode(IntByReference ret);

  int MXKVStoreIsServerNode(IntByReference ret);

  int MXKVStoreIsSchedulerNode(IntByReference ret);

  int MXKVStoreBarrier(Pointer handle);

  int MXKVStoreSetBarrierBeforeExit(Pointer handle, int barrierBeforeExit);

  int MXKVStoreRunServer(Pointer handle, KvController controller, Pointer controllerHandle);

  int MXKVStoreSendCommmandToServers(Pointer handle, int cmdId, String cmdBody);

  int MXKVStoreSetGradientCompression(Pointer handle, int num, String[] keys, String[] vals);

  int MXKVStoreGetNumDeadNode(Pointer handle, int nodeId, IntByReference number, int timeoutSec);
}
