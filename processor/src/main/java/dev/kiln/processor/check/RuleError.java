package dev.kiln.processor.check;

import dev.kiln.processor.diag.Message;

/**
 * A broken shape rule: the message, the attribute at fault (or null) and the message arguments.
 * Thrown by a rule deep inside its arithmetic and caught by {@link ModelChecker}, which reports it
 * on the node; it never leaves the check phase.
 */
final class RuleError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  final transient Message message;
  final String attribute;
  final transient Object[] args;

  /** {@code message} with {@code args}, underlining {@code attribute} (or nothing, if null). */
  RuleError(Message message, String attribute, Object... args) {
    super(message.id(), null, false, false);
    this.message = message;
    this.attribute = attribute;
    this.args = args;
  }
}
