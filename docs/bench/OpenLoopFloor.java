import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor of client CPU per request for an open loop on this machine: the least a JVM client can do for a Poisson
 * stream of streaming chat requests, to judge LatencyLab's {@code trust.cpu_per_request_ms} against. Raw sockets with
 * keep-alive, 64 platform threads each owning one connection, a dispatcher thread that wakes at each intended start
 * and queues it, a chunked-body decoder that stamps {@link System#nanoTime()} at each blank line ending an SSE event,
 * and (unless {@code --no-hiccup}) a thread that sleeps 1 ms in a loop as LatencyLab's hiccup meter does. No JSON,
 * no records, no files, no statistics beyond one array of first-event times (the first event of the
 * simulator's stream is its empty role chunk, so that time is not a TTFT).
 *
 * <p>Usage (JDK 21+, source launcher; run it with the JVM options of the {@code latencylab} launcher to compare like
 * with like): {@code java [JVM options] docs/bench/OpenLoopFloor.java RATE SECONDS [PORT] [--no-hiccup]}, RATE in
 * requests/s, SECONDS measured after a 3 s unmeasured warm-up at the same rate, PORT of an OpenAI-compatible server on
 * 127.0.0.1 (default 18383, e.g. {@code latencylab sim --profile zero-latency --port 18383} in another process).
 * Prints the requests measured, the process CPU (user + system, {@code OperatingSystemMXBean.getProcessCpuTime}) from
 * the first measured arrival to the last measured response ÷ requests in ms, the first SSE event's time from the intended start
 * P50/P99 in ms, and the sleeper's oversleep P99 in ms. Exits 1 with the exception on a connection or protocol failure.
 */
public final class OpenLoopFloor {
    private static final int CONNECTIONS = 64;
    private static final long WARMUP_SECONDS = 3;

    private static volatile boolean measuring;
    private static final long[] FIRST_EVENT_NANOS = new long[1_000_000];
    private static final AtomicInteger MEASURED = new AtomicInteger();
    private static final AtomicInteger DONE = new AtomicInteger();
    private static volatile Throwable failure;

    private OpenLoopFloor() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: java OpenLoopFloor.java RATE SECONDS [PORT] [--no-hiccup]");
            System.exit(2);
        }
        double rate = Double.parseDouble(args[0]);
        long seconds = Long.parseLong(args[1]);
        int port = args.length > 2 && !args[2].startsWith("--") ? Integer.parseInt(args[2]) : 18383;
        boolean hiccup = !Arrays.asList(args).contains("--no-hiccup");
        byte[] request = request(port);

        BlockingQueue<Long> due = new LinkedBlockingQueue<>();
        for (int i = 0; i < CONNECTIONS; i++) {
            Thread.ofPlatform().daemon().name("floor-request-" + i).start(() -> serve(due, request, port));
        }
        long[] oversleep = new long[(int) Math.min(Integer.MAX_VALUE - 8, (seconds + 10) * 1_000)];
        AtomicInteger slept = new AtomicInteger();
        if (hiccup) {
            Thread.ofPlatform().daemon().name("floor-sleeper").start(() -> {
                while (true) {
                    long before = System.nanoTime();
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                    int k;
                    if (measuring && (k = slept.getAndIncrement()) < oversleep.length) {
                        oversleep[k] = System.nanoTime() - before - 1_000_000L;
                    }
                }
            });
        }
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        Random random = new Random(42);
        int sent = dispatch(due, rate, WARMUP_SECONDS, random);
        awaitDone(sent);
        long cpu0 = os.getProcessCpuTime();
        long wall0 = System.nanoTime();
        measuring = true;
        int measured = dispatch(due, rate, seconds, random);
        awaitDone(sent + measured);
        long cpu1 = os.getProcessCpuTime();
        long wall1 = System.nanoTime();
        measuring = false;

        double wallS = (wall1 - wall0) / 1e9;
        System.out.printf("requests %d in %.2f s (%.1f req/s); process CPU %.0f ms; CPU per request %.3f ms; sleeper %s%n",
                measured, wallS, measured / wallS, (cpu1 - cpu0) / 1e6, (cpu1 - cpu0) / 1e6 / measured,
                hiccup ? "on" : "off");
        long[] first = Arrays.copyOf(FIRST_EVENT_NANOS, Math.min(MEASURED.get(), FIRST_EVENT_NANOS.length));
        Arrays.sort(first);
        System.out.printf("first event from intended start: P50 %.3f ms, P99 %.3f ms%n", at(first, 0.50) / 1e6,
                at(first, 0.99) / 1e6);
        if (hiccup) {
            long[] o = Arrays.copyOf(oversleep, Math.min(slept.get(), oversleep.length));
            Arrays.sort(o);
            System.out.printf("sleeper: %d wake-ups, oversleep P99 %.3f ms%n", o.length, at(o, 0.99) / 1e6);
        }
    }

    private static byte[] request(int port) {
        String prompt = "word ".repeat(64).trim();
        String body = "{\"model\":\"sim\",\"stream\":true,\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\""
                + prompt + "\"}]}";
        String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n";
        return (head + body).getBytes(StandardCharsets.UTF_8);
    }

    /** Queues a Poisson stream of intended starts (System.nanoTime) for {@code seconds}; returns how many. */
    private static int dispatch(BlockingQueue<Long> due, double rate, long seconds, Random random) {
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        long next = start;
        int n = 0;
        while (true) {
            next += (long) (-Math.log(1 - random.nextDouble()) / rate * 1e9);
            if (next >= end) {
                return n;
            }
            long now;
            while ((now = System.nanoTime()) < next) {
                LockSupport.parkNanos(next - now);
            }
            due.add(next);
            n++;
        }
    }

    private static void awaitDone(int n) throws InterruptedException {
        while (DONE.get() < n) {
            if (failure != null) {
                failure.printStackTrace();
                System.exit(1);
            }
            Thread.sleep(1);
        }
    }

    /** One connection: takes an intended start, writes the request, reads the chunked SSE body to its end. */
    private static void serve(BlockingQueue<Long> due, byte[] request, int port) {
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress("127.0.0.1", port));
            OutputStream out = s.getOutputStream();
            InputStream in = new BufferedInputStream(s.getInputStream(), 16_384);
            while (true) {
                long intended = due.take();
                boolean measured = measuring;
                out.write(request);
                out.flush();
                String status = readLine(in);
                if (!status.startsWith("HTTP/1.1 200")) {
                    throw new IOException("unexpected status line: " + status);
                }
                while (!readLine(in).isEmpty()) {
                    // headers: the server answers with Transfer-Encoding: chunked
                }
                long firstEvent = 0;
                int newlines = 0;
                while (true) {
                    int size = Integer.parseInt(readLine(in).trim(), 16);
                    if (size == 0) {
                        readLine(in);
                        break;
                    }
                    for (int i = 0; i < size; i++) {
                        int b = in.read();
                        if (b == '\n') {
                            if (++newlines == 2) { // a blank line ends an SSE event
                                newlines = 0;
                                if (firstEvent == 0) {
                                    firstEvent = System.nanoTime();
                                }
                            }
                        } else if (b != '\r') {
                            newlines = 0;
                        }
                    }
                    readLine(in);
                }
                if (measured) {
                    int k = MEASURED.getAndIncrement();
                    if (k < FIRST_EVENT_NANOS.length) {
                        FIRST_EVENT_NANOS[k] = firstEvent - intended;
                    }
                }
                DONE.incrementAndGet();
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b == -1) {
                throw new IOException("connection closed by the server");
            }
            if (b != '\r') {
                sb.append((char) b);
            }
        }
        return sb.toString();
    }

    private static long at(long[] sorted, double q) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * q))];
    }
}
