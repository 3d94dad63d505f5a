package dev.kiln.serving;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A client process for {@link ServeTest} to kill: sends an infer request for one LeNet image to the
 * port in {@code args[0]}, all of it or (with {@code args[1]} {@code half}) half of its body,
 * prints {@code sent} and waits to be killed.
 */
public final class KilledClient {
  private KilledClient() {}

  /** Entry point: {@code PORT half|whole}. */
  public static void main(String[] args) throws Exception {
    StringBuilder body =
        new StringBuilder("{\"inputs\":[{\"name\":\"image\",\"shape\":[1,1,28,28],");
    body.append("\"datatype\":\"FP32\",\"data\":[");
    for (int i = 0; i < 784; i++) {
      body.append(i == 0 ? "" : ",").append(i % 13 / 13.0);
    }
    body.append("]}]}");
    String b = body.toString();
    String sent = args[1].equals("half") ? b.substring(0, b.length() / 2) : b;
    Socket s = new Socket("127.0.0.1", Integer.parseInt(args[0]));
    OutputStream out = s.getOutputStream();
    out.write(
        ("POST /v2/models/lenet/infer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: "
                + b.length()
                + "\r\n\r\n"
                + sent)
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    System.out.println("sent");
    System.out.flush();
    Thread.sleep(120_000);
    s.close();
  }
}
