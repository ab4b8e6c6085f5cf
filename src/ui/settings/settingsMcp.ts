// Settings → MCP servers: paste servers as JSON (Claude Desktop's `mcpServers`, the inner object or
// one server), with values that look like secrets moved into secret storage once the person agrees
// (never written to data.json); each server's row shows its state, its tools (each can be turned
// off), its last 200 log lines (folded), its secret values (picked from secret storage), and Restart,
// Disable / Enable and Remove. The hub is loaded only when this section is shown.
import { SecretComponent, Setting, type App, type TextAreaComponent, type TextComponent } from "obsidian";
import { t } from "../../i18n";
import { mcpSaveProblem, parseMcpPaste, secretNamer, takenSecretNames, withSecretRefs, type PasteProblem, type SecretCandidate } from "../../settings/mcpPaste";
import { mcpKindOf, type McpServerSetting } from "../../settings/mcpServers";
import type { DiscoverSettings } from "../../settings/settings";
import type { McpServerState } from "../../mcp/toolSource";
import type { McpHubLoader, McpHubPort } from "../mcpPort";
import { McpServerForm } from "./mcpServerForm";

export interface McpSettingsStore {
	readonly settings: DiscoverSettings;
	saveSettings(): Promise<void>;
	readonly mcp?: McpHubLoader;
}

/** The paste box's example: JSON, the same in every language. */
const EXAMPLE = JSON.stringify({ mcpServers: { filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/path"] } } });

function problemText(p: PasteProblem): string {
	switch (p.code) {
		case "json":
			return t("mcp.pasteJson", { detail: p.detail });
		case "shape":
			return t("mcp.pasteShape");
		case "empty":
			return t("mcp.pasteEmpty");
		case "noName":
			return t("mcp.pasteNoName");
		case "server":
			return t("mcp.pasteServer", { server: p.server, field: p.field ?? p.detail });
	}
}

export class McpSection {
	private listEl: HTMLElement | null = null;
	private hub: McpHubPort | undefined;
	private off: (() => void) | undefined;

	constructor(
		private readonly app: App,
		private readonly store: McpSettingsStore,
	) {}

	private get servers(): McpServerSetting[] {
		return this.store.settings.mcpServers;
	}

	render(containerEl: HTMLElement): void {
		new Setting(containerEl).setName(t("mcp.heading")).setDesc(t("mcp.desc")).setHeading();
		this.renderPaste(containerEl);
		new McpServerForm(this.app, () => this.servers, (server) => this.save([server])).render(containerEl);
		this.listEl = containerEl.createDiv({ cls: "discover-mcp-list" });
		this.drawList();
		const load = this.store.mcp;
		if (load !== undefined && this.servers.length > 0) this.follow(load);
	}

	/** Stops following the hub (the tab closes). */
	dispose(): void {
		this.off?.();
		this.off = undefined;
	}

	private renderPaste(containerEl: HTMLElement): void {
		const setting = new Setting(containerEl).setName(t("mcp.paste")).setDesc(t("mcp.pasteDesc")).setClass("discover-chat-setting-stacked");
		const message = setting.infoEl.createDiv({ cls: ["discover-chat-setting-message", "discover-chat-hidden"], attr: { role: "alert" } });
		const confirmEl = setting.infoEl.createDiv({ cls: ["discover-mcp-confirm", "discover-chat-hidden"] });
		// The boxes hold what was typed; nothing else keeps a copy.
		let textBox: TextAreaComponent | undefined;
		let nameBox: TextComponent | undefined;
		setting.addTextArea((c) => {
			textBox = c;
			c.setPlaceholder(EXAMPLE);
			c.inputEl.rows = 6;
			c.inputEl.addClass("discover-mcp-paste");
			c.inputEl.setAttr("aria-label", t("mcp.paste"));
		});
		setting.addText((c) => {
			nameBox = c;
			c.setPlaceholder(t("mcp.namePlaceholder"));
			c.inputEl.addClass("discover-mcp-name");
			c.inputEl.setAttr("aria-label", t("mcp.namePlaceholder"));
		});
		const show = (msg: string): void => {
			message.setText(msg);
			message.toggleClass("discover-chat-hidden", msg === "");
		};
		// After an add: the boxes emptied, so Add again has nothing to add.
		const clear = (): void => {
			textBox?.setValue("");
			nameBox?.setValue("");
		};
		setting.addButton((b) =>
			b
				.setButtonText(t("mcp.add"))
				.setCta()
				.setClass("discover-mcp-add")
				.onClick(() => {
					confirmEl.empty();
					confirmEl.addClass("discover-chat-hidden");
					const result = parseMcpPaste(textBox?.getValue() ?? "", nameBox?.getValue(), takenSecretNames(this.app.secretStorage, this.servers));
					// The text stays in the box whatever goes wrong: nothing typed is lost.
					if (!result.ok) return show(problemText(result.problem));
					const taken = new Set(this.servers.map((s) => s.name.toLowerCase()));
					const dup = result.servers.find((s) => taken.has(s.name.toLowerCase()));
					if (dup !== undefined) return show(t("mcp.duplicate", { server: dup.name }));
					show("");
					if (result.secrets.length === 0) return void this.add(result.servers, [], clear, show);
					this.confirmSecrets(confirmEl, result.secrets, () => void this.add(result.servers, result.secrets, clear, show));
				}),
		);
	}

	/** Asks before moving the pasted secrets into secret storage; without a yes nothing is saved. */
	private confirmSecrets(el: HTMLElement, secrets: readonly SecretCandidate[], yes: () => void): void {
		el.removeClass("discover-chat-hidden");
		el.createDiv({ text: t("mcp.secretsFound") });
		const list = el.createEl("ul");
		for (const s of secrets) list.createEl("li", { text: t("mcp.secretLine", { server: s.server, key: s.key, secret: s.secretName }) });
		const buttons = el.createDiv({ cls: "discover-mcp-buttons" });
		const move = buttons.createEl("button", { cls: "mod-cta", text: t("mcp.secretsMove"), attr: { type: "button" } });
		move.addEventListener("click", () => {
			el.empty();
			el.addClass("discover-chat-hidden");
			yes();
		});
		const cancel = buttons.createEl("button", { text: t("mcp.secretsCancel"), attr: { type: "button" } });
		cancel.addEventListener("click", () => {
			el.empty();
			el.addClass("discover-chat-hidden");
		});
	}

	private async add(servers: McpServerSetting[], proposed: readonly SecretCandidate[], clear: () => void, show: (msg: string) => void): Promise<void> {
		// Named again now, as they are written: a secret made since the question keeps its name and value.
		const name = secretNamer(takenSecretNames(this.app.secretStorage, this.servers));
		const secrets = proposed.map((s) => ({ ...s, secretName: name(s.server, s.key) }));
		const saved = withSecretRefs(servers, secrets);
		// Checked before any secret is written: a refused paste leaves secret storage as it was.
		const refused = this.refusal(saved);
		if (refused !== undefined) return show(refused);
		try {
			for (const s of secrets) {
				const value = servers.find((x) => x.name === s.server)?.[s.place]?.[s.key];
				if (typeof value === "string") this.app.secretStorage.setSecret(s.secretName, value);
			}
		} catch (err) {
			show(t("mcp.secretsFailed", { error: err instanceof Error ? err.message : String(err) }));
			return;
		}
		const late = await this.save(saved);
		if (late !== undefined) return show(late);
		show("");
		clear();
	}

	/** Why these servers may not be saved (translated), or undefined. */
	private refusal(servers: readonly McpServerSetting[]): string | undefined {
		const problem = mcpSaveProblem(this.servers, servers);
		switch (problem?.code) {
			case undefined:
				return undefined;
			case "secret":
				return t("mcp.saveSecret", { key: problem.key, server: problem.server });
			case "invalid":
				return t("mcp.saveInvalid", { server: problem.server });
			case "duplicate":
				return t("mcp.saveDuplicate", { server: problem.server });
		}
	}

	/**
	 * Adds servers (their secrets already references), saves, and follows the hub's states; or, when
	 * the last check refuses them, saves nothing and says why (the caller keeps what was typed).
	 */
	private async save(servers: readonly McpServerSetting[]): Promise<string | undefined> {
		const refused = this.refusal(servers);
		if (refused !== undefined) return refused;
		// A new list, never a push: the saved list may be the defaults' own array.
		this.store.settings.mcpServers = [...this.servers, ...servers];
		this.drawList();
		await this.store.saveSettings();
		if (this.hub === undefined && this.store.mcp !== undefined) this.follow(this.store.mcp);
		return undefined;
	}

	/** Loads the hub (in the background) and redraws the rows as the servers' states change. */
	private follow(load: McpHubLoader): void {
		void load().then((hub) => {
			this.hub = hub;
			this.off?.();
			this.off = hub.onChange(() => this.drawList());
			this.drawList();
		}, () => undefined);
	}

	private stateOf(server: McpServerSetting): McpServerState {
		return this.hub?.state(server.name) ?? { name: server.name, kind: mcpKindOf(server), status: server.enabled ? "idle" : "disabled", tools: [], log: [] };
	}

	private drawList(): void {
		const el = this.listEl;
		if (!el) return;
		el.empty();
		if (this.servers.length === 0) {
			el.createDiv({ cls: "discover-mcp-empty", text: t("mcp.none") });
			return;
		}
		for (const server of this.servers) this.drawRow(el, server);
	}

	private statusText(state: McpServerState): string {
		switch (state.status) {
			case "connected":
				return t("mcp.stateConnected");
			case "connecting":
				return t("mcp.stateConnecting");
			case "failed":
				return t("mcp.stateFailed", { error: state.error ?? "" });
			case "disabled":
				return t("mcp.stateDisabled");
			case "desktop-only":
				return t("mcp.stateDesktopOnly");
			case "idle":
				return t("mcp.stateIdle");
		}
	}

	private drawRow(parent: HTMLElement, server: McpServerSetting): void {
		const state = this.stateOf(server);
		const row = parent.createDiv({ cls: ["discover-mcp-server", `is-${state.status}`] });
		const what = server.command !== undefined ? [server.command, ...(server.args ?? [])].join(" ") : (server.url ?? "");
		const setting = new Setting(row).setName(server.name).setDesc(what);
		setting.descEl.createDiv({ cls: ["discover-mcp-state", `is-${state.status}`], text: this.statusText(state), attr: { role: "status" } });
		setting.addButton((b) =>
			b.setButtonText(t("mcp.restart")).setDisabled(!server.enabled || state.status === "desktop-only" || this.store.mcp === undefined).onClick(async () => {
				const hub = this.hub ?? (await this.store.mcp?.());
				this.hub = hub;
				await hub?.restart(server.name);
				this.drawList();
			}),
		);
		setting.addButton((b) =>
			b.setButtonText(server.enabled ? t("mcp.disable") : t("mcp.enable")).onClick(async () => {
				server.enabled = !server.enabled;
				await this.store.saveSettings();
				if (!server.enabled) await this.hub?.stop(server.name);
				this.drawList();
			}),
		);
		setting.addExtraButton((b) =>
			b
				.setIcon("trash")
				.setTooltip(t("mcp.remove"))
				.onClick(async () => {
					await this.hub?.stop(server.name);
					this.store.settings.mcpServers = this.servers.filter((s) => s !== server);
					await this.store.saveSettings();
					this.drawList();
				}),
		);
		// Secret values: the secret each one names, chosen from secret storage.
		for (const place of ["env", "headers"] as const) {
			for (const [key, value] of Object.entries(server[place] ?? {})) {
				if (typeof value === "string") continue;
				new Setting(row)
					.setName(t("mcp.secretValue", { key }))
					.setClass("discover-mcp-secret")
					.addComponent((c) =>
						new SecretComponent(this.app, c).setValue(value.secret).onChange(async (name) => {
							const map = server[place];
							if (map !== undefined && name !== "") map[key] = { secret: name };
							await this.store.saveSettings();
						}),
					);
			}
		}
		const tools = row.createEl("details", { cls: "discover-mcp-tools" });
		tools.createEl("summary", { text: t("mcp.tools", { count: state.tools.length }) });
		if (state.tools.length === 0) tools.createDiv({ cls: "discover-chat-setting-message", text: t("mcp.toolsUnknown") });
		for (const tool of state.tools) {
			const off = server.disabledTools?.includes(tool.name) === true;
			new Setting(tools)
				.setName(tool.name)
				.setDesc(tool.description.slice(0, 200))
				.addToggle((c) =>
					c.setValue(!off).onChange(async (on) => {
						const rest = (server.disabledTools ?? []).filter((n) => n !== tool.name);
						server.disabledTools = on ? rest : [...rest, tool.name];
						await this.store.saveSettings();
					}),
				);
		}
		const log = row.createEl("details", { cls: "discover-mcp-log" });
		log.createEl("summary", { text: t("mcp.log", { count: state.log.length }) });
		const lines = log.createDiv({ cls: "discover-mcp-log-lines" });
		for (const line of state.log) lines.createDiv({ text: `${new Date(line.at).toLocaleTimeString()} ${line.level} ${line.text}` });
	}
}
