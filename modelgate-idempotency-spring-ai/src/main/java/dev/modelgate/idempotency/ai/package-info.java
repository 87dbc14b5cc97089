/**
 * Agents that never act twice: the tool calls a Spring AI {@code ChatClient} makes during a keyed run
 * run at most once per key derived from the run, the round and the position of the call, and a re-run
 * gets each completed call's recorded result back. {@link dev.modelgate.idempotency.ai.IdempotentToolCallingManager}
 * is the entry point; {@link dev.modelgate.idempotency.ai.IdempotentTool} marks the tools it protects.
 */
@NullMarked
package dev.modelgate.idempotency.ai;

import org.jspecify.annotations.NullMarked;
