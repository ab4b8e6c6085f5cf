// The permission prompt: what the model wants to do, in the person's words, its arguments folded,
// a write's diff, and the choices. The tool card of a call waiting for permission mounts it; the
// engine's PermissionRules turns the decision into a rule or an answer for the model. Everything
// the model sent is untrusted and only ever becomes text (createEl/setText, never HTML or Markdown).
// Stop and the engine's 5-minute expiry abort `signal`: the prompt goes and the answer is a plain deny.
import type { McpToolOrigin, ToolCall } from "../../core/types";
import type { AccessDecision, AlwaysScope, AskInfo } from "../../tools/permissions";
import type { ContentMark } from "../../tools/contentMarks";
import type { ToolPreview } from "../../tools/types";
import { t } from "../../i18n";
import { renderDiff } from "./DiffView";
import { agentName, argumentEntries, describeToolCall, scopeFolderName, titleValue } from "./permissionText";

export interface PermissionRequest {
	call: ToolCall;
	tool: { name: string; access: "read" | "write"; mcp?: McpToolOrigin };
	/** A write's preview: with it the prompt shows the diff and asks Accept / Reject. */
	preview?: ToolPreview;
	/** What marks the write (asked every time: no standing choice) and what "Always allow" may offer. */
	info?: AskInfo;
}

const MARK_TEXT: Record<ContentMark, "permission.markTemplater" | "permission.markDataviewjs" | "permission.markObsidianUri"> = {
	templater: "permission.markTemplater",
	dataviewjs: "permission.markDataviewjs",
	obsidianUri: "permission.markObsidianUri",
};


/** The engine cuts a reason at 500 characters; the field says so by not taking more. */
const REASON_MAX = 500;

let promptCount = 0;

/**
 * Shows the prompt at the end of `parent` and resolves with the person's decision; the prompt is
 * then replaced by a one-line record of it ("Allowed once", "Declined: reason"). An aborted
 * `signal` removes the prompt and resolves `{ kind: "deny" }`.
 */
export function showPermissionPrompt(parent: HTMLElement, req: PermissionRequest, signal?: AbortSignal): Promise<AccessDecision> {
	return new Promise((resolve) => {
		if (signal?.aborted) {
			resolve({ kind: "deny" });
			return;
		}
		const onAbort = (): void => prompt.abort();
		const prompt = new PermissionPrompt(parent, req, (decision) => {
			signal?.removeEventListener("abort", onAbort);
			resolve(decision);
		});
		signal?.addEventListener("abort", onAbort, { once: true });
		prompt.focus();
	});
}

class PermissionPrompt {
	private readonly el: HTMLElement;
	private readonly actionsEl: HTMLElement;
	/** The button that opens the reason field (Reject or Deny): focus goes back to it from the field. */
	private readonly denyButton: HTMLButtonElement;
	private reasonEl: HTMLElement | null = null;
	private settled = false;

	constructor(
		private readonly parent: HTMLElement,
		req: PermissionRequest,
		private readonly done: (decision: AccessDecision) => void,
	) {
		const id = `discover-permission-${++promptCount}`;
		const { call, tool, preview } = req;
		const isWrite = tool.access === "write";
		this.el = parent.createDiv({
			cls: ["discover-permission", isWrite ? "is-write" : "is-read"],
			attr: { role: "group", tabindex: "-1", "aria-labelledby": `${id}-title`, "aria-describedby": `${id}-label` },
		});
		this.el.createDiv({ cls: "discover-permission-label", text: t("permission.needed"), attr: { id: `${id}-label` } });
		this.el.createDiv({ cls: "discover-permission-title", text: describeToolCall(call, tool, preview), attr: { id: `${id}-title` } });
		// An MCP tool's card shows its arguments as a form already; the prompt does not fold a second copy.
		if (tool.mcp === undefined) this.renderArguments(call.arguments);
		const withDiff = isWrite && preview !== undefined;
		if (withDiff) renderDiff(this.el, preview.diff, t("permission.diffLabel", { path: titleValue(preview.path) }), t("permission.diffEmpty"));
		const marks = isWrite ? (req.info?.marks ?? []) : [];
		const marked = marks.length > 0;
		if (marked) {
			const note = this.el.createDiv({ cls: "discover-permission-marks", attr: { role: "note" } });
			for (const mark of marks) note.createDiv({ cls: "discover-permission-mark", text: t(MARK_TEXT[mark]) });
			note.createDiv({ cls: "discover-permission-mark-asked", text: t("permission.markedAsked") });
		}

		this.actionsEl = this.el.createDiv({ cls: "discover-permission-actions" });
		const toolName = titleValue(tool.name);
		if (withDiff) {
			const main = this.actionsEl.createDiv({ cls: "discover-permission-main" });
			this.button(main, t("permission.accept"), undefined, ["mod-cta"], () => this.decide({ kind: "once" }));
			this.denyButton = this.button(main, t("permission.reject"), undefined, [], () => this.openReason());
			// Wider grants for a write are there, but quieter than the decision about this change; a marked
			// write has none (it is asked every time).
			if (!marked) {
				const more = this.actionsEl.createDiv({ cls: "discover-permission-more" });
				this.button(more, t("permission.allowChat"), t("permission.allowChatLabel", { tool: toolName }), ["discover-permission-secondary"], () => this.decide({ kind: "chat" }));
				this.alwaysControls(more, req.info, toolName, ["discover-permission-secondary"]);
			}
		} else {
			const main = this.actionsEl.createDiv({ cls: "discover-permission-main" });
			this.button(main, t("permission.allowOnce"), undefined, ["mod-cta"], () => this.decide({ kind: "once" }));
			if (!marked) {
				this.button(main, t("permission.allowChat"), t("permission.allowChatLabel", { tool: toolName }), [], () => this.decide({ kind: "chat" }));
				this.alwaysControls(main, req.info, toolName, []);
			}
			this.denyButton = this.button(main, t("permission.deny"), undefined, [], () => this.openReason());
		}
	}

	/** Focus lands on the prompt itself (a keypress there decides nothing); Tab then walks it in order. */
	focus(): void {
		this.el.focus();
	}

	/** Stop or expiry: the prompt goes without a record (the tool card tells what became of the call). */
	abort(): void {
		if (this.settled) return;
		this.settled = true;
		this.el.remove();
		this.done({ kind: "deny" });
	}

	private renderArguments(args: Record<string, unknown>): void {
		const entries = argumentEntries(args);
		if (entries.length === 0) return;
		const details = this.el.createEl("details", { cls: "discover-permission-args" });
		details.createEl("summary", { text: t("permission.details") });
		const body = details.createDiv({ cls: "discover-permission-args-body" });
		for (const { name, value } of entries) {
			const row = body.createDiv({ cls: "discover-permission-arg" });
			row.createDiv({ cls: "discover-permission-arg-name", text: name });
			row.createDiv({ cls: "discover-permission-arg-value", text: value });
		}
	}

	/**
	 * "Always allow", with where it applies when the write names a folder: a select whose first
	 * choice is the folder of the path in the card; the whole vault only by choosing it; each also
	 * "only for" the chat's agent when it has one.
	 */
	private alwaysControls(parent: HTMLElement, info: AskInfo | undefined, toolName: string, cls: string[]): void {
		const folder = info?.folder;
		// An MCP tool has no folder: its rule holds in every chat, or only for the chat's agent.
		if (info?.mcp !== undefined && info.agent !== undefined) {
			const agent = agentName(info.agent);
			this.scopedAlways(parent, toolName, cls, [
				{ value: "all", text: t("permission.scopeAllChats"), scope: {} },
				{ value: "agent", text: t("permission.scopeAgentOnly", { agent }), scope: { onlyAgent: true } },
			]);
			return;
		}
		if (folder === undefined) {
			this.button(parent, t("permission.allowAlways"), t("permission.allowAlwaysLabel", { tool: toolName }), cls, () => this.decide({ kind: "always" }));
			return;
		}
		const where = scopeFolderName(folder);
		const agent = info?.agent !== undefined ? agentName(info.agent) : undefined;
		const choices: { value: string; text: string; scope: AlwaysScope }[] = [{ value: "folder", text: t("permission.scopeFolder", { folder: where }), scope: { scope: "folder" } }];
		if (agent !== undefined) choices.push({ value: "folder-agent", text: t("permission.scopeFolderAgent", { folder: where, agent }), scope: { scope: "folder", onlyAgent: true } });
		choices.push({ value: "vault", text: t("permission.scopeVault"), scope: { scope: "vault" } });
		if (agent !== undefined) choices.push({ value: "vault-agent", text: t("permission.scopeVaultAgent", { agent }), scope: { scope: "vault", onlyAgent: true } });
		this.scopedAlways(parent, toolName, cls, choices);
	}

	/** A select of how far the rule goes (its first choice the default), then "Always allow". */
	private scopedAlways(parent: HTMLElement, toolName: string, cls: string[], choices: { value: string; text: string; scope: AlwaysScope }[]): void {
		const group = parent.createDiv({ cls: "discover-permission-always" });
		const select = group.createEl("select", { cls: ["dropdown", "discover-permission-scope"], attr: { "aria-label": t("permission.scopeLabel") } });
		for (const c of choices) select.createEl("option", { text: c.text, attr: { value: c.value } });
		select.value = choices[0]?.value ?? "";
		this.button(group, t("permission.allowAlways"), t("permission.allowAlwaysLabel", { tool: toolName }), cls, () => {
			const chosen = choices.find((c) => c.value === select.value) ?? choices[0]!;
			this.decide({ kind: "always", ...chosen.scope });
		});
		// The select comes first in reading order ("In Notes/ ▾  Always allow").
		group.prepend(select);
	}

	/** A real button; its label is its text unless the text alone would not say how far a grant goes. */
	private button(parent: HTMLElement, text: string, label: string | undefined, cls: string[], onClick: () => void): HTMLButtonElement {
		const button = parent.createEl("button", { cls: ["discover-permission-button", ...cls], text, attr: { type: "button", "aria-label": label ?? text } });
		button.addEventListener("click", onClick);
		return button;
	}

	/** Deny / Reject: an optional reason for the model. Enter declines, Escape goes back to the choices. */
	private openReason(): void {
		if (this.settled || this.reasonEl) return;
		this.actionsEl.addClass("discover-chat-hidden");
		const form = this.el.createDiv({ cls: "discover-permission-reason" });
		this.reasonEl = form;
		const input = form.createEl("input", {
			cls: "discover-permission-reason-input",
			attr: { type: "text", maxlength: String(REASON_MAX), "aria-label": t("permission.reasonLabel"), placeholder: t("permission.reasonPlaceholder") },
		});
		form.createDiv({ cls: "discover-permission-hint", text: t("permission.reasonHint") });
		const buttons = form.createDiv({ cls: "discover-permission-main" });
		const send = (): void => {
			const reason = input.value.trim();
			this.decide(reason ? { kind: "deny", reason } : { kind: "deny" });
		};
		this.button(buttons, t("permission.reasonSend"), undefined, ["mod-warning"], send);
		this.button(buttons, t("permission.reasonBack"), undefined, [], () => this.closeReason());
		input.addEventListener("keydown", (evt) => {
			// Enter that ends an IME composition (Chinese, Japanese, Korean) only confirms the text.
			if (evt.key === "Enter" && !evt.isComposing && !evt.shiftKey) {
				evt.preventDefault();
				send();
			} else if (evt.key === "Escape") {
				// The field's own Escape: it must not also close a modal or the panel around it.
				evt.preventDefault();
				evt.stopPropagation();
				this.closeReason();
			}
		});
		input.focus();
	}

	private closeReason(): void {
		this.reasonEl?.remove();
		this.reasonEl = null;
		this.actionsEl.removeClass("discover-chat-hidden");
		this.denyButton.focus();
	}

	private decide(decision: AccessDecision): void {
		if (this.settled) return;
		this.settled = true;
		const hadFocus = this.el.contains(this.el.doc.activeElement);
		const record = this.parent.createDiv({ cls: ["discover-permission-record", decision.kind === "deny" ? "is-denied" : "is-allowed"], attr: { role: "status" }, text: recordText(decision) });
		this.el.replaceWith(record);
		// Keyboard users keep their place: the record takes the focus the prompt had.
		if (hadFocus) {
			record.setAttr("tabindex", "-1");
			record.focus();
		}
		this.done(decision);
	}
}

/** The one line left in place of the prompt. */
export function recordText(decision: AccessDecision): string {
	switch (decision.kind) {
		case "once":
			return t("permission.recordOnce");
		case "chat":
			return t("permission.recordChat");
		case "always":
			return t("permission.recordAlways");
		default:
			return decision.reason ? t("permission.recordDeclinedWhy", { reason: decision.reason }) : t("permission.recordDeclined");
	}
}
