import { Menu } from "obsidian";
import type { ModelInfo } from "../ports";
import { t } from "../../i18n";
import { errorLine } from "../engine/errorLine";

export interface ModelMenuOptions {
	/** The model the chat uses now: checked in the list. */
	current: string;
	/** The server's models (cached unless `refresh`). */
	list: (refresh: boolean) => Promise<readonly ModelInfo[]>;
	onChoose: (model: string) => void;
	/** The agents, listed above the models (absent: chats have no agents). */
	agents?: {
		/** The chat's agent (its note's path). */
		current: string | undefined;
		list: () => Promise<readonly { path: string; name: string }[]>;
		onChoose: (path: string) => void;
	};
}

/**
 * The header's model menu: the server's models, the current one checked, and "Refresh list".
 * A listing that fails says why in the menu and still offers the current model and Refresh.
 */
export async function openModelMenu(anchor: HTMLElement, options: ModelMenuOptions, refresh = false): Promise<Menu> {
	let models: readonly ModelInfo[] = [];
	let failure: string | undefined;
	try {
		models = await options.list(refresh);
	} catch (err) {
		// A menu item holds one short line: what went wrong, in the person's language.
		failure = errorLine(err).title;
	}
	const agents = options.agents ? await options.agents.list() : [];
	const menu = new Menu();
	const { current } = options;
	if (options.agents && agents.length > 0) {
		const chooser = options.agents;
		menu.addItem((item) => item.setTitle(t("panel.agentsHeading")).setIcon("bot").setDisabled(true));
		for (const agent of agents) {
			menu.addItem((item) =>
				item
					.setTitle(agent.name)
					.setChecked(agent.path === chooser.current)
					.onClick(() => {
						if (agent.path !== chooser.current) chooser.onChoose(agent.path);
					}),
			);
		}
		menu.addSeparator();
		menu.addItem((item) => item.setTitle(t("panel.modelsHeading")).setIcon("cpu").setDisabled(true));
	}
	if (failure !== undefined) menu.addItem((item) => item.setTitle(t("models.listFailed", { error: failure })).setIcon("alert-triangle").setDisabled(true));
	else if (models.length === 0) menu.addItem((item) => item.setTitle(t("models.none")).setDisabled(true));
	const ids = models.map((m) => m.id);
	// The chat's model stays visible even when the server does not list it (pulled elsewhere, renamed).
	if (current !== "" && !ids.includes(current)) ids.unshift(current);
	for (const id of ids) {
		menu.addItem((item) =>
			item
				.setTitle(id)
				.setChecked(id === current)
				.onClick(() => {
					if (id !== current) options.onChoose(id);
				}),
		);
	}
	menu.addSeparator();
	menu.addItem((item) =>
		item
			.setTitle(t("models.refresh"))
			.setIcon("refresh-cw")
			.onClick(() => void openModelMenu(anchor, options, true)),
	);
	const rect = anchor.getBoundingClientRect();
	// The button sits at the panel's right edge: the menu opens leftwards from its right side.
	menu.showAtPosition({ x: rect.right, y: rect.bottom, left: true }, anchor.doc);
	return menu;
}
