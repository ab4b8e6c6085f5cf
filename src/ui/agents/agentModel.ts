// An agent note whose `model:` the server does not have. Checked when a chat takes the agent (the
// server's list, cached with the header's menu, waited for briefly) and again when a send fails
// with "model not found": either way the problem names the note and the field, and the chat falls
// back to the default agent. A list that cannot be had (server down, offline, slow) proves
// nothing: the agent is kept, and the send says what is wrong.
import type { Agent, AgentIssue } from "../../agents/agent";
import { missingModel } from "../../providers/errors";
import { offersModel } from "../../providers/modelNames";
import type { ModelInfo, ProviderName } from "../../providers/types";
import { serverFor, type ServerSettings } from "../../settings/serverFor";
import type { ChatRuntime } from "../host";
import { cachedModels, modelListKey } from "../panel/modelList";
import type { AgentCheck } from "./agentsPort";

/** How long a chat waits for the model list before taking the agent unchecked. */
export const AGENT_MODEL_CHECK_MS = 1500;

/** The problem with `agent`'s model as the field's issue. */
const modelIssue = (agent: Agent, model: string): AgentIssue => ({ path: agent.path, field: "model", value: model });

/** `listing` within `ms`, else undefined (the listing goes on, and a later menu reuses it). */
function within<T>(listing: Promise<T>, ms: number): Promise<T | undefined> {
	return new Promise((resolve) => {
		const timer = window.setTimeout(() => resolve(undefined), ms);
		listing.then(
			(value) => {
				window.clearTimeout(timer);
				resolve(value);
			},
			() => {
				window.clearTimeout(timer);
				resolve(undefined);
			},
		);
	});
}

/**
 * The check a chat runs on the agent it takes: the agent's model against its provider's list.
 * `ownModel`: the model a reopened chat picked for itself (saved with it); an agent's model the
 * chat does not use is not its problem. Undefined when the engine cannot list models.
 */
export function agentModelCheck(runtime: ChatRuntime | undefined, settings: ServerSettings, ownModel?: string, ms = AGENT_MODEL_CHECK_MS): AgentCheck | undefined {
	const list = runtime?.listModels?.bind(runtime);
	if (!list) return undefined;
	return async (agent) => {
		const model = agent.model;
		if (model === undefined || model.trim() === "") return undefined;
		const fields = { path: agent.path, provider: agent.provider, baseUrl: agent.baseUrl, secret: agent.secret };
		const server = serverFor(settings, fields);
		const provider: ProviderName = server.provider;
		if (ownModel !== undefined && !offersModel(provider, [{ id: model }], ownModel)) return undefined;
		// The same cache as the header's menu: for the settings' server, one listing serves both.
		const models: readonly ModelInfo[] | undefined = await within(cachedModels(modelListKey(server), () => list(undefined, fields)), ms);
		if (models === undefined) return undefined;
		return offersModel(provider, models, model) ? undefined : modelIssue(agent, model);
	};
}

/**
 * A send that failed because the server has no such model, when that model is the agent's own
 * (`used`: the model the chat sent to): the agent note's problem. Undefined for any other failure,
 * and for a model the chat picked itself.
 */
export function agentModelFailure(err: unknown, agent: Agent | undefined, used: string, settingsProvider: ProviderName): AgentIssue | undefined {
	const missing = missingModel(err);
	const model = agent?.model;
	if (!missing || agent === undefined || agent.path === "" || model === undefined) return undefined;
	const sent = missing.model ?? used;
	return offersModel(agent.provider ?? settingsProvider, [{ id: model }], sent) ? modelIssue(agent, model) : undefined;
}
