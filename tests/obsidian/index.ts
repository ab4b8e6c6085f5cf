// An in-memory runtime of the `obsidian` module for vitest and the browser test (vitest.config.ts
// aliases `obsidian` here). Typed against obsidian.d.ts (see conformance.ts). No Node modules.
import { installDomHelpers } from "./dom";

// Obsidian installs its DOM helpers before any plugin runs; so do we, wherever a DOM exists.
if (typeof window !== "undefined" && typeof document !== "undefined") installDomHelpers(window);

export { installDomHelpers } from "./dom";
export { App, SecretStorage } from "./app";
export { InMemoryAdapter } from "./adapter";
export {
	AbstractTextComponent,
	BaseComponent,
	ButtonComponent,
	DropdownComponent,
	ExtraButtonComponent,
	SecretComponent,
	TextAreaComponent,
	TextComponent,
	ToggleComponent,
	ValueComponent,
} from "./components";
export { Component, Events } from "./events";
export { addIcon, getIcon, getIconIds, setIcon, setTooltip } from "./icons";
export { MarkdownRenderChild, MarkdownRenderer } from "./markdown";
export { FileManager } from "./fileManager";
export { parseYaml, stringifyYaml } from "./yaml";
export { Menu, MenuItem } from "./menu";
export { getAllTags, MetadataCache, parseFrontMatterAliases, parseFrontMatterTags } from "./metadataCache";
export { debounce, getLanguage, Platform, requestUrl, Tasks } from "./misc";
export { Modal, Notice } from "./modal";
export { normalizePath } from "./paths";
export { finishRenderMath, loadPdfJs, loadPrism, renderMath } from "./rendering";
export { Plugin } from "./plugin";
export { Scope } from "./scope";
export { PluginSettingTab, Setting, SettingTab } from "./setting";
export { TAbstractFile, TFile, TFolder, Vault } from "./vault";
export { EmptyView, ItemView, MarkdownView, View } from "./views";
export { editorInfoField } from "./editorFields";
export { Workspace, WorkspaceLeaf } from "./workspace";

export const apiVersion = "1.13.1";
