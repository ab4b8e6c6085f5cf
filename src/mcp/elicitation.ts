// Elicitation (a server's `elicitation/create`, form mode): the server asks the person for a few
// values, described by a flat schema of strings, numbers, integers, booleans and enums, each
// possibly with a default (SEP-1034). This file reads such a request (anything else is refused as
// invalid params), gives the form's starting values (the defaults), and checks an answer against
// the schema before it is sent. Who answers is the caller's `onElicit`: Discover's app never
// answers on the person's behalf, and declares the capability only when something can ask them.
import { isObject } from "./protocol";

export type ElicitValue = string | number | boolean;

export interface ElicitField {
	type: "string" | "number" | "integer" | "boolean";
	title?: string;
	description?: string;
	enum?: string[];
	enumNames?: string[];
	minimum?: number;
	maximum?: number;
	minLength?: number;
	maxLength?: number;
	format?: string;
	default?: ElicitValue;
}

export interface ElicitRequest {
	/** The server's words for the person (untrusted: shown as text, never followed). */
	message: string;
	fields: Record<string, ElicitField>;
	required: string[];
}

export type ElicitResult = { action: "accept"; content: Record<string, ElicitValue> } | { action: "decline" } | { action: "cancel" };

/** Asks the person (or, in a test harness, whoever stands in for them). */
export type ElicitHandler = (request: ElicitRequest, signal: AbortSignal) => Promise<ElicitResult>;

const MAX_FIELDS = 50;
const MAX_MESSAGE = 4000;
const TYPES = ["string", "number", "integer", "boolean"];

/** The request as Discover can show it, or why it cannot (sent back as invalid params). */
export function parseElicitRequest(params: unknown): ElicitRequest | string {
	if (!isObject(params) || typeof params.message !== "string") return "elicitation/create needs a message.";
	if (params.mode !== undefined && params.mode !== "form") return "Only form elicitation is supported.";
	const schema = params.requestedSchema;
	if (!isObject(schema) || schema.type !== "object" || !isObject(schema.properties)) return "requestedSchema must be an object schema with properties.";
	const entries = Object.entries(schema.properties);
	if (entries.length > MAX_FIELDS) return `requestedSchema has more than ${MAX_FIELDS} fields.`;
	// Without a prototype, and asked only for own keys: a field named "__proto__" or "constructor" is
	// a field like any other (a plain object would take the first as its prototype).
	const fields: Record<string, ElicitField> = Object.create(null) as Record<string, ElicitField>;
	for (const [name, raw] of entries) {
		if (!isObject(raw) || typeof raw.type !== "string" || !TYPES.includes(raw.type)) return `The field "${name.slice(0, 60)}" is not a string, number, integer or boolean.`;
		const field: ElicitField = { type: raw.type as ElicitField["type"] };
		for (const key of ["title", "description", "format"] as const) if (typeof raw[key] === "string") field[key] = (raw[key]).slice(0, 500);
		for (const key of ["minimum", "maximum", "minLength", "maxLength"] as const) if (typeof raw[key] === "number" && Number.isFinite(raw[key])) field[key] = raw[key];
		if (Array.isArray(raw.enum)) {
			if (field.type !== "string" || !raw.enum.every((v) => typeof v === "string")) return `The field "${name.slice(0, 60)}" has an enum that is not text.`;
			field.enum = (raw.enum).slice(0, 200);
			if (Array.isArray(raw.enumNames) && raw.enumNames.every((v) => typeof v === "string")) field.enumNames = (raw.enumNames).slice(0, 200);
		}
		if (raw.default !== undefined && fieldProblem(field, raw.default) === undefined) field.default = raw.default as ElicitValue;
		fields[name] = field;
	}
	const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((r): r is string => typeof r === "string" && Object.hasOwn(fields, r)) : [];
	return { message: params.message.slice(0, MAX_MESSAGE), fields, required };
}

/** The form's starting values: each field's default, where it has one (SEP-1034). */
export function elicitDefaults(request: ElicitRequest): Record<string, ElicitValue> {
	const out: Record<string, ElicitValue> = Object.create(null) as Record<string, ElicitValue>;
	for (const [name, field] of Object.entries(request.fields)) if (field.default !== undefined) out[name] = field.default;
	return out;
}

/** Why a value does not fit its field, or undefined. */
export function fieldProblem(field: ElicitField, value: unknown): string | undefined {
	if (field.type === "boolean") return typeof value === "boolean" ? undefined : "must be true or false";
	if (field.type === "number" || field.type === "integer") {
		if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
		if (field.type === "integer" && !Number.isInteger(value)) return "must be a whole number";
		if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
		if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
		return undefined;
	}
	if (typeof value !== "string") return "must be text";
	if (field.enum !== undefined && !field.enum.includes(value)) return "must be one of the choices";
	if (field.minLength !== undefined && value.length < field.minLength) return `must be at least ${field.minLength} characters`;
	if (field.maxLength !== undefined && value.length > field.maxLength) return `must be at most ${field.maxLength} characters`;
	return undefined;
}

/**
 * An answer as it may be sent: accepted content with only the schema's fields, each fitting its
 * field, and every required one present; decline and cancel as they are. Anything else is a cancel.
 */
export function checkedElicitResult(request: ElicitRequest, result: unknown): ElicitResult {
	if (!isObject(result)) return { action: "cancel" };
	if (result.action === "decline") return { action: "decline" };
	if (result.action !== "accept" || !isObject(result.content)) return { action: "cancel" };
	const content: Record<string, ElicitValue> = Object.create(null) as Record<string, ElicitValue>;
	for (const [name, field] of Object.entries(request.fields)) {
		const value = Object.hasOwn(result.content, name) ? result.content[name] : undefined;
		if (value === undefined) continue;
		if (fieldProblem(field, value) !== undefined) return { action: "cancel" };
		content[name] = value as ElicitValue;
	}
	if (request.required.some((name) => !Object.hasOwn(content, name))) return { action: "cancel" };
	return { action: "accept", content };
}
