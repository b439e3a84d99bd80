package org.latencylab.engine.client;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EndpointChecksTest {
    @Test
    void everyKnownApiPathIsTakenOffAndSaidInOneSentence() {
        for (String path : EndpointChecks.API_PATHS) {
            EndpointChecks.BaseUrl b = EndpointChecks.baseUrl("  http://127.0.0.1:8000" + path + "/ ");
            assertThat(b.url()).as(path).isEqualTo("http://127.0.0.1:8000");
            assertThat(b.strippedPath()).isEqualTo(path);
            assertThat(b.notice()).isEqualTo("the URL ends in the API path " + path + "; using its base URL"
                    + " http://127.0.0.1:8000 (the protocol adds its own path)");
        }
        assertThat(EndpointChecks.baseUrl("https://api.openai.com/v1/chat/completions").url())
                .as("the longest path is taken whole").isEqualTo("https://api.openai.com");
        assertThat(EndpointChecks.baseUrl("https://host/openai/deployments/x/chat/completions").url())
                .isEqualTo("https://host/openai/deployments/x");
        assertThat(EndpointChecks.baseUrl("http://h:8080/generate_stream").strippedPath()).isEqualTo("/generate_stream");
        assertThat(EndpointChecks.baseUrl("HTTP://H:1/V1/Chat/Completions").url()).isEqualTo("HTTP://H:1");
    }

    @Test
    void baseUrlsAndUrlsWithoutAKnownPathStayAsTheyAre() {
        EndpointChecks.BaseUrl b = EndpointChecks.baseUrl("http://127.0.0.1:8000/v1/");
        assertThat(b.url()).isEqualTo("http://127.0.0.1:8000/v1");
        assertThat(b.stripped()).isFalse();
        assertThat(b.notice()).isEmpty();
        assertThat(EndpointChecks.baseUrl("http://generate").url()).as("a host named like a path").isEqualTo("http://generate");
        assertThat(EndpointChecks.baseUrl("http://h/chat/completions?api-version=2024").stripped())
                .as("a query: the path is not the URL's end").isFalse();
        assertThat(EndpointChecks.baseUrl(null).url()).isEmpty();
    }

    @Test
    void aKeyVariableThatIsUnsetOrEmptyIsAProblemInWordsWithoutTheValue() {
        Map<String, String> env = Map.of("SET_KEY", "sk-secret-value", "EMPTY_KEY", "", "BLANK_KEY", "  ");
        assertThat(EndpointChecks.keyProblem("SET_KEY", env::get)).isEmpty();
        assertThat(EndpointChecks.keyProblem(null, env::get)).isEmpty();
        assertThat(EndpointChecks.keyProblem(" ", env::get)).isEmpty();
        assertThat(EndpointChecks.keyProblem("NO_KEY", env::get)).isEqualTo("the environment variable NO_KEY is not"
                + " set: set it to the API key (export NO_KEY=...) before starting LatencyLab, or leave the key out"
                + " for an endpoint that needs none");
        assertThat(EndpointChecks.keyProblem("EMPTY_KEY", env::get)).startsWith("the environment variable EMPTY_KEY"
                + " is set but empty: ");
        assertThat(EndpointChecks.keyProblem("BLANK_KEY", env::get)).contains("BLANK_KEY is set but empty");
        assertThat(EndpointChecks.keyRefused(401, null)).contains("HTTP 401").contains("none was sent");
        assertThat(EndpointChecks.keyRefused(403, "MY_KEY")).contains("HTTP 403").contains("the key in MY_KEY was not"
                + " accepted");
    }
}
