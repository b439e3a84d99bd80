package org.latencylab.app.ui.results;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.latencylab.app.ui.background.SerialUiExecutor;
import org.latencylab.engine.api.TrustCheck;

import static org.assertj.core.api.Assertions.assertThat;

/** The results view model shows a saturated client's trust message and says the tier is only "as measured". */
class ResultsTrustTest {
    private final SerialUiExecutor ui = new SerialUiExecutor();

    @AfterEach
    void close() throws Exception {
        ui.close();
    }

    @Test
    void aSaturatedClientIsShownAndClearedByTheNextRun() throws Exception {
        ResultsViewModel vm = ui.call(ResultsViewModel::new);
        String message = "client saturated: latencies above P97 are not trustworthy; hiccup P99 = 38 ms";
        ui.run(() -> vm.showTrust(new TrustCheck(0.1, 38, 60, 1000, 0.2, 1, 0.5, 97, true, message)));
        assertThat(ui.call(() -> vm.trustProperty().get())).isEqualTo(message);
        ui.run(() -> vm.showTrust(new TrustCheck(0.1, 0.3, 1, 1000, 0.2, 1, 0.5, 100, false, "client kept up")));
        assertThat(ui.call(() -> vm.trustProperty().get())).as("nothing to warn about").isEmpty();
        ui.run(() -> vm.showTrust(new TrustCheck(0.1, 38, 60, 1000, 0.2, 1, 0.5, 97, true, message)));
        ui.run(() -> vm.reset("next"));
        assertThat(ui.call(() -> vm.trustProperty().get())).isEmpty();
    }
}
