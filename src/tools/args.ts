// Reading the model's arguments: untrusted JSON, so every field is checked and a wrong one is a
// ToolError naming it and what it should be.
import { ToolError } from "./paths";

export function optionalString(args: Record<string, unknown>, name: string): string | undefined {
	const v = args[name];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== "string") throw new ToolError(`"${name}" must be text.`);
	return v;
}

export function requiredString(args: Record<string, unknown>, name: string): string {
	const v = optionalString(args, name);
	if (v === undefined) throw new ToolError(`"${name}" is required.`);
	return v;
}

/** A whole number in [min, max], or undefined when absent. Numeric strings ("2") are accepted: some models send them. */
export function optionalInt(args: Record<string, unknown>, name: string, min: number, max: number): number | undefined {
	const raw = args[name];
	if (raw === undefined || raw === null || raw === "") return undefined;
	const v = typeof raw === "string" ? Number(raw) : raw;
	if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) throw new ToolError(`"${name}" must be a whole number from ${min} to ${max}.`);
	return v;
}
