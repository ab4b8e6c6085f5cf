import { setIcon } from "obsidian";
import { renameInput } from "../renameInput";
import { t } from "../../i18n";

export interface ChatHeaderHandlers {
	onRename: (title: string) => void;
	onNewChat: () => void;
	onHistory: () => void;
	/** The model button was clicked: open the model menu under it. */
	onModelMenu: (anchor: HTMLElement) => void;
}

/** The panel's header: the session title (click to rename), the chat's model (click to switch), New chat and History. */
export class ChatHeader {
	readonly el: HTMLElement;
	/** The buttons at the right (New chat, History, and what the panel adds). */
	readonly actionsEl: HTMLElement;
	private readonly titleEl: HTMLButtonElement;
	private readonly titleTextEl: HTMLElement;
	private readonly newChatEl: HTMLButtonElement;
	private readonly modelEl: HTMLButtonElement;
	private readonly modelNameEl: HTMLElement;
	private readonly agentNameEl: HTMLElement;
	private editor: HTMLInputElement | undefined;
	private title = t("panel.newChat");
	private renamable = false;
	private agentName = "";
	private modelName = "";

	constructor(parentEl: HTMLElement, private readonly handlers: ChatHeaderHandlers) {
		this.el = parentEl.createDiv({ cls: "discover-chat-header" });
		this.titleEl = this.el.createEl("button", { cls: "discover-chat-title", attr: { type: "button" } });
		this.titleTextEl = this.titleEl.createSpan({ cls: "discover-chat-title-text" });
		// Shown on hover and focus (styles.css): clicking the title renames the chat.
		setIcon(this.titleEl.createSpan({ cls: "discover-chat-title-pencil", attr: { "aria-hidden": "true" } }), "pencil");
		this.titleEl.addEventListener("click", () => this.startRename());
		this.modelEl = this.el.createEl("button", { cls: "discover-chat-model", attr: { type: "button", "aria-haspopup": "menu" } });
		// The chat's agent and its model share one button and one menu; in a narrow panel the button
		// takes a second line under the title (styles.css), so the title keeps the free space.
		this.agentNameEl = this.modelEl.createSpan({ cls: ["discover-chat-agent-name", "discover-chat-hidden"] });
		this.modelNameEl = this.modelEl.createSpan({ cls: "discover-chat-model-name" });
		setIcon(this.modelEl.createSpan({ cls: "discover-chat-model-chevron" }), "chevron-down");
		this.modelEl.addEventListener("click", () => handlers.onModelMenu(this.modelEl));
		this.setModel("", "");
		const actions = (this.actionsEl = this.el.createDiv({ cls: "discover-chat-header-actions" }));
		this.newChatEl = iconButton(actions, "square-pen", t("panel.newChat"), handlers.onNewChat);
		iconButton(actions, "history", t("panel.openHistory"), handlers.onHistory);
		this.setTitle(this.title, false);
	}

	/** Shows the title; a session that does not exist yet cannot be renamed. */
	setTitle(title: string, renamable: boolean): void {
		this.title = title;
		this.renamable = renamable;
		this.titleTextEl.setText(title);
		this.titleEl.disabled = !renamable;
		this.titleEl.setAttr("aria-label", renamable ? t("panel.rename", { title }) : title);
	}

	/** The chat's model ("" when none is chosen) and where it runs, for the tooltip. */
	setModel(model: string, where: string): void {
		this.modelName = model;
		this.modelNameEl.setText(model === "" ? t("panel.chooseModel") : model);
		this.showAgent();
		this.modelEl.setAttr("aria-label", model === "" ? t("panel.chooseModel") : where === "" ? t("panel.modelLabel", { model }) : t("panel.modelLabelWhere", { model, where }));
	}

	/** The chat's agent ("" when chats have none). */
	setAgent(name: string): void {
		this.agentName = name;
		this.agentNameEl.setText(name);
		this.modelEl.setAttr("title", name === "" ? null : t("panel.agentTitle", { agent: name }));
		this.showAgent();
	}

	/** Before a model is chosen the button reads "Choose a model" alone: the agent's name beside it would only crowd it. */
	private showAgent(): void {
		this.agentNameEl.toggleClass("discover-chat-hidden", this.agentName === "" || this.modelName === "");
	}

	setBusy(busy: boolean): void {
		this.newChatEl.disabled = busy;
		// The answer being written keeps its model; switching waits until it ends.
		this.modelEl.disabled = busy;
	}

	startRename(): void {
		if (!this.renamable || this.editor) return;
		const input = renameInput(this.title, (name) => {
			input.replaceWith(this.titleEl);
			this.editor = undefined;
			if (name === undefined) return;
			this.setTitle(name, true);
			this.handlers.onRename(name);
		});
		this.editor = input;
		this.titleEl.replaceWith(input);
		input.focus();
		input.select();
	}
}

export function iconButton(parentEl: HTMLElement, icon: string, label: string, onClick: () => void): HTMLButtonElement {
	const button = parentEl.createEl("button", { cls: ["clickable-icon", "discover-chat-icon-button"], attr: { type: "button", "aria-label": label } });
	setIcon(button, icon);
	button.addEventListener("click", onClick);
	return button;
}
