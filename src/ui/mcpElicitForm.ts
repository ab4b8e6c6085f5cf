// An MCP server's form (elicitation) as the person fills it in: each field of the request's flat
// schema becomes one control with its starting value (the field's default, SEP-1034), and what the
// controls hold becomes the content sent back, or the reason each field does not fit yet. Pure:
// the card (mcpElicitCard.ts) draws it; the property test checks that what it would send always
// fits the schema and that untouched defaults go back as they came.
import { fieldIssue, type ElicitField, type ElicitRequest, type ElicitValue, type FieldIssue } from "../mcp/elicitation";

export type FormControl = "text" | "email" | "url" | "date" | "dateTime" | "number" | "integer" | "checkbox" | "select" | "multi";

export interface FormChoice {
	value: string;
	/** The server's title for it (enumNames / oneOf), else the value. */
	label: string;
}

export interface FormField {
	name: string;
	field: ElicitField;
	required: boolean;
	control: FormControl;
	/** What the control starts with: the default, as the control holds it (a multi-select: the values checked). */
	initial: string | boolean | string[];
	choices?: FormChoice[];
}

/** A field's raw value as its control holds it: the text typed or chosen, a checkbox's state, or the values checked. */
export type FormInput = Record<string, string | boolean | string[]>;

export type FormIssue = FieldIssue | { code: "required" };

export type FormOutcome = { ok: true; content: Record<string, ElicitValue> } | { ok: false; issues: Record<string, FormIssue> };

function controlOf(field: ElicitField): FormControl {
	if (field.type === "boolean") return "checkbox";
	if (field.type === "array") return "multi";
	if (field.type === "integer") return "integer";
	if (field.type === "number") return "number";
	if (field.enum !== undefined) return "select";
	switch (field.format) {
		case "email":
			return "email";
		case "uri":
			return "url";
		case "date":
			return "date";
		case "date-time":
			return "dateTime";
		default:
			return "text";
	}
}

/** The form's fields in the schema's order, each with its control and starting value. */
export function formFields(request: ElicitRequest): FormField[] {
	return Object.entries(request.fields).map(([name, field]) => {
		const control = controlOf(field);
		const d = field.default;
		const initial = control === "checkbox" ? d === true : control === "multi" ? (Array.isArray(d) ? [...d] : []) : d === undefined ? "" : String(d);
		const out: FormField = { name, field, required: request.required.includes(name), control, initial };
		if (field.enum !== undefined) out.choices = field.enum.map((value, i) => ({ value, label: field.enumNames?.[i] ?? value }));
		return out;
	});
}

/** The controls' starting values, by field name. */
export function initialInput(fields: readonly FormField[]): FormInput {
	const input: FormInput = Object.create(null) as FormInput;
	for (const f of fields) input[f.name] = Array.isArray(f.initial) ? [...f.initial] : f.initial;
	return input;
}

// Plain decimal numbers as people type them (and as String() writes them): no hex, no "Infinity".
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** One control's value as the schema's value: undefined when left empty, or why it does not fit. */
function valueOf(f: FormField, raw: string | boolean | string[] | undefined): { value?: ElicitValue } | { issue: FormIssue } {
	if (f.control === "checkbox") return { value: raw === true };
	if (f.control === "multi") {
		const chosen = Array.isArray(raw) ? [...raw] : [];
		// Nothing checked: an optional field is not given (unless its default was the empty list); a
		// required one is the empty list, which its minItems (if any) then refuses with its own message.
		if (chosen.length === 0 && !f.required && !(Array.isArray(f.field.default) && f.field.default.length === 0)) return {};
		return { value: chosen };
	}
	const text = typeof raw === "string" ? raw : "";
	if (f.control === "number" || f.control === "integer") {
		const trimmed = text.trim();
		if (trimmed === "") return {};
		if (!NUMBER.test(trimmed)) return { issue: { code: f.control === "integer" ? "integer" : "number" } };
		return { value: Number(trimmed) };
	}
	// Text is sent as typed (spaces kept). Empty means not given, unless the server's default was "".
	if (text === "" && f.field.default !== "") return {};
	return { value: text };
}

/** What the form would send: every value that fits, or each field's problem (nothing typed is lost: the controls keep it). */
export function formContent(fields: readonly FormField[], input: FormInput): FormOutcome {
	const content: Record<string, ElicitValue> = Object.create(null) as Record<string, ElicitValue>;
	const issues: Record<string, FormIssue> = Object.create(null) as Record<string, FormIssue>;
	for (const f of fields) {
		const read = valueOf(f, Object.hasOwn(input, f.name) ? input[f.name] : undefined);
		if ("issue" in read) {
			issues[f.name] = read.issue;
			continue;
		}
		if (read.value === undefined) {
			if (f.required) issues[f.name] = { code: "required" };
			continue;
		}
		const issue = fieldIssue(f.field, read.value);
		if (issue !== undefined) issues[f.name] = issue;
		else content[f.name] = read.value;
	}
	return Object.keys(issues).length > 0 ? { ok: false, issues } : { ok: true, content };
}
