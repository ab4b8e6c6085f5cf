// `npm run test:real`: builds (or reuses, from ~/.cache/discover) llama.cpp's llama-server from the
// source node-llama-cpp ships, and starts one server per context size the tests need, each with
// one slot and one thread (`-np 1 -t 1`) beside the test runner. Stopped by pid at the end.
import type { TestProject } from "vitest/node";
import { ensureLlamaServer, startLlamaServer } from "../../scripts/llama-server.mjs";
import { SERVER_CONTEXTS, type ServerName } from "./serverContexts";

declare module "vitest" {
	export interface ProvidedContext {
		llamaServers: Record<ServerName, string>;
	}
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const started = Date.now();
	await ensureLlamaServer();
	process.stderr.write(`[test:real] llama-server ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
	const servers = await Promise.all(Object.entries(SERVER_CONTEXTS).map(async ([name, ctx]) => [name, await startLlamaServer({ ctx })] as const));
	project.provide("llamaServers", Object.fromEntries(servers.map(([name, s]) => [name, s.url])) as Record<ServerName, string>);
	return async () => {
		await Promise.all(servers.map(([, s]) => s.stop()));
	};
}
