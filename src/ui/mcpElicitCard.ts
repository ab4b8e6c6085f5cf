// An MCP server's form (elicitation), in the chat: the card says which server asks, shows its
// message as the server's own plain text (never Markdown or HTML, so nothing in it loads or runs),
// and one labelled control per field (mcpElicitForm.ts), the defaults filled in. Send checks every
// field and says what to fix beside it, keeping what was typed; Decline and Cancel answer as they
// say. The answer goes only to the server: nothing here changes a setting or a permission. The
// signal (Stop, the call ending, the server's time limit) ends the form as a cancel. The card
// mounts in its tool call's card, or in a modal when the panel is not on screen.
import { Modal, type App } from "obsidian";
import { t } from "../i18n";
import type { ElicitAsk, ElicitResult } from "./toolsPort";
import { formContent, formFields, type FormField, type FormInput, type FormIssue } from "./mcpElicitForm";
import { titleValue, visibleText } from "./panel/permissionText";

/** What a date-time field expects, shown as its placeholder (a format, not words: not translated). */
const DATE_TIME_EXAMPLE = "2026-01-31T14:30:00Z";
const DATE_EXAMPLE = "2026-01-31";

let formCount = 0;

function issueText(issue: FormIssue): string {
	switch (issue.code) {
		case "required":
			return t("elicit.issueRequired");
		case "number":
		case "boolean":
		case "text":
			return t("elicit.issueNumber");
		case "integer":
			return t("elicit.issueInteger");
		case "minimum":
			return t("elicit.issueMinimum", { limit: String(issue.limit) });
		case "maximum":
			return t("elicit.issueMaximum", { limit: String(issue.limit) });
		case "minLength":
			return t("elicit.issueMinLength", { count: issue.limit });
		case "maxLength":
			return t("elicit.issueMaxLength", { count: issue.limit });
		case "choice":
		case "list":
			return t("elicit.issueChoice");
		case "minItems":
			return t("elicit.issueMinItems", { count: issue.limit });
		case "maxItems":
			return t("elicit.issueMaxItems", { count: issue.limit });
		case "email":
			return t("elicit.issueEmail");
		case "uri":
			return t("elicit.issueUri");
		case "date":
			return t("elicit.issueDate", { example: DATE_EXAMPLE });
		case "dateTime":
			return t("elicit.issueDateTime", { example: DATE_TIME_EXAMPLE });
	}
}

function recordText(result: ElicitResult | "ended"): string {
	if (result === "ended") return t("elicit.recordEnded");
	if (result.action === "accept") return t("elicit.recordSent");
	return result.action === "decline" ? t("elicit.recordDeclined") : t("elicit.recordCancelled");
}

type Control = HTMLInputElement | HTMLSelectElement;

/** A field's controls as the card keeps them: what to focus and mark invalid, and how to read its value. */
interface FieldControls {
	/** Focused when the field needs a change (a multi-select: its first box). */
	control: Control;
	/** Marked aria-invalid (a multi-select: every box). */
	marks: Control[];
	read: () => string | boolean | string[];
	error: HTMLElement;
}

/**
 * Shows the form at the end of `parent` and resolves with the person's answer; it is then replaced
 * by a one-line record ("Sent to the server", "Declined"). An aborted `signal` ends it as a cancel.
 */
export function showElicitation(parent: HTMLElement, ask: ElicitAsk, signal: AbortSignal): Promise<ElicitResult> {
	return new Promise((resolve) => {
		if (signal.aborted) {
			resolve({ action: "cancel" });
			return;
		}
		let card: ElicitCard | undefined;
		let settled = false;
		const onAbort = (): void => card?.end();
		card = new ElicitCard(parent, ask, (result) => {
			// May come from the constructor itself (a form it cannot show is declined at once).
			settled = true;
			signal.removeEventListener("abort", onAbort);
			resolve(result);
		});
		if (settled) return;
		signal.addEventListener("abort", onAbort, { once: true });
		card.focus();
	});
}

class ElicitCard {
	private readonly el: HTMLElement;
	private readonly controls = new Map<string, FieldControls>();
	private readonly fields: FormField[];
	private summaryEl: HTMLElement | undefined;
	private settled = false;

	constructor(
		private readonly parent: HTMLElement,
		ask: ElicitAsk,
		private readonly done: (result: ElicitResult) => void,
	) {
		const id = `discover-elicit-${++formCount}`;
		const { request } = ask;
		this.fields = request.unsupported === undefined ? formFields(request) : [];
		this.el = parent.createDiv({ cls: "discover-elicit", attr: { role: "group", tabindex: "-1", "aria-labelledby": `${id}-title` } });
		this.el.createDiv({ cls: "discover-elicit-label", text: t("elicit.needed") });
		this.el.createDiv({ cls: "discover-elicit-title", text: t("elicit.from", { server: titleValue(ask.server) }), attr: { id: `${id}-title` } });
		// The server's words as text, quoted apart from Discover's, with a note saying whose they are.
		const quote = this.el.createEl("blockquote", { cls: "discover-elicit-message", attr: { "aria-describedby": `${id}-whose` } });
		quote.createSpan({ text: visibleText(request.message) });
		this.el.createDiv({ cls: "discover-elicit-whose", text: t("elicit.whose"), attr: { id: `${id}-whose` } });
		if (request.unsupported !== undefined) {
			// Declined at once: the record says why, in the person's words.
			this.el.createDiv({ cls: "discover-elicit-unsupported", text: t("elicit.unsupported") });
			this.settle({ action: "decline" });
			return;
		}
		const form = this.el.createEl("form", { cls: "discover-elicit-form", attr: { novalidate: "" } });
		for (const [i, field] of this.fields.entries()) this.renderField(form, field, `${id}-f${i}`);
		this.summaryEl = form.createDiv({ cls: ["discover-elicit-summary", "discover-chat-hidden"], attr: { role: "alert" } });
		const actions = form.createDiv({ cls: "discover-elicit-actions" });
		actions.createEl("button", { cls: ["discover-elicit-button", "mod-cta"], text: t("elicit.send"), attr: { type: "submit" } });
		this.button(actions, t("elicit.decline"), () => this.settle({ action: "decline" }));
		this.button(actions, t("elicit.cancel"), () => this.settle({ action: "cancel" }));
		form.addEventListener("submit", (evt) => {
			evt.preventDefault();
			this.send();
		});
	}

	focus(): void {
		if (this.settled) return;
		this.el.focus();
	}

	/** Stop, the call ending or the time limit: the form goes, leaving a record; the answer is a cancel. */
	end(): void {
		if (this.settled) return;
		this.settle({ action: "cancel" }, "ended");
	}

	/** The server's description of a field under `parent`, if it has one: the ids that describe the field. */
	private help(parent: HTMLElement, f: FormField, id: string): string[] {
		if (f.field.description === undefined || f.field.description === "") return [];
		parent.createDiv({ cls: "discover-elicit-help", text: visibleText(f.field.description), attr: { id: `${id}-help` } });
		return [`${id}-help`];
	}

	/** A field's problem line (hidden until it has one); its id joins `described`. */
	private problemLine(parent: HTMLElement, id: string, described: string[]): HTMLElement {
		described.push(`${id}-error`);
		return parent.createDiv({ cls: ["discover-elicit-error", "discover-chat-hidden"], attr: { id: `${id}-error` } });
	}

	private renderField(form: HTMLElement, f: FormField, id: string): void {
		if (f.control === "multi") {
			this.renderMulti(form, f, id);
			return;
		}
		const row = form.createDiv({ cls: ["discover-elicit-field", `is-${f.control}`] });
		const labelText = titleValue(f.field.title ?? f.name);
		let control: Control | undefined;
		if (f.control === "checkbox") {
			const label = row.createEl("label", { cls: "discover-elicit-check", attr: { for: id } });
			const box = label.createEl("input", { cls: "discover-elicit-control", attr: { id, type: "checkbox" } });
			box.checked = f.initial === true;
			label.createSpan({ cls: "discover-elicit-name", text: labelText });
			control = box;
		} else {
			const label = row.createEl("label", { cls: "discover-elicit-name", attr: { for: id }, text: labelText });
			if (f.required) label.createSpan({ cls: "discover-elicit-required", text: t("elicit.requiredMark") });
		}
		// The server's description of the field, between its label and its control (a checkbox's under it).
		const described = this.help(row, f, id);
		if (control === undefined) control = f.control === "select" ? this.select(row, f, id) : this.input(row, f, id);
		const error = this.problemLine(row, id, described);
		control.setAttr("aria-describedby", described.join(" "));
		if (f.required) control.setAttr("aria-required", "true");
		const c = control;
		const read = (): string | boolean => (c instanceof HTMLInputElement && c.type === "checkbox" ? c.checked : c.value);
		this.controls.set(f.name, { control, marks: [control], read, error });
	}

	/**
	 * A multi-select: a group of labelled checkboxes under a legend (Tab and Space work as for any
	 * checkbox), the default's values checked. Its value lists the default's values still checked, in
	 * the default's order, then the others checked, in the choices' order (untouched, the default as it came).
	 */
	private renderMulti(form: HTMLElement, f: FormField, id: string): void {
		const set = form.createEl("fieldset", { cls: ["discover-elicit-field", "is-multi"], attr: { id } });
		const legend = set.createEl("legend", { cls: "discover-elicit-name", text: titleValue(f.field.title ?? f.name) });
		if (f.required) legend.createSpan({ cls: "discover-elicit-required", text: t("elicit.requiredMark") });
		const described = this.help(set, f, id);
		const initial = Array.isArray(f.initial) ? f.initial : [];
		const boxes: { value: string; box: HTMLInputElement }[] = [];
		for (const [i, choice] of (f.choices ?? []).entries()) {
			const label = set.createEl("label", { cls: "discover-elicit-check", attr: { for: `${id}-c${i}` } });
			const box = label.createEl("input", { cls: "discover-elicit-control", attr: { id: `${id}-c${i}`, type: "checkbox", value: choice.value } });
			box.checked = initial.includes(choice.value);
			label.createSpan({ cls: "discover-elicit-option", text: titleValue(choice.label) });
			boxes.push({ value: choice.value, box });
		}
		const error = this.problemLine(set, id, described);
		// Described as a group (help, then the problem); "Required" is in the legend (aria-required does not apply to a group).
		set.setAttr("aria-describedby", described.join(" "));
		const read = (): string[] => {
			const checked = boxes.filter((b) => b.box.checked).map((b) => b.value);
			return [...initial.filter((v) => checked.includes(v)), ...checked.filter((v) => !initial.includes(v))];
		};
		const first = boxes[0]?.box;
		if (first === undefined) return;
		this.controls.set(f.name, { control: first, marks: boxes.map((b) => b.box), read, error });
	}

	private input(row: HTMLElement, f: FormField, id: string): HTMLInputElement {
		const attr: Record<string, string> = { id, type: "text", autocomplete: "off" };
		switch (f.control) {
			case "email":
				attr.type = "email";
				attr.autocomplete = "email";
				break;
			case "url":
				attr.type = "url";
				break;
			case "date":
				attr.type = "date";
				break;
			case "dateTime":
				attr.placeholder = DATE_TIME_EXAMPLE;
				break;
			case "number":
			case "integer": {
				// Text, checked by the form (a number input would hide what was typed when it is not a number).
				const nonNegative = f.field.minimum !== undefined && f.field.minimum >= 0;
				attr.inputmode = nonNegative ? (f.control === "integer" ? "numeric" : "decimal") : "text";
				if (f.field.minimum !== undefined) attr["aria-valuemin"] = String(f.field.minimum);
				if (f.field.maximum !== undefined) attr["aria-valuemax"] = String(f.field.maximum);
				break;
			}
			default:
				break;
		}
		if (f.field.maxLength !== undefined && f.control === "text") attr.maxlength = String(f.field.maxLength);
		const input = row.createEl("input", { cls: "discover-elicit-control", attr });
		input.value = typeof f.initial === "string" ? f.initial : "";
		return input;
	}

	private select(row: HTMLElement, f: FormField, id: string): HTMLSelectElement {
		const select = row.createEl("select", { cls: ["dropdown", "discover-elicit-control"], attr: { id } });
		select.createEl("option", { text: t("elicit.choose"), attr: { value: "" } });
		for (const choice of f.choices ?? []) select.createEl("option", { text: titleValue(choice.label), attr: { value: choice.value } });
		select.value = typeof f.initial === "string" ? f.initial : "";
		return select;
	}

	private button(parent: HTMLElement, text: string, onClick: () => void): HTMLButtonElement {
		const button = parent.createEl("button", { cls: "discover-elicit-button", text, attr: { type: "button" } });
		button.addEventListener("click", onClick);
		return button;
	}

	private input_(): FormInput {
		const input: FormInput = Object.create(null) as FormInput;
		for (const [name, { read }] of this.controls) input[name] = read();
		return input;
	}

	/** Send: every field checked; a problem is said beside its field (what was typed stays), the first one focused. */
	private send(): void {
		if (this.settled) return;
		const out = formContent(this.fields, this.input_());
		let first: Control | undefined;
		for (const [name, { control, marks, error }] of this.controls) {
			const issue = out.ok ? undefined : out.issues[name];
			error.setText(issue === undefined ? "" : issueText(issue));
			error.toggleClass("discover-chat-hidden", issue === undefined);
			for (const mark of marks) {
				if (issue !== undefined) mark.setAttr("aria-invalid", "true");
				else mark.removeAttribute("aria-invalid");
			}
			if (issue !== undefined) first ??= control;
		}
		if (!out.ok) {
			const count = Object.keys(out.issues).length;
			this.summaryEl?.setText(t("elicit.fix", { count }));
			this.summaryEl?.removeClass("discover-chat-hidden");
			first?.focus();
			return;
		}
		this.settle({ action: "accept", content: out.content });
	}

	private settle(result: ElicitResult, shown: ElicitResult | "ended" = result): void {
		if (this.settled) return;
		this.settled = true;
		const hadFocus = this.el.contains(this.el.doc.activeElement);
		const record = createDiv({ cls: ["discover-elicit-record", result.action === "accept" ? "is-sent" : "is-declined"], attr: { role: "status" } });
		record.createSpan({ text: recordText(shown) });
		if (this.el.parentElement === this.parent) {
			// The server's message stays above the record: what was asked, and what became of it.
			this.el.querySelector(".discover-elicit-form")?.remove();
			this.el.appendChild(record);
			this.el.addClass("is-settled");
		}
		if (hadFocus) {
			record.setAttr("tabindex", "-1");
			record.focus();
		}
		this.done(result);
	}
}

/** The form in a modal, for a call whose card is not on screen (the panel closed or hidden). */
export function showElicitationModal(app: App, ask: ElicitAsk, signal: AbortSignal): Promise<ElicitResult> {
	return new Promise((resolve) => {
		const modal = new ElicitModal(app, ask, signal, resolve);
		modal.open();
	});
}

class ElicitModal extends Modal {
	private answered: ElicitResult | undefined;

	constructor(
		app: App,
		private readonly ask: ElicitAsk,
		private readonly signal: AbortSignal,
		private readonly resolve: (result: ElicitResult) => void,
	) {
		super(app);
	}

	override onOpen(): void {
		this.setTitle(t("elicit.modalTitle"));
		this.modalEl.addClass("discover-elicit-modal");
		const onAbort = (): void => this.close();
		this.signal.addEventListener("abort", onAbort, { once: true });
		void showElicitation(this.contentEl, this.ask, this.signal).then((result) => {
			this.signal.removeEventListener("abort", onAbort);
			this.answered = result;
			this.close();
		});
	}

	override onClose(): void {
		this.contentEl.empty();
		// Closed with Escape or the close button: the person did not answer, which is a cancel.
		this.resolve(this.answered ?? { action: "cancel" });
	}
}
