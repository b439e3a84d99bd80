/**
 * Scenario files: a run described in YAML or JSON ({@code format: 1}), read strictly so that every mistake
 * is reported with the file, the field and the expected form, never silently ignored.
 */
package org.latencylab.engine.scenario;
