// A tool's input schema made fit for the dialect it is sent in, or the reason it cannot be. Outside
// tools (MCP servers) bring any JSON Schema; each provider takes a narrower one, and one bad schema
// must never fail the whole request (Smart Composer #442: `additionalProperties` broke Gemini).
// What each dialect is known to take (the validators below encode it; the cleaning keeps to it):
// - every dialect: the parameters are an object schema, `type: "object"` at the root, with no
//   anyOf/oneOf/allOf there (Anthropic: "input_schema does not support oneOf, allOf, or anyOf at
//   the top level"; OpenAI: "schema must be a JSON Schema of 'type: \"object\"'"); no `$ref`
//   (references are inlined here when they are finite; a schema that refers to itself cannot be
//   written out, so that tool is turned off);
// - OpenAI-compatible servers (OpenAI's FunctionDefinition.parameters "described as a JSON Schema
//   object"; Gemini's OpenAI-compatible endpoint takes only an OpenAPI 3.0 subset: no
//   `additionalProperties`, no `$schema`, `format` only "enum" and "date-time" on strings);
// - Anthropic (`input_schema`, JSON Schema, object root);
// - Ollama (api.Tool: parameters `{type string, required []string, properties map[string]{type
//   string | []string, items any, description string, enum []any}}`: a field of another JSON type
//   fails the whole request's decoding).
// Everything else a schema holds that a dialect does not take is dropped; a dropped `format` or
// `const` is said in the description instead, so the model still reads it. The output's keys are
// sorted: the same schema always serializes the same way (it is part of the prompt prefix a server caches).

export type SchemaDialect = "openai" | "anthropic" | "ollama";

export const SCHEMA_DIALECTS: readonly SchemaDialect[] = ["openai", "anthropic", "ollama"];

export type CleanedSchema = { ok: true; schema: Record<string, unknown> } | { ok: false; reason: string };

/** Bounds on what a cleaned schema may grow to once its references are inlined. */
export const MAX_SCHEMA_NODES = 2_000;
export const MAX_SCHEMA_DEPTH = 24;

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);

/** Keywords kept (besides the structural ones handled one by one). */
const KEPT_NUMBER_KEYS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems"] as const;

/** Formats each dialect takes on strings (others are moved into the description). */
const FORMATS: Record<SchemaDialect, ReadonlySet<string>> = {
	openai: new Set(["date-time", "enum"]),
	anthropic: new Set(["date-time", "date", "time", "duration", "email", "hostname", "uri", "uuid", "ipv4", "ipv6"]),
	ollama: new Set(),
};

class Unexpressible extends Error {}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets an own key, "__proto__" included (plain assignment would set the prototype instead). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
	Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function has(target: Record<string, unknown>, key: string): boolean {
	return Object.prototype.hasOwnProperty.call(target, key);
}

interface Walk {
	dialect: SchemaDialect;
	root: Record<string, unknown>;
	nodes: number;
}

/** The schema a local `$ref` ("#", "#/$defs/x", "#/definitions/x", a JSON pointer) names. */
function resolveRef(ref: string, root: Record<string, unknown>): unknown {
	if (!ref.startsWith("#")) throw new Unexpressible(`its schema refers to another document (${ref.slice(0, 80)})`);
	const pointer = ref.slice(1);
	if (pointer === "") return root;
	if (!pointer.startsWith("/")) throw new Unexpressible(`its schema uses an anchor reference (${ref.slice(0, 80)})`);
	let at: unknown = root;
	for (const raw of pointer.slice(1).split("/")) {
		const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
		if (!isObject(at) && !Array.isArray(at)) throw new Unexpressible(`its schema refers to ${ref.slice(0, 80)}, which does not exist`);
		at = (at as Record<string, unknown>)[key];
		if (at === undefined) throw new Unexpressible(`its schema refers to ${ref.slice(0, 80)}, which does not exist`);
	}
	return at;
}

function typesOf(value: unknown): string[] {
	const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
	const out: string[] = [];
	for (const t of list) if (typeof t === "string" && JSON_TYPES.has(t) && !out.includes(t)) out.push(t);
	return out;
}

function note(description: string | undefined, extra: string): string {
	return description === undefined || description === "" ? extra : `${description} (${extra})`;
}

/** A copy of an enum's values that JSON can hold (finite numbers, strings, booleans, null). */
function enumValues(values: unknown[], dialect: SchemaDialect): unknown[] {
	const out: unknown[] = [];
	const seen = new Set<string>();
	for (const v of values) {
		const ok = v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
		if (!ok) continue;
		// Ollama's template and Gemini read enums as strings; others keep the values as given.
		const value = dialect === "ollama" ? (v === null ? "null" : String(v)) : v;
		const key = JSON.stringify(value);
		if (seen.has(key)) continue;
		seen.add(key);
		out.push(value);
	}
	return out;
}

/**
 * One schema node, cleaned. `stack`: the references being inlined above it (a reference met again
 * is a cycle: the schema cannot be written out finitely).
 */
function cleanNode(node: unknown, walk: Walk, depth: number, stack: readonly string[]): Record<string, unknown> {
	if (++walk.nodes > MAX_SCHEMA_NODES) throw new Unexpressible(`its schema is too large (over ${MAX_SCHEMA_NODES.toLocaleString("en-US")} parts once its references are written out)`);
	if (depth > MAX_SCHEMA_DEPTH) throw new Unexpressible(`its schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
	// `true` (anything) and a non-object: an unconstrained value, said as a string the model can fill.
	if (!isObject(node)) {
		if (node === false) throw new Unexpressible("its schema accepts no value at all");
		return {};
	}
	if (typeof node.$ref === "string") {
		const ref = node.$ref;
		if (stack.includes(ref)) throw new Unexpressible(`its schema refers to itself (${ref.slice(0, 80)}), so it cannot be written out`);
		const target = resolveRef(ref, walk.root);
		// Keywords beside a $ref (2019-09 on) are merged over the target's.
		const { $ref: _ref, ...beside } = node;
		const merged = isObject(target) ? { ...target, ...beside } : beside;
		return cleanNode(merged, walk, depth + 1, [...stack, ref]);
	}
	const out: Record<string, unknown> = {};
	let description = typeof node.description === "string" ? node.description : undefined;
	if (description === undefined && typeof node.title === "string" && node.title !== "") description = node.title;

	// Unions: a plain list of types where every branch is only a type; else the first branch that is
	// not null, said in the description (every dialect takes a single schema; not all take anyOf).
	const union = [node.anyOf, node.oneOf].find((u) => Array.isArray(u) && u.length > 0) as unknown[] | undefined;
	let base: Record<string, unknown> = node;
	if (union !== undefined) {
		const resolved = union.map((b) => (isObject(b) && typeof b.$ref === "string" ? cleanNode(b, walk, depth + 1, stack) : b));
		const simple = resolved.every((b) => isObject(b) && Object.keys(b).every((k) => k === "type" || k === "description") && typesOf(b.type).length > 0);
		if (simple) {
			const types = resolved.flatMap((b) => typesOf((b as Record<string, unknown>).type));
			base = { ...node, type: [...new Set(types)] };
		} else {
			const chosen = resolved.find((b) => !(isObject(b) && b.type === "null")) ?? resolved[0];
			base = isObject(chosen) ? { ...chosen, ...(description !== undefined ? { description } : {}) } : node;
			if (resolved.length > 1) description = note(description, "one of several shapes; this is the first");
		}
	}
	// allOf: the branches merged (properties and required joined), the node's own keywords last.
	if (Array.isArray(node.allOf) && node.allOf.length > 0) {
		const merged: Record<string, unknown> = {};
		const properties: Record<string, unknown> = {};
		const required: string[] = [];
		for (const branch of [...(node.allOf as unknown[]), base]) {
			const b: unknown = isObject(branch) && typeof branch.$ref === "string" ? cleanNode(branch, walk, depth + 1, stack) : branch;
			if (!isObject(b)) continue;
			for (const [k, v] of Object.entries(b)) put(merged, k, v);
			if (isObject(b.properties)) for (const [k, v] of Object.entries(b.properties)) put(properties, k, v);
			if (Array.isArray(b.required)) for (const r of b.required) if (typeof r === "string" && !required.includes(r)) required.push(r);
		}
		delete merged.allOf;
		if (Object.keys(properties).length > 0) merged.properties = properties;
		if (required.length > 0) merged.required = required;
		base = merged;
	}

	// The root is the arguments object whatever a union's chosen branch says (a string branch's
	// `format` must not survive onto an object: cleaning twice would then move it to the description).
	if (depth === 0) base = { ...base, type: "object" };
	let types = typesOf(base.type);
	if (types.length === 0 && isObject(base.properties)) types = ["object"];
	if (types.length === 0 && base.items !== undefined) types = ["array"];
	if (Array.isArray(base.enum) || base.const !== undefined) {
		const values = enumValues(Array.isArray(base.enum) ? base.enum : [base.const], walk.dialect);
		if (values.length > 0) {
			out.enum = values;
			if (types.length === 0) types = [...new Set(values.map((v) => (v === null ? "null" : typeof v === "number" ? "number" : typeof v)))];
		}
		if (walk.dialect === "ollama" && values.length > 0) types = ["string"];
	}
	if (types.length === 1) out.type = types[0];
	else if (types.length > 1) out.type = types.includes("null") && walk.dialect !== "anthropic" ? (types.filter((t) => t !== "null").length === 1 ? types.filter((t) => t !== "null")[0] : types) : types;

	const format = typeof base.format === "string" ? base.format : undefined;
	if (format !== undefined) {
		if (FORMATS[walk.dialect].has(format) && (out.type === "string" || types.includes("string"))) out.format = format;
		else description = note(description, `format: ${format.slice(0, 40)}`);
	}
	if (typeof base.pattern === "string" && walk.dialect !== "ollama") out.pattern = base.pattern;
	for (const key of KEPT_NUMBER_KEYS) {
		const value = base[key];
		if (walk.dialect !== "ollama" && typeof value === "number" && Number.isFinite(value)) out[key] = value;
	}
	if (base.default !== undefined && walk.dialect !== "ollama") {
		const json = JSON.stringify(base.default);
		if (json !== undefined && json.length <= 500) out.default = JSON.parse(json) as unknown;
	}

	if (types.includes("object") || isObject(base.properties)) {
		const properties: Record<string, unknown> = {};
		if (isObject(base.properties)) {
			for (const key of Object.keys(base.properties).sort()) put(properties, key, cleanNode(base.properties[key], walk, depth + 1, stack));
		}
		if (Object.keys(properties).length > 0 || depth === 0) out.properties = properties;
		if (Array.isArray(base.required)) {
			const required = [...new Set(base.required.filter((r): r is string => typeof r === "string" && has(properties, r)))];
			if (required.length > 0) out.required = required;
		}
	}
	if (types.includes("array") || base.items !== undefined) {
		const items: unknown = Array.isArray(base.items) ? (base.items as unknown[])[0] : base.items;
		if (Array.isArray(base.items) && base.items.length > 1) description = note(description, "a list whose first item's shape is shown");
		out.items = items === undefined ? {} : cleanNode(items, walk, depth + 1, stack);
	}
	if (description !== undefined) out.description = description.length > 1_000 ? `${description.slice(0, 1_000)}…` : description;
	return sortKeys(out);
}

/** A copy with every object's keys in order (arrays keep theirs): one schema, one serialization. */
export function sortKeys<T>(value: T): T {
	if (Array.isArray(value)) return value.map((v: unknown) => sortKeys(v)) as T;
	if (!isObject(value)) return value;
	const out: Record<string, unknown> = {};
	for (const key of Object.keys(value).sort()) put(out, key, sortKeys(value[key]));
	return out as T;
}

/**
 * `schema` as `dialect` takes it, or why it cannot be: the reason is plain words, shown with the
 * tool turned off. Never throws, always ends (references are followed at most once per path, and
 * the output is bounded by MAX_SCHEMA_NODES).
 */
export function cleanToolSchema(schema: unknown, dialect: SchemaDialect): CleanedSchema {
	if (!isObject(schema)) return { ok: false, reason: "its input schema is not an object" };
	const rootTypes = typesOf(schema.type);
	if (rootTypes.length > 0 && !rootTypes.includes("object")) return { ok: false, reason: `its input is a ${rootTypes.join(" or ")}, not an object of named arguments` };
	const walk: Walk = { dialect, root: schema, nodes: 0 };
	try {
		const cleaned = cleanNode({ ...schema, type: "object" }, walk, 0, []);
		const root = { ...cleaned, type: "object", properties: isObject(cleaned.properties) ? cleaned.properties : {} };
		const checked = schemaProblem(root, dialect);
		if (checked !== undefined) return { ok: false, reason: checked };
		return { ok: true, schema: sortKeys(root) };
	} catch (err) {
		if (err instanceof Unexpressible) return { ok: false, reason: err.message };
		if (err instanceof RangeError) return { ok: false, reason: "its schema is too deeply nested" };
		return { ok: false, reason: `its schema could not be read (${err instanceof Error ? err.message : String(err)})` };
	}
}

// ----- The dialects' rules, as validators: what a schema sent in each must satisfy. -----

const FORBIDDEN_EVERYWHERE = ["$ref", "$schema", "$defs", "definitions", "$id", "$anchor", "$dynamicRef", "$comment"];

function nodeProblem(node: unknown, dialect: SchemaDialect, path: string, depth: number): string | undefined {
	if (depth > MAX_SCHEMA_DEPTH + 2) return `${path} is nested too deeply`;
	if (!isObject(node)) return `${path} is not a schema object`;
	for (const key of FORBIDDEN_EVERYWHERE) if (key in node) return `${path} has ${key}`;
	if (dialect === "openai" && ("additionalProperties" in node || "patternProperties" in node)) return `${path} has additionalProperties (Gemini's OpenAI-compatible endpoint refuses it)`;
	if ("type" in node) {
		const t = node.type;
		const list = Array.isArray(t) ? t : [t];
		if (list.length === 0 || !list.every((x) => typeof x === "string" && JSON_TYPES.has(x))) return `${path} has a type that is not a JSON type`;
	}
	if ("format" in node) {
		if (typeof node.format !== "string" || !FORMATS[dialect].has(node.format)) return `${path} has a format ${dialect} does not take`;
		if (!typesOf(node.type).includes("string")) return `${path} has a format but is not a string`;
	}
	if ("description" in node && typeof node.description !== "string") return `${path} has a description that is not text`;
	if ("enum" in node && (!Array.isArray(node.enum) || node.enum.length === 0)) return `${path} has an enum that is not a list of values`;
	if (dialect === "ollama" && Array.isArray(node.enum) && !node.enum.every((v) => typeof v === "string")) return `${path} has enum values that are not text`;
	if ("required" in node && (!Array.isArray(node.required) || !node.required.every((r) => typeof r === "string"))) return `${path} has a required list that is not names`;
	if ("properties" in node) {
		if (!isObject(node.properties)) return `${path} has properties that are not an object`;
		for (const [key, value] of Object.entries(node.properties)) {
			const problem = nodeProblem(value, dialect, `${path}.${key}`, depth + 1);
			if (problem !== undefined) return problem;
		}
		if (Array.isArray(node.required)) for (const r of node.required) if (!has(node.properties, r as string)) return `${path} requires ${String(r)}, which it does not define`;
	}
	if ("items" in node) {
		if (Array.isArray(node.items)) return `${path} has a tuple of items`;
		const problem = nodeProblem(node.items, dialect, `${path}[]`, depth + 1);
		if (problem !== undefined) return problem;
	}
	for (const union of ["anyOf", "oneOf", "allOf", "not", "if", "then", "else"]) if (union in node) return `${path} has ${union}`;
	for (const [key, value] of Object.entries(node)) if (typeof value === "number" && !Number.isFinite(value)) return `${path}.${key} is not a finite number`;
	return undefined;
}

/** Why `schema` would be refused (or silently misread) by `dialect`; undefined when it is fine. */
export function schemaProblem(schema: unknown, dialect: SchemaDialect): string | undefined {
	if (!isObject(schema)) return "the parameters are not an object";
	if (schema.type !== "object") return 'the parameters are not of type "object"';
	if (!isObject(schema.properties)) return "the parameters have no properties object";
	try {
		if (JSON.stringify(schema).length > 1_000_000) return "the parameters are over a million characters";
	} catch {
		return "the parameters cannot be written as JSON";
	}
	return nodeProblem(schema, dialect, "parameters", 0);
}
