import { afterEach, describe, expect, it, vi } from "vitest";
import type { ProviderConfig, Transport } from "../../src/providers";
import { asObsidianApp, createTestApp, emulateMobile, restorePlatform } from "../obsidian/harness";
import { DEFAULT_SETTINGS } from "../../src/settings/settings";

const nodeTransport: Transport = () => Promise.reject(new Error("node transport"));
const seen: ProviderConfig[] = [];
const loadNodeTransport = vi.fn(() => Promise.resolve(nodeTransport));

vi.mock("../../src/providers", async (importOriginal) => {
	const real = await importOriginal<typeof import("../../src/providers")>();
	return {
		...real,
		loadNodeTransport: () => loadNodeTransport(),
		createAdapter: (config: ProviderConfig) => {
			seen.push(config);
			return real.createAdapter(config);
		},
	};
});

const { createPluginAdapter, readApiKey, resetTransportCache } = await import("../../src/wiring/adapterFactory");
const { fetchTransport } = await import("../../src/providers");

afterEach(() => {
	restorePlatform();
	resetTransportCache();
	seen.length = 0;
	loadNodeTransport.mockClear();
});

describe("createPluginAdapter", () => {
	it("reads the key from secret storage by name and marks requests as coming from the app", async () => {
		const app = asObsidianApp(await createTestApp({ secrets: { "openai-key": "sk-abc" } }));
		const adapter = await createPluginAdapter(app, { ...DEFAULT_SETTINGS, provider: "openai", baseUrl: " https://api.openai.com/v1 ", model: " gpt-4o ", apiKeySecret: "openai-key" });
		expect(adapter.provider).toBe("openai");
		expect(seen[0]).toMatchObject({ provider: "openai", baseUrl: "https://api.openai.com/v1", model: "gpt-4o", apiKey: "sk-abc", fromApp: true });
	});

	it("sends no key when none is named or the secret is gone", async () => {
		const app = asObsidianApp(await createTestApp());
		expect(readApiKey(app, { ...DEFAULT_SETTINGS, apiKeySecret: "" })).toBeUndefined();
		expect(readApiKey(app, { ...DEFAULT_SETTINGS, apiKeySecret: "deleted-key" })).toBeUndefined();
	});

	it("desktop: the Node transport, loaded once", async () => {
		const app = asObsidianApp(await createTestApp());
		await createPluginAdapter(app, DEFAULT_SETTINGS);
		await createPluginAdapter(app, DEFAULT_SETTINGS);
		expect(seen.map((c) => c.transport)).toEqual([nodeTransport, nodeTransport]);
		expect(loadNodeTransport).toHaveBeenCalledTimes(1);
	});

	it("mobile: fetch, and the Node transport is never loaded", async () => {
		emulateMobile();
		const app = asObsidianApp(await createTestApp());
		await createPluginAdapter(app, DEFAULT_SETTINGS);
		expect(seen[0]?.transport).toBe(fetchTransport);
		expect(loadNodeTransport).not.toHaveBeenCalled();
	});

	it("desktop without Node modules falls back to fetch", async () => {
		loadNodeTransport.mockImplementationOnce(() => Promise.reject(new Error("Cannot find module 'node:http'")));
		const app = asObsidianApp(await createTestApp());
		await createPluginAdapter(app, DEFAULT_SETTINGS);
		expect(seen[0]?.transport).toBe(fetchTransport);
	});
});
