import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;

/**
 * Readiness probe for infra/up.sh: talks to the broker with the real Kafka AdminClient and
 * succeeds once describeCluster() returns a controller and at least one broker, listTopics()
 * answers and the group coordinator is available. The last step (a FindCoordinator via
 * listConsumerGroupOffsets) also creates __consumer_offsets, so the first consumer group of
 * a test does not meet "The group coordinator is not available".
 * Usage: java -cp 'libs/*:probe' KafkaReady host:port timeoutSeconds
 * Exit 0 = ready, 1 = timed out.
 */
public final class KafkaReady {
  public static void main(String[] args) throws Exception {
    String bootstrap = args.length > 0 ? args[0] : "127.0.0.1:9092";
    long timeoutMs = (args.length > 1 ? Long.parseLong(args[1]) : 120) * 1000L;
    long deadline = System.currentTimeMillis() + timeoutMs;
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "infra-ready-probe");
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
    p.put(AdminClientConfig.RECONNECT_BACKOFF_MS_CONFIG, "200");
    p.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
    String last = "no attempt";
    try (Admin admin = Admin.create(p)) {
      while (System.currentTimeMillis() < deadline) {
        try {
          DescribeClusterResult r = admin.describeCluster();
          int brokers = r.nodes().get(5, TimeUnit.SECONDS).size();
          boolean controller = r.controller().get(5, TimeUnit.SECONDS) != null;
          admin.listTopics().names().get(5, TimeUnit.SECONDS);
          if (brokers > 0 && controller) {
            admin.listConsumerGroupOffsets("infra-ready-probe")
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            System.out.println("kafka ready: " + brokers + " broker(s), cluster " + r.clusterId().get());
            return;
          }
          last = "brokers=" + brokers + " controller=" + controller;
        } catch (Exception e) {
          last = String.valueOf(e.getCause() != null ? e.getCause() : e);
        }
        Thread.sleep(500);
      }
    }
    System.err.println("kafka not ready after " + timeoutMs / 1000 + "s: " + last);
    System.exit(1);
  }
}
