// Elicitation (a server's `elicitation/create`, form mode): the server asks the person for a few
// values, described by a flat schema of strings (formats email, uri, date, date-time), numbers,
// integers, booleans, enums (plain, `enumNames` or `oneOf` titled) and multi-select enums (spec
// 2025-11-25: `type: "array"` whose items are a string enum or `anyOf` titled, with `minItems` /
// `maxItems`), each possibly with a default (SEP-1034). This file reads such a request (a malformed one is refused as invalid params; a form
// Discover cannot show, such as nested objects or other lists, is marked `unsupported` and declined),
// gives the form's starting values (the defaults), and checks an answer against the schema before
// it is sent. Who answers is the caller's `onElicit`: Discover's app never answers on the person's
// behalf, and declares the capability only when something can ask them.
import { isObject } from "./protocol";

export type ElicitValue = string | number | boolean | string[];

export interface ElicitField {
	/** "array" is a multi-select: its choices are `enum` (titles in `enumNames`), the value a list of them. */
	type: "string" | "number" | "integer" | "boolean" | "array";
	title?: string;
	description?: string;
	enum?: string[];
	enumNames?: string[];
	minimum?: number;
	maximum?: number;
	minLength?: number;
	maxLength?: number;
	minItems?: number;
	maxItems?: number;
	format?: string;
	default?: ElicitValue;
}

export interface ElicitRequest {
	/** The server's words for the person (untrusted: shown as text, never followed). */
	message: string;
	fields: Record<string, ElicitField>;
	required: string[];
	/**
	 * Why this form cannot be shown (a nested object, a list, too many fields): the request is
	 * declined whatever the handler answers; the handler may tell the person why. Fields are empty.
	 */
	unsupported?: string;
}

export type ElicitResult = { action: "accept"; content: Record<string, ElicitValue> } | { action: "decline" } | { action: "cancel" };

/** Asks the person (or, in a test harness, whoever stands in for them). */
export type ElicitHandler = (request: ElicitRequest, signal: AbortSignal) => Promise<ElicitResult>;

const MAX_FIELDS = 50;
const MAX_MESSAGE = 4000;
const TYPES = ["string", "number", "integer", "boolean"];

const MAX_CHOICES = 200;
/** The string formats the spec allows in a form; another is shown as plain text. */
export const STRING_FORMATS = ["email", "uri", "date", "date-time"] as const;

/** A titled choice list (`oneOf: [{const, title}]`) as enum + enumNames, or why it is not one. */
function titledChoices(oneOf: unknown[]): { enum: string[]; enumNames: string[] } | undefined {
	const values: string[] = [];
	const names: string[] = [];
	for (const option of oneOf.slice(0, MAX_CHOICES)) {
		if (!isObject(option) || typeof option.const !== "string") return undefined;
		values.push(option.const);
		names.push(typeof option.title === "string" ? option.title.slice(0, 500) : option.const);
	}
	return { enum: values, enumNames: names };
}

/** A multi-select (`items` a string enum, or `anyOf` titled), or why it is another kind of list. */
function readMultiSelect(label: string, raw: Record<string, unknown>): ElicitField | string {
	const items = raw.items;
	const other = `${label} is a list of a kind Discover cannot show as a form (only a multiple choice of text values).`;
	if (!isObject(items)) return other;
	let choices: { enum: string[]; enumNames?: string[] } | undefined;
	if (items.type === "string" && Array.isArray(items.enum) && items.enum.every((v) => typeof v === "string")) choices = { enum: items.enum.slice(0, MAX_CHOICES) };
	else if (Array.isArray(items.anyOf)) choices = titledChoices(items.anyOf);
	if (choices === undefined) return other;
	if (choices.enum.length === 0) return `${label} offers no choices.`;
	const field: ElicitField = { type: "array", enum: choices.enum };
	if (choices.enumNames !== undefined) field.enumNames = choices.enumNames;
	for (const key of ["title", "description"] as const) if (typeof raw[key] === "string") field[key] = (raw[key]).slice(0, 500);
	for (const key of ["minItems", "maxItems"] as const) if (typeof raw[key] === "number" && Number.isInteger(raw[key]) && raw[key] >= 0) field[key] = raw[key];
	if (raw.default !== undefined && fieldProblem(field, raw.default) === undefined) field.default = [...(raw.default as string[])];
	return field;
}

/** One field of the schema as Discover shows it, or why it cannot be shown. */
function readField(name: string, raw: unknown): ElicitField | string {
	const label = `The field "${name.slice(0, 60)}"`;
	if (!isObject(raw) || typeof raw.type !== "string") return `${label} has no type.`;
	if (raw.type === "array") return readMultiSelect(label, raw);
	if (raw.type === "object") return `${label} is a nested object, which Discover cannot show as a form.`;
	if (!TYPES.includes(raw.type)) return `${label} is not a string, number, integer or boolean.`;
	const field: ElicitField = { type: raw.type as ElicitField["type"] };
	for (const key of ["title", "description", "format"] as const) if (typeof raw[key] === "string") field[key] = (raw[key]).slice(0, 500);
	for (const key of ["minimum", "maximum", "minLength", "maxLength"] as const) if (typeof raw[key] === "number" && Number.isFinite(raw[key])) field[key] = raw[key];
	if (Array.isArray(raw.enum)) {
		if (field.type !== "string" || !raw.enum.every((v) => typeof v === "string")) return `${label} has an enum that is not text.`;
		field.enum = (raw.enum).slice(0, MAX_CHOICES);
		if (Array.isArray(raw.enumNames) && raw.enumNames.every((v) => typeof v === "string")) field.enumNames = (raw.enumNames).slice(0, MAX_CHOICES).map((n) => n.slice(0, 500));
	} else if (Array.isArray(raw.oneOf)) {
		const choices = field.type === "string" ? titledChoices(raw.oneOf) : undefined;
		if (choices === undefined) return `${label} has choices that are not text.`;
		field.enum = choices.enum;
		field.enumNames = choices.enumNames;
	}
	if (field.enum !== undefined && field.enum.length === 0) return `${label} offers no choices.`;
	if (raw.default !== undefined && fieldProblem(field, raw.default) === undefined) field.default = raw.default as ElicitValue;
	return field;
}

/**
 * The request as Discover can show it; a string says why it is malformed (sent back as invalid
 * params); a well-formed request Discover cannot show as a form comes back with `unsupported`.
 */
export function parseElicitRequest(params: unknown): ElicitRequest | string {
	if (!isObject(params) || typeof params.message !== "string") return "elicitation/create needs a message.";
	if (params.mode !== undefined && params.mode !== "form") return "Only form elicitation is supported.";
	const schema = params.requestedSchema;
	if (!isObject(schema) || schema.type !== "object" || !isObject(schema.properties)) return "requestedSchema must be an object schema with properties.";
	const message = params.message.slice(0, MAX_MESSAGE);
	const entries = Object.entries(schema.properties);
	const unsupported = (why: string): ElicitRequest => ({ message, fields: Object.create(null) as Record<string, ElicitField>, required: [], unsupported: why });
	if (entries.length > MAX_FIELDS) return unsupported(`The form has more than ${MAX_FIELDS} fields.`);
	// Without a prototype, and asked only for own keys: a field named "__proto__" or "constructor" is
	// a field like any other (a plain object would take the first as its prototype).
	const fields: Record<string, ElicitField> = Object.create(null) as Record<string, ElicitField>;
	for (const [name, raw] of entries) {
		const field = readField(name, raw);
		if (typeof field === "string") return unsupported(field);
		fields[name] = field;
	}
	const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((r): r is string => typeof r === "string" && Object.hasOwn(fields, r)) : [];
	return { message, fields, required };
}

/** The form's starting values: each field's default, where it has one (SEP-1034). */
export function elicitDefaults(request: ElicitRequest): Record<string, ElicitValue> {
	const out: Record<string, ElicitValue> = Object.create(null) as Record<string, ElicitValue>;
	for (const [name, field] of Object.entries(request.fields)) if (field.default !== undefined) out[name] = Array.isArray(field.default) ? [...field.default] : field.default;
	return out;
}

/** Why a value does not fit its field, as a code the form turns into the person's language. */
export type FieldIssue =
	| { code: "boolean" | "number" | "integer" | "text" | "choice" | "email" | "uri" | "date" | "dateTime" }
	| { code: "list" }
	| { code: "minimum" | "maximum" | "minLength" | "maxLength" | "minItems" | "maxItems"; limit: number };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 (what JSON Schema's date-time means): seconds and an offset are part of it.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function isDate(text: string): boolean {
	const m = DATE.exec(text);
	if (m === null) return false;
	const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const date = new Date(Date.UTC(y, mo - 1, d));
	return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function parses(url: string): boolean {
	try {
		new URL(url);
		return true;
	} catch {
		return false;
	}
}

function formatIssue(format: string | undefined, value: string): FieldIssue | undefined {
	switch (format) {
		case "email":
			return EMAIL.test(value) ? undefined : { code: "email" };
		case "uri":
			return /^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$/.test(value) && parses(value) ? undefined : { code: "uri" };
		case "date":
			return isDate(value) ? undefined : { code: "date" };
		case "date-time": {
			const m = DATE_TIME.exec(value);
			return m !== null && isDate(m[1] ?? "") && Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4]) < 61 ? undefined : { code: "dateTime" };
		}
		default:
			return undefined;
	}
}

/** Why a value does not fit its field, or undefined. */
export function fieldIssue(field: ElicitField, value: unknown): FieldIssue | undefined {
	if (field.type === "boolean") return typeof value === "boolean" ? undefined : { code: "boolean" };
	if (field.type === "array") {
		if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return { code: "list" };
		// Each a choice, none twice (a multi-select picks each option at most once).
		if (!value.every((v) => field.enum?.includes(v) === true) || new Set(value).size !== value.length) return { code: "choice" };
		if (field.minItems !== undefined && value.length < field.minItems) return { code: "minItems", limit: field.minItems };
		if (field.maxItems !== undefined && value.length > field.maxItems) return { code: "maxItems", limit: field.maxItems };
		return undefined;
	}
	if (field.type === "number" || field.type === "integer") {
		if (typeof value !== "number" || !Number.isFinite(value)) return { code: "number" };
		if (field.type === "integer" && !Number.isInteger(value)) return { code: "integer" };
		if (field.minimum !== undefined && value < field.minimum) return { code: "minimum", limit: field.minimum };
		if (field.maximum !== undefined && value > field.maximum) return { code: "maximum", limit: field.maximum };
		return undefined;
	}
	if (typeof value !== "string") return { code: "text" };
	if (field.enum !== undefined) return field.enum.includes(value) ? undefined : { code: "choice" };
	// Characters as a person counts them (code points), as JSON Schema counts them.
	const length = [...value].length;
	if (field.minLength !== undefined && length < field.minLength) return { code: "minLength", limit: field.minLength };
	if (field.maxLength !== undefined && length > field.maxLength) return { code: "maxLength", limit: field.maxLength };
	return formatIssue(field.format, value);
}

/** Why a value does not fit its field (plain English, for logs and tests), or undefined. */
export function fieldProblem(field: ElicitField, value: unknown): string | undefined {
	const issue = fieldIssue(field, value);
	if (issue === undefined) return undefined;
	switch (issue.code) {
		case "boolean":
			return "must be true or false";
		case "number":
			return "must be a number";
		case "integer":
			return "must be a whole number";
		case "text":
			return "must be text";
		case "list":
			return "must be a list of the choices";
		case "minItems":
			return `must have at least ${issue.limit} choices`;
		case "maxItems":
			return `must have at most ${issue.limit} choices`;
		case "choice":
			return "must be one of the choices";
		case "minimum":
			return `must be at least ${issue.limit}`;
		case "maximum":
			return `must be at most ${issue.limit}`;
		case "minLength":
			return `must be at least ${issue.limit} characters`;
		case "maxLength":
			return `must be at most ${issue.limit} characters`;
		case "email":
			return "must be an email address";
		case "uri":
			return "must be an address (URI)";
		case "date":
			return "must be a date (YYYY-MM-DD)";
		case "dateTime":
			return "must be a date and time (RFC 3339)";
	}
}

/**
 * An answer as it may be sent: accepted content with only the schema's fields, each fitting its
 * field, and every required one present; decline and cancel as they are. Anything else is a cancel.
 */
export function checkedElicitResult(request: ElicitRequest, result: unknown): ElicitResult {
	if (request.unsupported !== undefined) return { action: "decline" };
	if (!isObject(result)) return { action: "cancel" };
	if (result.action === "decline") return { action: "decline" };
	if (result.action !== "accept" || !isObject(result.content)) return { action: "cancel" };
	const content: Record<string, ElicitValue> = Object.create(null) as Record<string, ElicitValue>;
	for (const [name, field] of Object.entries(request.fields)) {
		const value = Object.hasOwn(result.content, name) ? result.content[name] : undefined;
		if (value === undefined) continue;
		if (fieldProblem(field, value) !== undefined) return { action: "cancel" };
		content[name] = Array.isArray(value) ? [...(value as string[])] : (value as ElicitValue);
	}
	if (request.required.some((name) => !Object.hasOwn(content, name))) return { action: "cancel" };
	return { action: "accept", content };
}
