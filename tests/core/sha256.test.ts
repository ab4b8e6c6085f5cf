// The pure SHA-256 the agent approvals are stored under agrees with Node's crypto: the FIPS test
// vectors, lengths around the block padding edges, and random bytes and text.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256Hex, sha256Text } from "../../src/core/sha256";

const node = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

describe("sha256", () => {
	it("gives the standard test vectors", () => {
		expect(sha256Text("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
		expect(sha256Text("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
		expect(sha256Text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	});

	it("agrees with Node's crypto at every length around the padding edges", () => {
		for (let n = 0; n <= 200; n++) {
			const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
			expect(sha256Hex(bytes)).toBe(node(bytes));
		}
	});

	it("agrees with Node's crypto on random bytes and text", () => {
		fc.assert(fc.property(fc.uint8Array({ maxLength: 3000 }), (bytes) => sha256Hex(bytes) === node(bytes)));
		fc.assert(fc.property(fc.string({ unit: "grapheme" }), (text) => sha256Text(text) === node(new TextEncoder().encode(text))));
	});
});
