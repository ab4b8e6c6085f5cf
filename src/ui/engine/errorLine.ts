// An engine or provider error in one line of the person's language (a menu item, a message under a
// setting): the diagnosis's title and its message, the server's own words kept apart for "Details".
// An error the engine did not classify (no kind, no code) is shown as it came: nothing to translate.
import { errorKind } from "../../providers/errors";
import { diagnose } from "../panel/errorDiagnosis";

export function errorLine(err: unknown): { title: string; text: string; said?: string } {
	const coded = typeof err === "object" && err !== null && "code" in err;
	if (errorKind(err) === undefined && !coded) {
		const text = err instanceof Error ? err.message : String(err);
		return { title: text, text };
	}
	const d = diagnose(err);
	const text = d.detail !== "" && d.detail !== d.title ? `${d.title}. ${d.detail}` : d.title;
	return { title: d.title, text, ...(d.said ? { said: d.said } : {}) };
}
