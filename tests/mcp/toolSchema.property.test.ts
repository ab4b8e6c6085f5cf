// Cleaning an MCP tool's input schema for each dialect: any JSON (fuzzed, with references, cycles,
// unions, formats and keys the dialects refuse) ends, and gives either a schema the dialect's rules
// accept (schemaProblem: the validator of each dialect's rules) or a reason the tool is turned off.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanToolSchema, schemaProblem, SCHEMA_DIALECTS, sortKeys } from "../../src/chat/toolSchema";

const key = fc.constantFrom("a", "b", "path", "__proto__", "toString", "x y", "$defs", "properties");
const refs = fc.constantFrom("#", "#/$defs/a", "#/$defs/b", "#/definitions/node", "#/properties/a", "#/nope", "http://example.com/s.json", "#anchor");

/** Schemas as servers write them: any keyword of JSON Schema, nested, with references into themselves. */
const schemaArb: fc.Arbitrary<unknown> = fc.letrec<{ schema: unknown }>((tie) => ({
	schema: fc.oneof(
		{ depthSize: "small", withCrossShrink: true },
		fc.jsonValue({ maxDepth: 2 }),
		fc.record(
			{
				type: fc.oneof(fc.constantFrom("object", "string", "integer", "number", "boolean", "array", "null", "weird"), fc.array(fc.constantFrom("string", "null", "object"), { maxLength: 3 })),
				properties: fc.dictionary(key, tie("schema"), { maxKeys: 3 }),
				required: fc.array(fc.oneof(key, fc.integer()), { maxLength: 3 }),
				items: fc.oneof(tie("schema"), fc.array(tie("schema"), { maxLength: 2 })),
				additionalProperties: fc.oneof(fc.boolean(), tie("schema")),
				$ref: refs,
				$defs: fc.record({ a: tie("schema"), b: tie("schema") }, { requiredKeys: [] }),
				definitions: fc.record({ node: tie("schema") }, { requiredKeys: [] }),
				$schema: fc.constant("https://json-schema.org/draft/2020-12/schema"),
				anyOf: fc.array(tie("schema"), { maxLength: 3 }),
				oneOf: fc.array(tie("schema"), { maxLength: 3 }),
				allOf: fc.array(tie("schema"), { maxLength: 3 }),
				format: fc.constantFrom("uri", "date-time", "email", "uuid", "binary", "int64"),
				enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
				const: fc.jsonValue({ maxDepth: 1 }),
				description: fc.oneof(fc.string(), fc.integer()),
				title: fc.string(),
				default: fc.jsonValue({ maxDepth: 1 }),
				minimum: fc.double(),
				pattern: fc.string(),
				not: tie("schema"),
			},
			{ requiredKeys: [] },
		),
	),
})).schema;

describe("cleanToolSchema", () => {
	it("ends on any schema and yields, for every dialect, a schema that dialect's rules accept or a reason to turn the tool off", () => {
		fc.assert(
			fc.property(schemaArb, (schema) => {
				for (const dialect of SCHEMA_DIALECTS) {
					const started = performance.now();
					const out = cleanToolSchema(schema, dialect);
					expect(performance.now() - started).toBeLessThan(1_000);
					if (out.ok) expect(schemaProblem(out.schema, dialect)).toBeUndefined();
					else expect(out.reason.length).toBeGreaterThan(0);
				}
			}),
			{ numRuns: 150 },
		);
	});

	it("is deterministic: the same schema with its keys in another order serializes the same", () => {
		fc.assert(
			fc.property(schemaArb, (schema) => {
				const reversed = reverseKeys(schema);
				for (const dialect of SCHEMA_DIALECTS) expect(JSON.stringify(cleanToolSchema(reversed, dialect))).toBe(JSON.stringify(cleanToolSchema(schema, dialect)));
			}),
			{ numRuns: 80 },
		);
	});

	it("cleaning a cleaned schema changes nothing", () => {
		fc.assert(
			fc.property(schemaArb, (schema) => {
				for (const dialect of SCHEMA_DIALECTS) {
					const once = cleanToolSchema(schema, dialect);
					if (!once.ok) continue;
					const twice = cleanToolSchema(once.schema, dialect);
					expect(twice).toEqual(once);
				}
			}),
			{ numRuns: 80 },
		);
	});
});

function reverseKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(reverseKeys);
	if (typeof value !== "object" || value === null) return value;
	const out: Record<string, unknown> = {};
	for (const k of Object.keys(value).reverse()) Object.defineProperty(out, k, { value: reverseKeys((value as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
	return out;
}

describe("cleanToolSchema, case by case", () => {
	it("keeps no string format on the root when a union's only branch is a string (found by the idempotence property)", () => {
		for (const dialect of SCHEMA_DIALECTS) {
			const once = cleanToolSchema({ anyOf: [{ type: ["string"], format: "uri" }] }, dialect);
			expect(once).toEqual({ ok: true, schema: { description: "format: uri", properties: {}, type: "object" } });
			if (once.ok) expect(cleanToolSchema(once.schema, dialect)).toEqual(once);
		}
		expect(schemaProblem({ type: "object", properties: {}, format: "uri" }, "anthropic")).toMatch(/format but is not a string/);
	});

	it("drops additionalProperties and $schema for OpenAI-compatible servers, keeping the arguments", () => {
		const out = cleanToolSchema({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", additionalProperties: false, properties: { path: { type: "string", format: "uri" } }, required: ["path"] }, "openai");
		expect(out).toEqual({ ok: true, schema: { properties: { path: { description: "format: uri", type: "string" } }, required: ["path"], type: "object" } });
	});

	it("inlines finite references and turns a self-referring schema off with the reason", () => {
		const finite = cleanToolSchema({ type: "object", $defs: { point: { type: "object", properties: { x: { type: "number" } } } }, properties: { at: { $ref: "#/$defs/point" } } }, "anthropic");
		expect(finite).toEqual({ ok: true, schema: { properties: { at: { properties: { x: { type: "number" } }, type: "object" } }, type: "object" } });
		const tree = cleanToolSchema({ type: "object", $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } }, properties: { root: { $ref: "#/$defs/node" } } }, "ollama");
		expect(tree.ok).toBe(false);
		if (!tree.ok) expect(tree.reason).toContain("refers to itself");
	});

	it("turns off a tool whose input is not an object, and one whose references blow up, with reasons", () => {
		expect(cleanToolSchema({ type: "string" }, "openai")).toEqual({ ok: false, reason: "its input is a string, not an object of named arguments" });
		const defs: Record<string, unknown> = { d0: { type: "string" } };
		for (let i = 1; i <= 20; i++) defs[`d${i}`] = { type: "object", properties: { l: { $ref: `#/$defs/d${i - 1}` }, r: { $ref: `#/$defs/d${i - 1}` } } };
		const blown = cleanToolSchema({ type: "object", $defs: defs, properties: { top: { $ref: "#/$defs/d20" } } }, "anthropic");
		expect(blown.ok).toBe(false);
	});

	it("gives Ollama enums as text and a single type per property", () => {
		const out = cleanToolSchema({ type: "object", properties: { n: { enum: [1, 2, null] }, s: { anyOf: [{ type: "string" }, { type: "null" }] } } }, "ollama");
		expect(out).toEqual({ ok: true, schema: { properties: { n: { enum: ["1", "2", "null"], type: "string" }, s: { type: "string" } }, type: "object" } });
	});

	it("validators catch what each dialect refuses", () => {
		expect(schemaProblem({ type: "object", properties: {}, additionalProperties: false }, "openai")).toContain("additionalProperties");
		expect(schemaProblem({ anyOf: [{ type: "object" }] }, "anthropic")).toBe('the parameters are not of type "object"');
		expect(schemaProblem({ type: "object", properties: { a: { type: "string", description: 3 } } }, "ollama")).toContain("description");
		expect(schemaProblem(sortKeys({ type: "object", properties: { a: { type: "string" } } }), "ollama")).toBeUndefined();
	});
});
