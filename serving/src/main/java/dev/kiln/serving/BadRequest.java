package dev.kiln.serving;

/**
 * A request the server refuses, with the HTTP status to answer and a message that names what was
 * expected and what came.
 */
final class BadRequest extends Exception {
  private static final long serialVersionUID = 1L;

  /** The HTTP status: 400, 404, 405 or 503. */
  final int status;

  BadRequest(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  /** A 400 with {@code message}. */
  static BadRequest of(String message) {
    return new BadRequest(400, message);
  }
}
