package dev.kiln.ops.rule;

/**
 * A broken rule of an operator: the message, the attribute at fault (or null) and the message
 * arguments. Thrown by an {@link dev.kiln.ops.Op}'s attribute check or shape rule deep inside its
 * arithmetic and caught by the phase that asked (the reader, the checker), which reports it on the
 * node; it never leaves that phase.
 */
public final class RuleError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The broken rule's message. */
  public final transient Message message;

  /** The attribute underlined, or null for the whole annotation. */
  public final String attribute;

  /** The message's arguments. */
  public final transient Object[] args;

  /** {@code message} with {@code args}, underlining {@code attribute} (or nothing, if null). */
  public RuleError(Message message, String attribute, Object... args) {
    super(message.id(), null, false, false);
    this.message = message;
    this.attribute = attribute;
    this.args = args;
  }

  /**
   * The message's text without the node it names first ({@code Net.y(): } in {@code Net.y(): cannot
   * reshape to ...}): the rule and what broke it, for a message that names the place its own way.
   */
  public String rule() {
    String full = message.text(args);
    String where = args.length == 0 ? "" : String.valueOf(args[0]) + ": ";
    return full.startsWith(where) ? full.substring(where.length()) : full;
  }
}
