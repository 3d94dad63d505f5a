package dev.kiln.cli.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The machines of a job and where its processes go: a hosts file lists one {@code host[:slots]} a
 * line ({@code #} starts a comment), the scheduler's host first.
 *
 * <p>Placement: the scheduler on the first host; server {@code i} on host {@code i} round the list;
 * workers round the list too, skipping a host once it runs as many workers as its {@code slots} (a
 * host without {@code :slots} takes any number, {@code :0} none: a host for the scheduler and
 * servers only). So {@code a:0}, {@code b}, {@code c} with one server and two workers puts the
 * scheduler and the server on {@code a} and a worker on each of {@code b} and {@code c}.
 *
 * @param hosts the hosts in file order
 */
public record Hosts(List<Host> hosts) {
  private static final Pattern LINE = Pattern.compile("([A-Za-z0-9_.\\-]+)(?::(\\d+))?");

  /**
   * One host of the file.
   *
   * @param name a host name or address, as the remote shell and the other hosts reach it
   * @param slots the most workers it runs; -1 for no limit
   */
  public record Host(String name, int slots) {}

  /** Checks that there is a host and copies the list. */
  public Hosts {
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException("a job needs at least one host");
    }
    hosts = List.copyOf(hosts);
  }

  /**
   * The hosts of {@code file}; a line that is not {@code host[:slots]} is refused with its number.
   */
  public static Hosts read(Path file) throws IOException {
    return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
  }

  /** The hosts of the lines of a hosts file named {@code source} in messages. */
  public static Hosts parse(List<String> lines, String source) {
    List<Host> hosts = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      int hash = line.indexOf('#');
      String text = (hash >= 0 ? line.substring(0, hash) : line).strip();
      if (text.isEmpty()) {
        continue;
      }
      Matcher m = LINE.matcher(text);
      if (!m.matches()) {
        throw new IllegalArgumentException(
            source
                + ":"
                + (i + 1)
                + ": '"
                + text
                + "' is not host or host:slots (a name or address, then the most workers it"
                + " runs)");
      }
      hosts.add(new Host(m.group(1), m.group(2) == null ? -1 : Integer.parseInt(m.group(2))));
    }
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException(source + " lists no host");
    }
    return new Hosts(hosts);
  }

  /**
   * Where each process of a job goes.
   *
   * @param scheduler the scheduler's host
   * @param servers server {@code i}'s host, by start order
   * @param workers the host of the {@code i}-th worker started (its rank comes from the scheduler)
   */
  public record Placement(String scheduler, List<String> servers, List<String> workers) {}

  /**
   * Places the scheduler, {@code servers} servers and {@code workers} workers as the class comment
   * says; refuses more workers than the hosts' slots.
   */
  public Placement place(int workers, int servers) {
    List<String> serverHosts = new ArrayList<>();
    for (int i = 0; i < servers; i++) {
      serverHosts.add(hosts.get(i % hosts.size()).name());
    }
    int[] used = new int[hosts.size()];
    List<String> workerHosts = new ArrayList<>();
    int next = 0;
    for (int w = 0; w < workers; w++) {
      int tried = 0;
      while (tried < hosts.size() && full(next, used)) {
        next = (next + 1) % hosts.size();
        tried++;
      }
      if (tried == hosts.size()) {
        throw new IllegalArgumentException(
            workers
                + " workers but the hosts have slots for "
                + w
                + " ("
                + describe()
                + "); raise a host's :slots or start fewer workers");
      }
      used[next]++;
      workerHosts.add(hosts.get(next).name());
      next = (next + 1) % hosts.size();
    }
    return new Placement(hosts.get(0).name(), serverHosts, workerHosts);
  }

  private boolean full(int host, int[] used) {
    int slots = hosts.get(host).slots();
    return slots >= 0 && used[host] >= slots;
  }

  /** The hosts as a file would list them, on one line. */
  public String describe() {
    return String.join(
        ", ",
        hosts.stream().map(h -> h.slots() < 0 ? h.name() : h.name() + ":" + h.slots()).toList());
  }
}
