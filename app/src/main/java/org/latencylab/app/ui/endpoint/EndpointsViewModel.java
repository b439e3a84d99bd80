package org.latencylab.app.ui.endpoint;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.latencylab.app.ui.background.UiExecutor;
import org.latencylab.app.ui.settings.AppSettings;
import org.latencylab.app.ui.settings.EndpointConfig;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.client.EndpointChecks;
import org.latencylab.engine.run.TargetSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The endpoint list and the editor of the selected endpoint. The list's first entry is always the built-in
 * simulator ({@link AppSettings#SIMULATOR}), which has no editor but a profile choice. Editing fields changes only
 * the editor; {@link #apply()} validates them and writes them into the list. Not thread-safe: use it on the UI
 * thread; network work (connection tests) goes through the {@link UiExecutor}.
 */
public final class EndpointsViewModel {
    private final UiExecutor executor;
    private final Function<String, String> env;
    private final Map<String, EndpointConfig> saved = new LinkedHashMap<>();
    private final ObservableList<String> names = FXCollections.observableArrayList(AppSettings.SIMULATOR);
    private final ObservableList<String> simProfiles = FXCollections.observableArrayList();
    private final StringProperty selected = new SimpleStringProperty(AppSettings.SIMULATOR);
    private final StringProperty simProfile = new SimpleStringProperty(org.latencylab.app.Defaults.SIM_PROFILE);
    private final ReadOnlyBooleanWrapper simulatorSelected = new ReadOnlyBooleanWrapper(true);

    private final StringProperty name = new SimpleStringProperty("");
    private final ObjectProperty<Protocol> protocol = new SimpleObjectProperty<>(Protocol.OPENAI_CHAT);
    private final StringProperty baseUrl = new SimpleStringProperty("");
    private final StringProperty model = new SimpleStringProperty("");
    private final StringProperty apiKeyEnv = new SimpleStringProperty("");
    private final StringProperty headers = new SimpleStringProperty("");
    private final BooleanProperty verifyTls = new SimpleBooleanProperty(true);
    private final ReadOnlyStringWrapper apiKeyPreview = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper testStatus = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper testing = new ReadOnlyBooleanWrapper(false);
    private Runnable onChange = () -> { };

    /**
     * @param executor background work (connection tests)
     * @param env      environment lookup for the API key preview (null = unset), e.g. {@code System::getenv}
     * @param profiles built-in simulator profile names
     */
    public EndpointsViewModel(UiExecutor executor, Function<String, String> env, List<String> profiles) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.env = Objects.requireNonNull(env, "env");
        simProfiles.setAll(profiles);
        apiKeyEnv.addListener((o, a, b) -> updateKeyPreview());
        selected.addListener((o, a, b) -> loadEditor(b));
        simProfile.addListener((o, a, b) -> onChange.run());
    }

    /** @param r called after the list, the selection or the simulator profile changed (to save the settings) */
    public void setOnChange(Runnable r) {
        onChange = Objects.requireNonNull(r);
    }

    /**
     * Replaces the list from the settings.
     *
     * @param settings stored endpoints, selection and simulator profile
     */
    public void load(AppSettings settings) {
        saved.clear();
        for (EndpointConfig c : settings.endpoints()) {
            saved.put(c.name(), c);
        }
        refreshNames();
        simProfile.set(settings.simProfile());
        String sel = settings.selected();
        selected.set(saved.containsKey(sel) ? sel : AppSettings.SIMULATOR);
        loadEditor(selected.get());
    }

    /** @param settings current settings @return them with this list, selection and profile */
    public AppSettings storeInto(AppSettings settings) {
        return settings.withEndpoints(new ArrayList<>(saved.values()), selected.get(), simProfile.get());
    }

    /** @return names shown in the list: the simulator first, then saved endpoints in order */
    public ObservableList<String> names() {
        return names;
    }

    /** @return built-in simulator profiles */
    public ObservableList<String> simProfiles() {
        return simProfiles;
    }

    /** @return the selected list entry */
    public StringProperty selectedProperty() {
        return selected;
    }

    /** @return the simulator profile used when the simulator is selected */
    public StringProperty simProfileProperty() {
        return simProfile;
    }

    /** @return true when the built-in simulator is selected (the editor is then hidden) */
    public ReadOnlyBooleanProperty simulatorSelectedProperty() {
        return simulatorSelected.getReadOnlyProperty();
    }

    /** @return editor: display name */
    public StringProperty nameProperty() {
        return name;
    }

    /** @return editor: protocol */
    public ObjectProperty<Protocol> protocolProperty() {
        return protocol;
    }

    /** @return editor: base URL */
    public StringProperty baseUrlProperty() {
        return baseUrl;
    }

    /** @return editor: model */
    public StringProperty modelProperty() {
        return model;
    }

    /** @return editor: NAME of the environment variable with the API key */
    public StringProperty apiKeyEnvProperty() {
        return apiKeyEnv;
    }

    /** @return editor: extra headers, one {@code Name: value} per line */
    public StringProperty headersProperty() {
        return headers;
    }

    /** @return editor: verify TLS certificates */
    public BooleanProperty verifyTlsProperty() {
        return verifyTls;
    }

    /** @return whether the key variable is set, masked: {@code set (51 characters, ••••cdef hidden)} or {@code not set} */
    public ReadOnlyStringProperty apiKeyPreviewProperty() {
        return apiKeyPreview.getReadOnlyProperty();
    }

    /** @return the last message for the user (validation error, import notes) */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** @return the last connection test result */
    public ReadOnlyStringProperty testStatusProperty() {
        return testStatus.getReadOnlyProperty();
    }

    /** @return true while a connection test runs */
    public ReadOnlyBooleanProperty testingProperty() {
        return testing.getReadOnlyProperty();
    }

    /** @return the saved endpoints in list order */
    public List<EndpointConfig> savedEndpoints() {
        return List.copyOf(saved.values());
    }

    /** Starts a new endpoint in the list with placeholder values and selects it. */
    public void addNew() {
        String n = unique("New endpoint");
        saved.put(n, new EndpointConfig(n, Protocol.OPENAI_CHAT.id(), "http://127.0.0.1:8000", "", null, null, true));
        refreshNames();
        selected.set(n);
        onChange.run();
    }

    /** Removes the selected endpoint (the simulator cannot be removed) and selects the simulator. */
    public void removeSelected() {
        if (saved.remove(selected.get()) != null) {
            refreshNames();
            selected.set(AppSettings.SIMULATOR);
            onChange.run();
        }
    }

    /**
     * Validates the editor and writes it into the list (renaming the entry when the name changed). A base URL that
     * ends in an API path is saved without it, and the message says so in the command line's words
     * ({@link EndpointChecks.BaseUrl#notice()}); so does an API key variable that is not set (the endpoint is saved:
     * the variable may be set before the next start).
     *
     * @return true when saved; otherwise {@link #messageProperty()} says what is wrong
     */
    public boolean apply() {
        if (simulatorSelected.get()) {
            return true;
        }
        EndpointConfig cfg;
        try {
            cfg = editorConfig();
            cfg.toEndpoint();
        } catch (IllegalArgumentException e) {
            message.set(e.getMessage());
            return false;
        }
        String old = selected.get();
        EndpointChecks.BaseUrl base = EndpointChecks.baseUrl(baseUrl.get());
        if (!cfg.name().equals(old) && saved.containsKey(cfg.name())) {
            message.set("an endpoint named '" + cfg.name() + "' already exists");
            return false;
        }
        Map<String, EndpointConfig> copy = new LinkedHashMap<>();
        for (Map.Entry<String, EndpointConfig> e : saved.entrySet()) {
            copy.put(e.getKey().equals(old) ? cfg.name() : e.getKey(), e.getKey().equals(old) ? cfg : e.getValue());
        }
        saved.clear();
        saved.putAll(copy);
        refreshNames();
        selected.set(cfg.name());
        if (base.stripped()) {
            baseUrl.set(base.url()); // the field shows what was saved
        }
        String key = EndpointChecks.keyProblem(cfg.apiKeyEnv(), env);
        message.set("saved " + cfg.name() + (base.stripped() ? " · " + base.notice() : "")
                + (key.isEmpty() ? "" : " · " + key));
        onChange.run();
        return true;
    }

    /**
     * Adds the endpoint of a pasted curl command and selects it.
     *
     * @param command the curl command
     * @return true when imported; {@link #messageProperty()} holds the notes or the error
     */
    public boolean importCurl(String command) {
        CurlImport.Result r;
        try {
            r = CurlImport.parse(command);
        } catch (IllegalArgumentException e) {
            message.set("cannot import: " + e.getMessage());
            return false;
        }
        String n = unique(r.endpoint().name());
        EndpointConfig c = r.endpoint();
        saved.put(n, new EndpointConfig(n, c.protocol(), c.baseUrl(), c.model(), c.apiKeyEnv(), c.headers(),
                c.verifyTls()));
        refreshNames();
        selected.set(n);
        message.set(r.notes().isEmpty() ? "imported " + n : "imported " + n + ": " + String.join("; ", r.notes()));
        onChange.run();
        return true;
    }

    /**
     * @return the target of a run: the simulator with the chosen profile, or the selected endpoint
     * @throws IllegalArgumentException when the selected endpoint is invalid
     */
    public TargetSpec target() {
        if (simulatorSelected.get()) {
            return TargetSpec.simulator(simProfile.get());
        }
        return TargetSpec.of(editorConfig().toEndpoint());
    }

    /**
     * @return what keeps the selected endpoint's API key from being sent, in the command line's words
     * ({@link EndpointChecks#keyProblem}: its variable is not set, or empty); "" when nothing does (no key named, or
     * the simulator)
     */
    public String keyProblem() {
        return simulatorSelected.get() ? "" : EndpointChecks.keyProblem(apiKeyEnv.get(), env);
    }

    /** Sends one small request to the selected endpoint (or a temporary simulator) in the background. */
    public void testConnection() {
        if (testing.get()) {
            return;
        }
        Endpoint endpoint = null;
        String profile = simProfile.get();
        boolean sim = simulatorSelected.get();
        if (!sim) {
            try {
                endpoint = editorConfig().toEndpoint();
            } catch (IllegalArgumentException e) {
                testStatus.set("FAILED · " + e.getMessage());
                return;
            }
            String key = EndpointChecks.keyProblem(endpoint.apiKeyEnv(), env);
            if (!key.isEmpty()) {
                testStatus.set("FAILED · " + key); // nothing is sent without the key the endpoint names
                return;
            }
        }
        Endpoint target = endpoint;
        testing.set(true);
        testStatus.set("testing…");
        executor.submit("connection test",
                () -> sim ? ConnectionTester.testSimulator(profile) : ConnectionTester.test(target),
                (ConnectionTester.ConnectionResult r) -> {
                    testing.set(false);
                    testStatus.set(r.text());
                },
                (Throwable t) -> {
                    testing.set(false);
                    testStatus.set("FAILED · " + UiExecutor.describe(t));
                });
    }

    private EndpointConfig editorConfig() {
        Map<String, String> h = parseHeaders(headers.get());
        // a pasted URL with the API path still on it is used as its base URL (apply() says so); others as typed
        EndpointChecks.BaseUrl base = EndpointChecks.baseUrl(baseUrl.get());
        return new EndpointConfig(name.get() == null ? "" : name.get().strip(), protocol.get().id(),
                base.stripped() ? base.url() : base.given(), model.get(), apiKeyEnv.get(), h, verifyTls.get());
    }

    /**
     * @param text one {@code Name: value} per line; blank lines ignored
     * @return the headers in order
     * @throws IllegalArgumentException when a line has no colon, or holds a credential header (use the key variable)
     */
    public static Map<String, String> parseHeaders(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text == null) {
            return out;
        }
        int lineNo = 0;
        for (String line : text.split("\\R")) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("header line " + lineNo + " must look like 'Name: value', was '"
                        + line.strip() + "'");
            }
            String key = line.substring(0, colon).strip();
            if (EndpointConfig.isSecretHeader(key)) {
                throw new IllegalArgumentException("header '" + key + "' carries a credential and would be saved in"
                        + " plain text; put the key into an environment variable and enter its name instead");
            }
            out.put(key, line.substring(colon + 1).strip());
        }
        return out;
    }

    private void loadEditor(String entry) {
        boolean sim = entry == null || AppSettings.SIMULATOR.equals(entry) || !saved.containsKey(entry);
        simulatorSelected.set(sim);
        testStatus.set("");
        if (sim) {
            name.set(AppSettings.SIMULATOR);
            protocol.set(Protocol.OPENAI_CHAT);
            baseUrl.set("http://127.0.0.1 (started on demand)");
            model.set("");
            apiKeyEnv.set("");
            headers.set("");
            verifyTls.set(true);
        } else {
            EndpointConfig c = saved.get(entry);
            name.set(c.name());
            protocol.set(Protocol.fromId(c.protocol()));
            baseUrl.set(c.baseUrl());
            model.set(c.model());
            apiKeyEnv.set(c.apiKeyEnv() == null ? "" : c.apiKeyEnv());
            StringBuilder sb = new StringBuilder();
            c.headers().forEach((k, v) -> sb.append(k).append(": ").append(v).append('\n'));
            headers.set(sb.toString());
            verifyTls.set(c.verifyTls());
        }
        updateKeyPreview();
        if (!Objects.equals(entry, AppSettings.SIMULATOR) || sim) {
            onChange.run();
        }
    }

    private void updateKeyPreview() {
        String var = apiKeyEnv.get() == null ? "" : apiKeyEnv.get().strip();
        if (var.isEmpty()) {
            apiKeyPreview.set(simulatorSelected.get() ? "" : "no key (none sent)");
            return;
        }
        String v = env.apply(var);
        apiKeyPreview.set(v == null || v.isEmpty() ? "$" + var + " is not set"
                : "$" + var + " is set (" + v.length() + " characters, value hidden: " + "•".repeat(8) + ")");
    }

    private void refreshNames() {
        List<String> list = new ArrayList<>();
        list.add(AppSettings.SIMULATOR);
        list.addAll(saved.keySet());
        names.setAll(list);
    }

    private String unique(String base) {
        String n = base == null || base.isBlank() ? "endpoint" : base;
        String c = n;
        for (int i = 2; saved.containsKey(c) || AppSettings.SIMULATOR.equals(c); i++) {
            c = n + " (" + i + ")";
        }
        return c;
    }
}
