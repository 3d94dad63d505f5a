package dev.kiln.cli.launch;

import dev.kiln.runtime.dist.Node;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How a {@link Launcher} runs a process on another host: a command prefix with {@code {host}} in
 * it, such as {@code ssh -o BatchMode=yes {host}} (the default) or {@code ip netns exec {host}} (a
 * network namespace named by its address, as the tests use).
 *
 * <p>The launcher runs {@code <prefix with the host filled in> sh -s} and writes the process's
 * script to that shell's standard input: change to the working directory, print the shell's pid
 * ({@code KILN SHELL pid=...}), then {@code exec env NAME=VALUE ... command}. Reading the script
 * from standard input means no word is quoted twice: ssh joins its arguments into one line for the
 * remote login shell, while {@code ip netns exec} runs them as they are, and {@code sh -s} is the
 * same under both. The standard input stays open: the launched program halts when it closes ({@link
 * Node}), and closing it is how the launcher stops the process first, through ssh as well (ssh
 * passes the end of its input on to the remote command).
 *
 * <p>A process that does not halt is stopped through the same prefix: {@code kill -s TERM} (then
 * {@code KILL}) of its process group when it leads one (under ssh, sshd starts each command in a
 * session of its own, so the group holds everything the command started) and of its pid otherwise
 * ({@code ip netns exec} keeps the launcher's group, which must not be signalled).
 *
 * <p>Assumption: every host has the program at the same paths (the Java binary, the class path, the
 * working directory) as the launching machine.
 */
public final class RemoteShell {
  /** The template {@code launch} uses without {@code --remote-shell}. */
  public static final String DEFAULT = "ssh -o BatchMode=yes {host}";

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=:,+@%^-]+");

  private final String template;
  private final List<String> words;

  private RemoteShell(String template, List<String> words) {
    this.template = template;
    this.words = words;
  }

  /**
   * The remote shell of {@code template}: words split as a POSIX shell splits them (single and
   * double quotes, backslashes), one of them containing {@code {host}}.
   */
  public static RemoteShell parse(String template) {
    List<String> words = split(template);
    if (words.isEmpty()) {
      throw new IllegalArgumentException("--remote-shell is empty; e.g. " + DEFAULT);
    }
    if (words.stream().noneMatch(w -> w.contains("{host}"))) {
      throw new IllegalArgumentException(
          "--remote-shell '"
              + template
              + "' has no {host}: write where the host name goes, e.g. "
              + DEFAULT
              + " or ip netns exec {host}");
    }
    return new RemoteShell(template, List.copyOf(words));
  }

  /** The template as given. */
  public String template() {
    return template;
  }

  /** The command that starts a shell on {@code host} reading its script from standard input. */
  public List<String> command(String host) {
    List<String> command = new ArrayList<>();
    for (String w : words) {
      command.add(w.replace("{host}", host));
    }
    command.add("sh");
    command.add("-s");
    return command;
  }

  /**
   * The script that runs {@code command} in {@code directory} with {@code environment} added to the
   * remote shell's own.
   */
  public static String script(
      Path directory, Map<String, String> environment, List<String> command) {
    StringBuilder s = new StringBuilder();
    s.append("cd ").append(quote(directory.toString())).append(" || exit 127\n");
    s.append("echo \"KILN SHELL pid=$$\"\n");
    s.append("exec env");
    environment.forEach((k, v) -> s.append(' ').append(quote(k + "=" + v)));
    for (String word : command) {
      s.append(' ').append(quote(word));
    }
    return s.append('\n').toString();
  }

  /**
   * The script that sends {@code signal} ({@code TERM} or {@code KILL}) to the process group {@code
   * pid} leads, or to {@code pid} alone when it leads none.
   */
  public static String stopScript(long pid, String signal) {
    return "kill -s "
        + signal
        + " -- -"
        + pid
        + " 2>/dev/null || kill -s "
        + signal
        + " "
        + pid
        + " 2>/dev/null\nexit 0\n";
  }

  /** {@code word} as a POSIX shell reads it back: unchanged when plain, else single-quoted. */
  public static String quote(String word) {
    return PLAIN.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  /**
   * Splits {@code text} into words as a POSIX shell does (quotes and backslashes, no expansion).
   */
  static List<String> split(String text) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote == '\'') {
        if (c == '\'') {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (quote == '"') {
        if (c == '"') {
          quote = 0;
        } else if (c == '\\'
            && i + 1 < text.length()
            && "\"\\$`".indexOf(text.charAt(i + 1)) >= 0) {
          word.append(text.charAt(++i));
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == '\\' && i + 1 < text.length()) {
        word.append(text.charAt(++i));
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (quote != 0) {
      throw new IllegalArgumentException("--remote-shell '" + text + "' has an unclosed " + quote);
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }
}
