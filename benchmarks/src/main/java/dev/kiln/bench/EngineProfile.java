package dev.kiln.bench;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import dev.kiln.runtime.mxnet.NativeLibrary;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * MXNet's own profiler over a stretch of training steps: how many times each function of MXNet's C
 * API was called and each operator ran on MXNet's engine, and for how long, counted by MXNet itself
 * (its aggregate statistics), so independently of Kiln's own binding. What a step costs beyond its
 * kernels shows as calls and operators the kernels' limit does not make (issue 38).
 */
final class EngineProfile {
  /** The few profiler functions of MXNet's C API, from the library Kiln loads. */
  interface ProfilerApi extends Library {
    int MXSetProcessProfilerConfig(int num, String[] keys, String[] vals, Pointer kvStore);

    int MXSetProcessProfilerState(int state, int profileProcess, Pointer kvStore);

    int MXAggregateProfileStatsPrintEx(
        PointerByReference out, int reset, int format, int sortBy, int ascending);

    String MXGetLastError();
  }

  /** One row of MXNet's statistics: a C API function or an operator, its count and its time. */
  record Entry(String section, String name, long count, double millis) {}

  private static final class Holder {
    static final ProfilerApi API = Native.load(NativeLibrary.path(), ProfilerApi.class);
  }

  private EngineProfile() {}

  /**
   * Runs {@code work} with MXNet's profiler on (every operator, C API calls included, aggregate
   * statistics only) and returns the statistics it gathered, keyed by section and name. {@code
   * work} must wait for MXNet to finish what it queued. The statistics are reset afterwards.
   */
  static Map<String, Entry> measure(Runnable work) {
    ProfilerApi api = Holder.API;
    check(
        api,
        api.MXSetProcessProfilerConfig(
            3,
            new String[] {"profile_all", "aggregate_stats", "filename"},
            // MXNet writes its trace to this file when the process ends: none is wanted.
            new String[] {"true", "true", "/dev/null"},
            null),
        "MXSetProcessProfilerConfig");
    check(api, api.MXSetProcessProfilerState(1, 0, null), "MXSetProcessProfilerState");
    try {
      work.run();
    } finally {
      check(api, api.MXSetProcessProfilerState(0, 0, null), "MXSetProcessProfilerState");
    }
    PointerByReference out = new PointerByReference();
    check(api, api.MXAggregateProfileStatsPrintEx(out, 1, 0, 0, 0), "MXAggregateProfileStats");
    return parse(out.getValue().getString(0));
  }

  private static void check(ProfilerApi api, int rc, String call) {
    if (rc != 0) {
      throw new IllegalStateException(call + " failed: " + api.MXGetLastError());
    }
  }

  /**
   * Reads MXNet's table format: a section's name on a line of its own, underlined with {@code =},
   * then a header, a dashed line and one row per entry: its name (which may hold spaces), then the
   * total count and the total, minimum, maximum and average milliseconds.
   */
  static Map<String, Entry> parse(String table) {
    Map<String, Entry> out = new LinkedHashMap<>();
    String section = null;
    String previous = "";
    for (String raw : table.split("\n")) {
      String line = raw.strip();
      if (line.startsWith("=")) {
        section = previous;
      } else if (section != null && !line.isEmpty() && !line.startsWith("-")) {
        String[] f = line.split("\\s+");
        if (f.length >= 6 && f[f.length - 5].matches("\\d+")) {
          String name = String.join(" ", java.util.Arrays.copyOf(f, f.length - 5));
          out.put(
              section + "/" + name,
              new Entry(
                  section,
                  name,
                  Long.parseLong(f[f.length - 5]),
                  Double.parseDouble(f[f.length - 4])));
        }
      }
      previous = line;
    }
    return out;
  }
}
