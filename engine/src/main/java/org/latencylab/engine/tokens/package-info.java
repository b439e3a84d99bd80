/**
 * Token counting with jtokkit: how LatencyLab counts tokens when a server does not report them, and how it
 * builds prompts of an exact length.
 */
package org.latencylab.engine.tokens;
