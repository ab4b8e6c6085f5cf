// "Prompt layout": which servers count as local (the automatic choice answers faster there), and
// the engine policy each choice makes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { earlierSourcesFor, isLocalServer } from "../../src/settings/promptLayout";

describe("isLocalServer", () => {
	it("loopback, private and link-local addresses, local names and single-label hosts are local", () => {
		for (const url of [
			"http://localhost:11434",
			"http://127.0.0.1:8080/v1",
			"http://[::1]:1234/v1",
			"http://10.0.0.5:11434",
			"http://172.20.1.2:8000/v1",
			"http://192.168.1.20:1234/v1",
			"http://169.254.3.4/v1",
			"http://100.100.1.1:11434",
			"http://gpu-box.local:11434",
			"http://studio.lan:1234/v1",
			"http://gpubox:8080/v1",
			"http://[fd12:3456::1]:11434",
		])
			expect(isLocalServer(url), url).toBe(true);
	});

	it("hosted APIs, public addresses, look-alikes and unparseable addresses are not", () => {
		for (const url of [
			"https://api.openai.com/v1",
			"https://api.anthropic.com",
			"https://openrouter.ai/api/v1",
			"http://8.8.8.8/v1",
			"http://172.32.0.1/v1",
			"http://192.169.1.1/v1",
			"https://localhost.example.com/v1",
			"https://10.0.0.5.nip.io/v1",
			"not a url",
			"",
		])
			expect(isLocalServer(url), url).toBe(false);
	});

	it("a public domain under any name is never local (property)", () => {
		fc.assert(
			fc.property(fc.domain(), (domain) => {
				fc.pre(!/\.(local|lan|home|internal|localhost|arpa)$/.test(domain) && domain.includes("."));
				expect(isLocalServer(`https://${domain}/v1`)).toBe(false);
			}),
		);
	});
});

describe("earlierSourcesFor", () => {
	it("answer faster is the stable layout and the whole window is 'yield', whatever the server", () => {
		for (const server of [{ provider: "ollama" as const, baseUrl: "http://localhost:11434" }, { provider: "anthropic" as const, baseUrl: "https://api.anthropic.com" }]) {
			expect(earlierSourcesFor("cache", server)).toBe("stable");
			expect(earlierSourcesFor("window", server)).toBe("yield");
		}
	});

	it("automatic: stable on a local server, the whole window on a hosted one (Anthropic always hosted)", () => {
		expect(earlierSourcesFor("auto", { provider: "ollama", baseUrl: "http://127.0.0.1:11434" })).toBe("stable");
		expect(earlierSourcesFor("auto", { provider: "openai", baseUrl: "http://localhost:1234/v1" })).toBe("stable");
		expect(earlierSourcesFor("auto", { provider: "openai", baseUrl: "https://api.openai.com/v1" })).toBe("yield");
		expect(earlierSourcesFor("auto", { provider: "ollama", baseUrl: "https://ollama.com" })).toBe("yield");
		expect(earlierSourcesFor("auto", { provider: "anthropic", baseUrl: "http://localhost:8080" })).toBe("yield");
	});
});
