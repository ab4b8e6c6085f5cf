// Settings → MCP servers → Add a server by form (beside the JSON paste): a name, the transport
// (a command with its arguments and env, desktop only; or a URL with its headers), each value as
// text or as a secret chosen from Obsidian's secret storage, and a time limit. Every problem shows
// at its field; nothing typed is lost, switching transport included. A typed value that looks like
// a secret is refused as text, with a button that moves it into secret storage.
import { ButtonComponent, DropdownComponent, ExtraButtonComponent, Platform, SecretComponent, Setting, type App } from "obsidian";
import { t } from "../../i18n";
import { emptyMcpForm, emptyMcpFormValue, serverFromForm, type McpForm, type McpFormProblem, type McpFormProblemCode, type McpFormValue } from "../../settings/mcpForm";
import { secretNamer, takenSecretNames } from "../../settings/mcpPaste";
import type { McpServerSetting } from "../../settings/mcpServers";
import type { PlainKey } from "../../i18n/catalogue";

const TOP_MESSAGES: Partial<Record<McpFormProblemCode, PlainKey>> = {
	nameEmpty: "mcp.formNameEmpty",
	nameInvalid: "mcp.formNameInvalid",
	nameTaken: "mcp.formNameTaken",
	commandEmpty: "mcp.formCommandEmpty",
	urlEmpty: "mcp.formUrlEmpty",
	urlInvalid: "mcp.formUrlInvalid",
	urlProtocol: "mcp.formUrlProtocol",
	timeout: "mcp.formTimeoutBad",
};

function rowMessage(p: McpFormProblem & { field: "env" | "headers" }): string {
	switch (p.code) {
		case "keyTaken":
			return t("mcp.formKeyTaken", { key: p.key });
		case "secretNone":
			return t("mcp.formSecretNone", { key: p.key });
		case "looksSecret":
			return t("mcp.formLooksSecret", { key: p.key });
		default:
			return p.field === "headers" ? t("mcp.formHeaderBad") : t("mcp.formEnvBad");
	}
}

export class McpServerForm {
	private form: McpForm = emptyMcpForm();
	private problems: McpFormProblem[] = [];
	/** Why the settings refused the last server the form passed (their own last check). */
	private refused: string | undefined;
	private bodyEl: HTMLElement | null = null;
	private focusAfterDraw: string | null = null;

	constructor(
		private readonly app: App,
		private readonly servers: () => readonly McpServerSetting[],
		/** Saves the server; or says why it was refused (nothing saved). */
		private readonly add: (server: McpServerSetting) => Promise<string | undefined>,
	) {}

	render(parent: HTMLElement): void {
		const details = parent.createEl("details", { cls: "discover-mcp-form" });
		details.createEl("summary", { text: t("mcp.form") });
		this.bodyEl = details.createDiv({ cls: "discover-mcp-form-body" });
		this.draw();
	}

	private problemAt(field: "name" | "command" | "url" | "timeout"): string | undefined {
		const p = this.problems.find((x) => x.field === field);
		const key = p !== undefined ? TOP_MESSAGES[p.code] : undefined;
		return key !== undefined ? t(key) : undefined;
	}

	private markInvalid(setting: Setting, input: HTMLInputElement | HTMLTextAreaElement, message: string | undefined): void {
		if (message === undefined) return;
		input.setAttr("aria-invalid", "true");
		setting.settingEl.addClass("is-invalid");
		setting.infoEl.createDiv({ cls: "discover-chat-setting-message", text: message, attr: { role: "alert" } });
		this.focusAfterDraw ??= input.id;
	}

	private textRow(el: HTMLElement, field: "name" | "command" | "url" | "timeout", name: string, desc: string, get: () => string, set: (v: string) => void, placeholder: string): void {
		const setting = new Setting(el).setName(name).setDesc(desc).setClass("discover-mcp-form-field");
		setting.addText((c) => {
			c.setValue(get()).setPlaceholder(placeholder).onChange(set);
			c.inputEl.id = `discover-mcp-form-${field}`;
			if (field === "url") c.inputEl.type = "url";
			c.inputEl.setAttr("aria-label", name);
			this.markInvalid(setting, c.inputEl, this.problemAt(field));
		});
	}

	private draw(): void {
		const el = this.bodyEl;
		if (el === null) return;
		el.empty();
		this.focusAfterDraw = null;
		const f = this.form;
		el.createDiv({ cls: "setting-item-description", text: t("mcp.formDesc") });
		this.textRow(el, "name", t("mcp.formName"), t("mcp.formNameDesc"), () => f.name, (v) => (f.name = v), "github");
		new Setting(el)
			.setName(t("mcp.formTransport"))
			.setDesc(f.transport === "stdio" && !Platform.isDesktopApp ? t("mcp.formDesktopOnly") : "")
			.setClass("discover-mcp-form-field")
			.addDropdown((d) =>
				d
					.addOption("stdio", t("mcp.formStdio"))
					.addOption("http", t("mcp.formHttp"))
					.setValue(f.transport)
					.onChange((v) => {
						f.transport = v === "http" ? "http" : "stdio";
						this.draw();
					}),
			);
		if (f.transport === "stdio") {
			this.textRow(el, "command", t("mcp.formCommand"), t("mcp.formCommandDesc"), () => f.command, (v) => (f.command = v), "npx");
			new Setting(el)
				.setName(t("mcp.formArgs"))
				.setDesc(t("mcp.formArgsDesc"))
				.setClass("discover-mcp-form-field")
				.addTextArea((c) => {
					c.setValue(f.args).setPlaceholder(t("mcp.formArgsPlaceholder")).onChange((v) => (f.args = v));
					c.inputEl.rows = 3;
					c.inputEl.addClass("discover-mcp-form-args");
					c.inputEl.setAttr("aria-label", t("mcp.formArgs"));
				});
			this.values(el, "env", t("mcp.formEnv"), t("mcp.formAddEnv"));
		} else {
			this.textRow(el, "url", t("mcp.formUrl"), t("mcp.formUrlDesc"), () => f.url, (v) => (f.url = v), "https://example.com/mcp");
			this.values(el, "headers", t("mcp.formHeaders"), t("mcp.formAddHeader"));
		}
		this.textRow(el, "timeout", t("mcp.formTimeout"), t("mcp.formTimeoutDesc"), () => f.timeoutSeconds, (v) => (f.timeoutSeconds = v), "120");
		const footer = el.createDiv({ cls: "discover-mcp-form-footer" });
		if (this.problems.length > 0) footer.createDiv({ cls: "discover-chat-setting-message", text: t("mcp.formFix"), attr: { role: "alert" } });
		if (this.refused !== undefined) footer.createDiv({ cls: "discover-chat-setting-message", text: this.refused, attr: { role: "alert" } });
		new ButtonComponent(footer)
			.setButtonText(t("mcp.formSubmit"))
			.setCta()
			.setClass("discover-mcp-form-submit")
			.onClick(() => void this.submit());
		// Set while the rows were drawn (TypeScript cannot see that through the calls above).
		const focus = this.focusAfterDraw as string | null;
		if (focus !== null) el.querySelector<HTMLElement>(`#${focus}`)?.focus();
	}

	private values(el: HTMLElement, place: "env" | "headers", title: string, addLabel: string): void {
		const rows = this.form[place];
		const group = el.createDiv({ cls: "discover-mcp-form-values" });
		group.createDiv({ cls: "setting-item-name", text: title });
		rows.forEach((row, index) => this.valueRow(group, place, row, index));
		new ButtonComponent(group)
			.setButtonText(addLabel)
			.setClass("discover-mcp-form-add-value")
			.onClick(() => {
				rows.push(emptyMcpFormValue());
				this.draw();
				const keys = this.bodyEl?.querySelectorAll<HTMLInputElement>(`.discover-mcp-form-values input.discover-mcp-form-key`);
				keys?.[keys.length - 1]?.focus();
			});
	}

	private valueRow(group: HTMLElement, place: "env" | "headers", row: McpFormValue, index: number): void {
		const line = group.createDiv({ cls: "discover-mcp-form-value" });
		const key = line.createEl("input", { cls: "discover-mcp-form-key", attr: { type: "text", placeholder: place === "env" ? "API_KEY" : "Authorization", "aria-label": t("mcp.formKey") } });
		key.id = `discover-mcp-form-${place}-${index}`;
		key.value = row.key;
		key.addEventListener("input", () => (row.key = key.value));
		new DropdownComponent(line)
			.addOption("text", t("mcp.formKindText"))
			.addOption("secret", t("mcp.formKindSecret"))
			.setValue(row.kind)
			.onChange((v) => {
				row.kind = v === "secret" ? "secret" : "text";
				this.draw();
			})
			.selectEl.setAttr("aria-label", t("mcp.formKind"));
		if (row.kind === "text") {
			const value = line.createEl("input", { cls: "discover-mcp-form-text", attr: { type: "text", placeholder: t("mcp.formValue"), "aria-label": t("mcp.formValue") } });
			value.value = row.text;
			value.addEventListener("input", () => (row.text = value.value));
		} else {
			const holder = line.createDiv({ cls: "discover-mcp-form-secret" });
			new SecretComponent(this.app, holder).setValue(row.secret).onChange((name) => (row.secret = name));
		}
		new ExtraButtonComponent(line)
			.setIcon("x")
			.setTooltip(t("mcp.formRemoveValue"))
			.onClick(() => {
				this.form[place].splice(index, 1);
				this.problems = this.problems.filter((p) => !(p.field === place && p.index === index));
				this.draw();
			});
		const problem = this.problems.find((p): p is McpFormProblem & { field: "env" | "headers" } => p.field === place && p.index === index);
		if (problem === undefined) return;
		key.setAttr("aria-invalid", "true");
		line.addClass("is-invalid");
		const message = group.createDiv({ cls: "discover-chat-setting-message discover-mcp-form-value-message", text: rowMessage(problem), attr: { role: "alert" } });
		this.focusAfterDraw ??= key.id;
		if (problem.code !== "looksSecret") return;
		// The typed secret goes into secret storage on the person's click, and the row then names it. The
		// button shows the name free now; the name is chosen again on the click (a secret made since
		// keeps its name and value), and the row shows the one chosen.
		const freeName = (): string => secretNamer(takenSecretNames(this.app.secretStorage, this.servers()))(this.form.name.trim() || "server", row.key);
		new ButtonComponent(message.createDiv({ cls: "discover-mcp-buttons" })).setButtonText(t("mcp.formMoveSecret", { secret: freeName() })).onClick(() => {
			const name = freeName();
			try {
				this.app.secretStorage.setSecret(name, row.text);
			} catch (err) {
				message.setText(t("mcp.secretsFailed", { error: err instanceof Error ? err.message : String(err) }));
				return;
			}
			row.kind = "secret";
			row.secret = name;
			row.text = "";
			this.problems = this.problems.filter((p) => p !== problem);
			this.draw();
		});
	}

	private async submit(): Promise<void> {
		const result = serverFromForm(this.form, this.servers());
		this.refused = undefined;
		if (!result.ok) {
			this.problems = result.problems;
			this.draw();
			return;
		}
		this.problems = [];
		// Refused by the settings' last check: the form keeps everything typed.
		this.refused = await this.add(result.server);
		if (this.refused === undefined) this.form = emptyMcpForm();
		this.draw();
	}
}
