package org.latencylab.engine.load;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An open loop without caps shares its schedule with its request threads (a thread that ended a request claims the
 * next arrival and sends it itself; the dispatcher sends what nobody claimed in time). Against a real HTTP server on
 * loopback: every arrival of the schedule is sent exactly once, at its own intended start, whichever thread sends it.
 */
class SharedScheduleTest extends LoopbackLoadTest {

    private static List<Long> sortedIntended(TestContext ctx) {
        return ctx.records().stream().map(RequestRecord::intendedStartNanos).sorted().toList();
    }

    @Test
    void everyArrivalOfAPoissonScheduleIsSentOnceAtItsOwnOffset() throws Exception {
        server.delayMillis = () -> 1;
        LoadSpec spec = LoadSpec.builder().rate(400.0).arrival(ArrivalProcess.POISSON).seed(7L)
                .duration(Duration.ofMillis(1500)).stream(false).build();
        LoadResult r = new LoadStepRunner().run(spec, "poisson", ctx);

        // the same schedule, drawn here: its offsets before the end of the duration
        ArrivalSchedule schedule = new ArrivalSchedule(spec.rateProfile(), ArrivalProcess.POISSON, 1, 7L);
        List<Long> offsets = new ArrayList<>();
        for (long o = schedule.next(); o < spec.duration().toNanos(); o = schedule.next()) {
            offsets.add(o);
        }
        LoadStepRunnerTest.assertAccounting(r, ctx);
        assertThat(r.totals().stopReason()).isEqualTo("duration");
        assertThat(r.totals().sent()).isEqualTo(offsets.size());
        assertThat(r.totals().succeeded()).isEqualTo(offsets.size());
        List<Long> intended = sortedIntended(ctx);
        long origin = intended.get(0) - offsets.get(0);
        for (int i = 0; i < offsets.size(); i++) {
            assertThat(intended.get(i) - origin).as("arrival %d", i).isEqualTo(offsets.get(i));
        }
    }

    @Test
    void arrivalsDueWhileEveryRequestThreadIsBusyAreSentOnTimeByTheDispatcher() throws Exception {
        // 40 req/s for 1 s: the step puts 4 request threads to claiming arrivals (LoadStepRunner.expectedInFlight),
        // each request takes 300 ms, so about 12 are in flight: most arrivals come due while all 4 threads wait for
        // their responses, and only the dispatcher can send them on time
        server.delayMillis = () -> 300;
        LoadSpec spec = LoadSpec.builder().rate(40.0).arrival(ArrivalProcess.CONSTANT)
                .duration(Duration.ofSeconds(1)).stream(false).build();
        assertThat(LoadStepRunner.expectedInFlight(spec)).isEqualTo(4);
        LoadResult r = new LoadStepRunner().run(spec, "busy", ctx);

        LoadStepRunnerTest.assertAccounting(r, ctx);
        assertThat(r.totals().sent()).isEqualTo(40);
        assertThat(r.totals().succeeded()).isEqualTo(40);
        List<Long> intended = sortedIntended(ctx);
        for (int i = 1; i < intended.size(); i++) {
            assertThat(intended.get(i) - intended.get(i - 1)).isEqualTo(25_000_000L);
        }
        // sent by the threads that claimed them only, the 5th arrival would have waited for the 1st response
        // (about 200 ms late) and later ones longer; on time, each is sent within a busy machine's scheduling delay
        for (RequestRecord rec : ctx.records()) {
            assertThat((rec.sendNanos() - rec.intendedStartNanos()) / 1e6).as("dispatch lag, ms").isLessThan(100);
        }
    }

    @Test
    void aRequestCountEndsTheStepAfterExactlyThatManySends() throws Exception {
        server.delayMillis = () -> 2;
        LoadSpec spec = LoadSpec.builder().rate(500.0).arrival(ArrivalProcess.CONSTANT).requests(37L)
                .duration(Duration.ofSeconds(10)).stream(false).build();
        long t0 = System.nanoTime();
        LoadResult r = new LoadStepRunner().run(spec, "count", ctx);

        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(5.0); // not the 10 s duration
        LoadStepRunnerTest.assertAccounting(r, ctx);
        assertThat(r.totals().stopReason()).isEqualTo("requests");
        assertThat(r.totals().sent()).isEqualTo(37);
        assertThat(ctx.records()).allMatch(x -> x.outcome() == Outcome.SUCCESS);
        List<Long> intended = sortedIntended(ctx);
        assertThat(intended.get(36) - intended.get(0)).isEqualTo(36 * 2_000_000L);
    }
}
