package org.latencylab.app.ui.endpoint;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.Protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CurlImportTest {
    @Test
    void tokenizerHandlesQuotesEscapesAndContinuations() {
        assertThat(CurlImport.tokenize("curl 'a b' \"c \\\"d\\\" $X\" e\\ f \\\n  g"))
                .containsExactly("curl", "a b", "c \"d\" $X", "e f", "g");
        assertThat(CurlImport.tokenize("x 'it'\"'\"'s'")).containsExactly("x", "it's");
        assertThat(CurlImport.tokenize("  ")).isEmpty();
        assertThatThrownBy(() -> CurlImport.tokenize("curl 'open")).hasMessageContaining("unclosed single quote");
        assertThatThrownBy(() -> CurlImport.tokenize("curl \"open")).hasMessageContaining("unclosed double quote");
    }

    @Test
    void openAiCommandWithEnvReference() {
        String cmd = """
                curl https://api.openai.com/v1/chat/completions \\
                  -H "Content-Type: application/json" \\
                  -H "Authorization: Bearer $OPENAI_API_KEY" \\
                  -H 'OpenAI-Organization: org-123' \\
                  -d '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hi"}], "stream": true}'
                """;
        CurlImport.Result r = CurlImport.parse(cmd);
        assertThat(r.endpoint().baseUrl()).isEqualTo("https://api.openai.com");
        assertThat(r.endpoint().protocol()).isEqualTo(Protocol.OPENAI_CHAT.id());
        assertThat(r.endpoint().model()).isEqualTo("gpt-4o-mini");
        assertThat(r.endpoint().apiKeyEnv()).isEqualTo("OPENAI_API_KEY");
        assertThat(r.endpoint().headers()).containsOnlyKeys("OpenAI-Organization");
        assertThat(r.endpoint().verifyTls()).isTrue();
        assertThat(r.endpoint().toEndpoint().name()).isEqualTo("api.openai.com gpt-4o-mini");
    }

    @Test
    void literalKeyIsDroppedAndAnEnvVarSuggested() {
        CurlImport.Result r = CurlImport.parse("curl -k --header='x-api-key: sk-ant-secret' "
                + "--url https://api.anthropic.com/v1/messages --data-raw '{\"model\":\"claude-x\"}'");
        assertThat(r.endpoint().protocol()).isEqualTo(Protocol.ANTHROPIC_MESSAGES.id());
        assertThat(r.endpoint().apiKeyEnv()).isEqualTo("ANTHROPIC_API_KEY");
        assertThat(r.endpoint().headers()).isEmpty();
        assertThat(r.endpoint().toString()).doesNotContain("sk-ant-secret");
        assertThat(r.endpoint().verifyTls()).isFalse();
        assertThat(r.notes()).anyMatch(n -> n.contains("NOT saved")).anyMatch(n -> n.contains("-k"));
    }

    @Test
    void pathPrefixAndOtherProtocolsAreRecognised() {
        assertThat(CurlImport.parse("curl http://127.0.0.1:11434/api/chat -d '{\"model\":\"llama3\"}'").endpoint())
                .satisfies(e -> {
                    assertThat(e.protocol()).isEqualTo(Protocol.OLLAMA_CHAT.id());
                    assertThat(e.baseUrl()).isEqualTo("http://127.0.0.1:11434");
                });
        assertThat(CurlImport.parse("curl -X POST https://api.groq.com/openai/v1/chat/completions").endpoint().baseUrl())
                .isEqualTo("https://api.groq.com/openai");
        assertThat(CurlImport.parse("curl -sS http://localhost:8080/generate_stream").endpoint().protocol())
                .isEqualTo(Protocol.TGI_GENERATE.id());
        assertThat(CurlImport.suggestEnvName("llm.internal.example.com")).isEqualTo("LLM_API_KEY");
        assertThat(CurlImport.suggestEnvName("api.mycorp.io")).isEqualTo("MYCORP_API_KEY");
    }

    @Test
    void rejectsWhatIsNotACurlCommand() {
        assertThatThrownBy(() -> CurlImport.parse("wget http://x")).hasMessageContaining("curl");
        assertThatThrownBy(() -> CurlImport.parse("curl -H 'a: b'")).hasMessageContaining("no URL");
        assertThatThrownBy(() -> CurlImport.parse("curl ftp://host/x")).hasMessageContaining("http");
    }
}
