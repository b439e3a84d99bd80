package org.latencylab.app.ui.background;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.api.RequestRecord;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CoalescingRunListenerTest {
    private static RequestRecord record(long id) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = id;
        b.label = "probe";
        b.sendNanos = 1_000;
        b.endNanos = 2_000;
        b.attempts = 1;
        return b.build();
    }

    private static IntervalSnapshot snap(long completed, List<RequestRecord> fresh) {
        return new IntervalSnapshot("run", "probe", completed * 1000, completed, 10, 0, completed, Map.of(), 0, 0, 0,
                fresh, false, 0);
    }

    @Test
    void latestSnapshotWinsButEveryRecordIsDelivered() {
        ArrayDeque<Runnable> uiQueue = new ArrayDeque<>();
        List<CoalescingRunListener.Update> updates = new ArrayList<>();
        CoalescingRunListener l = new CoalescingRunListener(uiQueue::add, updates::add);

        l.onSnapshot(snap(1, List.of(record(0))));
        l.onNotice("first notice");
        l.onSnapshot(snap(3, List.of(record(1), record(2))));
        l.onSnapshot(snap(3, List.of()));
        assertThat(uiQueue).as("one drain queued however many snapshots arrive").hasSize(1);

        uiQueue.poll().run();
        assertThat(updates).hasSize(1);
        CoalescingRunListener.Update u = updates.get(0);
        assertThat(u.snapshot().completed()).isEqualTo(3);
        assertThat(u.newRecords()).extracting(RequestRecord::id).containsExactly(0L, 1L, 2L);
        assertThat(u.notices()).containsExactly("first notice");

        l.onSnapshot(snap(4, List.of(record(3))));
        assertThat(uiQueue).hasSize(1);
        uiQueue.poll().run();
        assertThat(updates.get(1).newRecords()).extracting(RequestRecord::id).containsExactly(3L);
    }

    @Test
    void concurrentProducersLoseNoRecord() throws Exception {
        List<Long> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.ExecutorService ui = java.util.concurrent.Executors.newSingleThreadExecutor();
        CoalescingRunListener l = new CoalescingRunListener(ui, u -> u.newRecords().forEach(r -> seen.add(r.id())));
        List<Thread> producers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int base = t * 1000;
            Thread th = new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    l.onSnapshot(snap(i, List.of(record(base + i))));
                }
            });
            producers.add(th);
            th.start();
        }
        for (Thread th : producers) {
            th.join();
        }
        ui.submit(() -> { }).get();
        ui.shutdown();
        ui.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(seen).hasSize(2000).doesNotHaveDuplicates();
    }
}
