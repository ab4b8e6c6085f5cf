// The form a server's elicitation becomes (src/ui/mcpElicitForm.ts), as properties over random flat
// schemas and random typing: whatever the form would send fits the schema (the protocol's own check
// lets it through unchanged), an untouched form sends the defaults as they came (SEP-1034), and a
// form that refuses says why for each field, never for a field that fits.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkedElicitResult, fieldIssue, parseElicitRequest, type ElicitRequest } from "../../src/mcp/elicitation";
import { formContent, formFields, initialInput, type FormInput } from "../../src/ui/mcpElicitForm";

const name = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
const text = fc.string({ maxLength: 12 });
const num = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map((n) => (Object.is(n, -0) ? 0 : n));
const int = fc.integer({ min: -1000, max: 1000 });

/** Any field of the spec's flat schemas, as a server would write it (its default possibly not fitting). */
const rawField = fc.oneof(
	fc.record({ type: fc.constant("string"), minLength: fc.option(fc.nat(4), { nil: undefined }), maxLength: fc.option(fc.integer({ min: 2, max: 10 }), { nil: undefined }), format: fc.option(fc.constantFrom("email", "uri", "date", "date-time"), { nil: undefined }), default: fc.option(fc.oneof(text, fc.constantFrom("a@b.co", "https://x.org/p", "2024-02-29", "2024-02-30", "2026-01-31T14:30:00Z", "")), { nil: undefined }) }),
	fc.record({ type: fc.constant("number"), minimum: fc.option(num, { nil: undefined }), maximum: fc.option(num, { nil: undefined }), default: fc.option(num, { nil: undefined }) }),
	fc.record({ type: fc.constant("integer"), minimum: fc.option(int, { nil: undefined }), maximum: fc.option(int, { nil: undefined }), default: fc.option(fc.oneof(int, num), { nil: undefined }) }),
	fc.record({ type: fc.constant("boolean"), default: fc.option(fc.boolean(), { nil: undefined }) }),
	fc.uniqueArray(text, { minLength: 1, maxLength: 4 }).chain((values) => fc.record({ type: fc.constant("string"), enum: fc.constant(values), default: fc.option(fc.oneof(fc.constantFrom(...values), text), { nil: undefined }) })),
	fc.uniqueArray(text, { minLength: 1, maxLength: 4 }).chain((values) => fc.record({ type: fc.constant("string"), oneOf: fc.constant(values.map((v) => ({ const: v, title: `T ${v}` }))), default: fc.option(fc.constantFrom(...values), { nil: undefined }) })),
	// Multi-select (spec 2025-11-25): plain or titled items, item bounds, a default list (possibly not fitting).
	fc.uniqueArray(text, { minLength: 1, maxLength: 5 }).chain((values) =>
		fc.record({
			type: fc.constant("array"),
			items: fc.oneof(fc.constant({ type: "string", enum: values }), fc.constant({ anyOf: values.map((v) => ({ const: v, title: `T ${v}` })) })),
			minItems: fc.option(fc.nat(3), { nil: undefined }),
			maxItems: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
			default: fc.option(fc.oneof(fc.shuffledSubarray(values), fc.array(text, { maxLength: 3 })), { nil: undefined }),
		}),
	),
);

const request = fc.dictionary(name, rawField, { minKeys: 1, maxKeys: 6 }).chain((properties) =>
	fc.subarray(Object.keys(properties)).map((required) => {
		const parsed = parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: JSON.parse(JSON.stringify(properties)) as unknown, required } });
		if (typeof parsed === "string" || parsed.unsupported !== undefined) throw new Error(`not read: ${JSON.stringify(parsed)}`);
		return parsed;
	}),
);

/** Random typing: for each field, text (numbers, dates, addresses or anything) or a checkbox state. */
function typing(req: ElicitRequest): fc.Arbitrary<FormInput> {
	const fields = formFields(req);
	const values = fields.map((f) =>
		f.control === "checkbox"
			? fc.boolean()
			: f.control === "multi"
				? fc.oneof(fc.shuffledSubarray((f.choices ?? []).map((c) => c.value)), fc.array(text, { maxLength: 3 }))
				: f.control === "select"
				? fc.oneof(fc.constantFrom("", ...(f.choices ?? []).map((c) => c.value)), text)
				: fc.oneof(text, num.map(String), int.map(String), fc.constantFrom("", " 7 ", "a@b.co", "not an email", "https://x.org", "2024-02-29", "2026-01-31T14:30:00Z", "2026-01-31T14:30")),
	);
	return fc.tuple(...values).map((vs) => Object.fromEntries(fields.map((f, i) => [f.name, vs[i] as string | boolean | string[]])));
}

describe("the elicitation form, as properties", () => {
	it("what the form sends always fits the schema: the protocol's check passes it unchanged", () => {
		fc.assert(
			fc.property(
				request.chain((req) => fc.tuple(fc.constant(req), typing(req))),
				([req, input]) => {
					const fields = formFields(req);
					const out = formContent(fields, input);
					if (!out.ok) {
						// Each refusal names a field of the form; a field that is filled in and fits is never refused.
						for (const key of Object.keys(out.issues)) expect(Object.hasOwn(req.fields, key)).toBe(true);
						return;
					}
					for (const [key, value] of Object.entries(out.content)) expect(fieldIssue(req.fields[key]!, value)).toBeUndefined();
					for (const key of req.required) expect(Object.hasOwn(out.content, key)).toBe(true);
					expect(checkedElicitResult(req, { action: "accept", content: out.content })).toEqual({ action: "accept", content: out.content });
				},
			),
			{ numRuns: 300 },
		);
	});

	it("an untouched form sends every default as it came; it refuses only required fields without a default", () => {
		fc.assert(
			fc.property(request, (req) => {
				const fields = formFields(req);
				const out = formContent(fields, initialInput(fields));
				// A required multi-select left empty is the empty list: refused only by its minItems.
				const emptyList = (k: string): boolean => req.fields[k]!.type === "array" && (req.fields[k]!.minItems ?? 0) === 0;
				const missing = req.required.filter((k) => req.fields[k]!.default === undefined && req.fields[k]!.type !== "boolean" && !emptyList(k));
				if (!out.ok) {
					expect(Object.keys(out.issues).sort()).toEqual(missing.sort());
					for (const [k, issue] of Object.entries(out.issues)) expect(issue.code).toBe(req.fields[k]!.type === "array" ? "minItems" : "required");
					return;
				}
				expect(missing).toEqual([]);
				for (const [key, field] of Object.entries(req.fields)) {
					if (field.default !== undefined) expect(out.content[key]).toStrictEqual(field.default);
					else if (field.type === "boolean") expect(out.content[key]).toBe(false);
					else if (field.type === "array" && req.required.includes(key)) expect(out.content[key]).toStrictEqual([]);
					else expect(Object.hasOwn(out.content, key)).toBe(false);
				}
			}),
			{ numRuns: 300 },
		);
	});
});

describe("the elicitation form, by example", () => {
	it("a titled choice list shows the titles and sends the value; formats are checked", () => {
		const req = parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { c: { type: "string", oneOf: [{ const: "a", title: "Apple" }] }, e: { type: "string", format: "email" } }, required: ["c"] } });
		if (typeof req === "string") throw new Error(req);
		const fields = formFields(req);
		expect(fields[0]?.choices).toEqual([{ value: "a", label: "Apple" }]);
		expect(formContent(fields, { c: "a", e: "nope" })).toEqual({ ok: false, issues: { e: { code: "email" } } });
		expect(formContent(fields, { c: "a", e: "x@y.io" })).toEqual({ ok: true, content: { c: "a", e: "x@y.io" } });
	});

	it("a nested object or a list is a form Discover cannot show: marked, and declined whatever is answered", () => {
		const req = parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { a: { type: "object", properties: {} } } } });
		if (typeof req === "string") throw new Error(req);
		expect(req.unsupported).toMatch(/nested object/);
		expect(checkedElicitResult(req, { action: "accept", content: {} })).toEqual({ action: "decline" });
		const list = parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { a: { type: "array", items: { type: "string", enum: ["x"] } } } } });
		expect(typeof list === "string" ? list : list.unsupported).toBeUndefined();
		const objects = parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { a: { type: "array", items: { type: "object" } } } } });
		expect(typeof objects === "string" ? objects : objects.unsupported).toMatch(/list/);
		const numbers = parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { a: { type: "array", items: { type: "number", enum: [1, 2] } } } } });
		expect(typeof numbers === "string" ? numbers : numbers.unsupported).toMatch(/list/);
		const free = parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { a: { type: "array", items: { type: "string" } } } } });
		expect(typeof free === "string" ? free : free.unsupported).toMatch(/list/);
	});

	it("a multi-select (titled) shows the titles, starts from its default, checks min/max items and sends the chosen values as a list", () => {
		const req = parseElicitRequest({
			message: "m",
			requestedSchema: { type: "object", properties: { tags: { type: "array", title: "Tags", items: { anyOf: [{ const: "w", title: "Work" }, { const: "h", title: "Home" }, { const: "x", title: "Misc" }] }, minItems: 1, maxItems: 2, default: ["h"] } }, required: ["tags"] },
		});
		if (typeof req === "string") throw new Error(req);
		expect(req.unsupported).toBeUndefined();
		const fields = formFields(req);
		expect(fields[0]?.control).toBe("multi");
		expect(fields[0]?.choices).toEqual([{ value: "w", label: "Work" }, { value: "h", label: "Home" }, { value: "x", label: "Misc" }]);
		expect(formContent(fields, initialInput(fields))).toEqual({ ok: true, content: { tags: ["h"] } });
		expect(formContent(fields, { tags: [] })).toEqual({ ok: false, issues: { tags: { code: "minItems", limit: 1 } } });
		expect(formContent(fields, { tags: ["w", "h", "x"] })).toEqual({ ok: false, issues: { tags: { code: "maxItems", limit: 2 } } });
		expect(formContent(fields, { tags: ["w", "x"] })).toEqual({ ok: true, content: { tags: ["w", "x"] } });
		expect(formContent(fields, { tags: ["w", "nope"] })).toEqual({ ok: false, issues: { tags: { code: "choice" } } });
		expect(checkedElicitResult(req, { action: "accept", content: { tags: ["w", "w"] } })).toEqual({ action: "cancel" });
		expect(checkedElicitResult(req, { action: "accept", content: { tags: "w" } })).toEqual({ action: "cancel" });
		expect(checkedElicitResult(req, { action: "accept", content: { tags: ["x"] } })).toEqual({ action: "accept", content: { tags: ["x"] } });
		// A default that does not fit (unknown value, too many) is dropped, as for any field.
		const bad = parseElicitRequest({ message: "m", requestedSchema: { type: "object", properties: { t: { type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 1, default: ["a", "b"] } } } });
		if (typeof bad === "string") throw new Error(bad);
		expect(bad.fields.t?.default).toBeUndefined();
	});
});
