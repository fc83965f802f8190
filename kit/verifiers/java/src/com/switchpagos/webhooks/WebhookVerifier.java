package com.switchpagos.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies the switch's signed webhooks (SPEC 6) with the JDK only (17+).
 *
 * <p>Every delivery carries two signatures, both keyed by the endpoint secret exactly as issued
 * ({@code whsec_} + base64): {@code x-service-signature: sha256=<hex HMAC-SHA256(raw body, secret as
 * text)>} (SPEC 6), and the Standard Webhooks trio {@code webhook-id}, {@code webhook-timestamp},
 * {@code webhook-signature: v1,<base64 HMAC-SHA256("<id>.<timestamp>.<body>", base64-decoded secret)>},
 * whose timestamp rejects replays. Always verify the RAW body bytes as received.
 */
public final class WebhookVerifier {
  public static final String SIGNATURE_HEADER = "x-service-signature";
  public static final String EVENT_HEADER = "x-service-event";

  /** A signature the switch sends. */
  public enum Scheme {
    SPEC,
    STANDARD
  }

  /** A verification failure; {@link #reason()} is one of the names in the README. */
  public static final class VerificationException extends Exception {
    private final String reason;

    VerificationException(String reason) {
      super("webhook verification failed: " + reason);
      this.reason = reason;
    }

    public String reason() {
      return reason;
    }
  }

  private static final String PREFIX = "whsec_";
  private static final Pattern STANDARD_BASE64 =
      Pattern.compile("^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$");
  private static final Pattern DIGITS = Pattern.compile("^[0-9]{1,15}$");

  private final List<String> secrets;
  private final Set<Scheme> schemes;
  private final long toleranceSeconds;
  private final Supplier<Instant> clock;

  /** Both schemes, 5 minutes of tolerance, the system clock. */
  public WebhookVerifier(List<String> secrets) {
    this(secrets, Set.of(Scheme.SPEC, Scheme.STANDARD), 300, Instant::now);
  }

  /**
   * @param secrets the endpoint secret as issued, or several during a rotation overlap
   * @param schemes the signatures that must be present and valid
   */
  public WebhookVerifier(List<String> secrets, Set<Scheme> schemes, long toleranceSeconds, Supplier<Instant> clock) {
    this.secrets = secrets.stream().filter(s -> s != null && !s.isEmpty()).toList();
    this.schemes = Set.copyOf(schemes);
    this.toleranceSeconds = toleranceSeconds;
    this.clock = clock;
  }

  /** The Standard Webhooks key of a secret (README, "Secrets"). */
  public static byte[] standardKey(String secret) {
    String rest = secret.startsWith(PREFIX) ? secret.substring(PREFIX.length()) : "";
    if (!rest.isEmpty() && STANDARD_BASE64.matcher(rest).matches()) return Base64.getDecoder().decode(rest);
    return secret.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Verifies a delivery over its raw body; header names are matched without regard to case.
   *
   * @return the {@code webhook-id} of the delivery (null when only the SPEC scheme is checked)
   */
  public String verify(byte[] rawBody, Map<String, String> headers) throws VerificationException {
    if (rawBody == null) throw new VerificationException("body_not_raw");
    if (secrets.isEmpty()) throw new VerificationException("no_secret");
    Map<String, String> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    h.putAll(headers);

    if (schemes.contains(Scheme.SPEC)) {
      String given = h.get(SIGNATURE_HEADER);
      if (given == null || given.isBlank()) throw new VerificationException("missing_signature");
      byte[] g = given.trim().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
      boolean ok = false;
      for (String s : secrets) {
        String expected = "sha256=" + HexFormat.of().formatHex(hmac(s.getBytes(StandardCharsets.UTF_8), rawBody));
        ok |= MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), g);
      }
      if (!ok) throw new VerificationException("bad_signature");
    }
    String id = h.get("webhook-id");
    if (schemes.contains(Scheme.STANDARD)) {
      String ts = h.get("webhook-timestamp");
      String sig = h.get("webhook-signature");
      if (id == null || id.isEmpty() || ts == null || sig == null || sig.isEmpty())
        throw new VerificationException("missing_standard_headers");
      if (!DIGITS.matcher(ts).matches()) throw new VerificationException("bad_timestamp");
      if (Math.abs(clock.get().getEpochSecond() - Long.parseLong(ts)) > toleranceSeconds)
        throw new VerificationException("stale_timestamp");
      byte[] head = (id + "." + ts + ".").getBytes(StandardCharsets.UTF_8);
      byte[] signed = new byte[head.length + rawBody.length];
      System.arraycopy(head, 0, signed, 0, head.length);
      System.arraycopy(rawBody, 0, signed, head.length, rawBody.length);
      List<byte[]> expected = new ArrayList<>();
      for (String s : secrets)
        expected.add(("v1," + Base64.getEncoder().encodeToString(hmac(standardKey(s), signed))).getBytes(StandardCharsets.UTF_8));
      boolean ok = false;
      // Several space-separated signatures may come (the sender's secrets during a rotation).
      for (String candidate : sig.split(" "))
        for (byte[] e : expected) ok |= MessageDigest.isEqual(e, candidate.getBytes(StandardCharsets.UTF_8));
      if (!ok) throw new VerificationException("bad_standard_signature");
    }
    return id;
  }

  private static byte[] hmac(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException(e);
    }
  }
}
