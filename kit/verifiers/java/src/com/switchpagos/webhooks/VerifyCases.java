package com.switchpagos.webhooks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Runs the verifier over the kit's test cases read from stdin (README, "Testing"). */
public final class VerifyCases {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String name = null;
    List<String> secrets = new ArrayList<>();
    Map<String, String> headers = new HashMap<>();
    long now = 0;
    byte[] body = new byte[0];
    for (String line; (line = in.readLine()) != null; ) {
      String[] p = line.split(" ", -1);
      switch (p[0]) {
        case "case" -> {
          name = p[1];
          secrets = new ArrayList<>();
          headers = new HashMap<>();
          now = 0;
          body = new byte[0];
        }
        case "secret" -> secrets.add(new String(Base64.getDecoder().decode(p[1]), StandardCharsets.UTF_8));
        case "now" -> now = Long.parseLong(p[1]);
        case "header" -> headers.put(p[1], new String(Base64.getDecoder().decode(p[2]), StandardCharsets.UTF_8));
        case "body" -> body = p.length > 1 ? Base64.getDecoder().decode(p[1]) : new byte[0];
        case "end" -> {
          Instant at = Instant.ofEpochSecond(now);
          WebhookVerifier v = new WebhookVerifier(secrets, Set.of(WebhookVerifier.Scheme.SPEC, WebhookVerifier.Scheme.STANDARD), 300, () -> at);
          try {
            v.verify(body, headers);
            System.out.println(name + " ok");
          } catch (WebhookVerifier.VerificationException e) {
            System.out.println(name + " fail " + e.reason());
          }
        }
        default -> {}
      }
    }
  }
}
