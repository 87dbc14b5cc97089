package dev.modelgate.sample.agent;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer to a completed agent run.
 *
 * @param runId the run's id, derived from its key, so the same on every retry
 * @param status always {@code completed}; a failed run answers an error instead
 * @param steps what each step did
 */
public record AgentRun(@JsonProperty("run_id") String runId, String status, List<Step> steps) {

	/**
	 * One step of the run.
	 *
	 * @param step its number, from 1
	 * @param name the tool it called, or {@code answer} for the model's final answer
	 * @param toolKey the key of the tool call, for steps that call a tool
	 * @param output the tool's result, or the answer
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	public record Step(int step, String name, @JsonProperty("tool_key") String toolKey, String output) {
	}

}
